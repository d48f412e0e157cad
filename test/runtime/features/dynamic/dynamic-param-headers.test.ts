// Dynamic mode's call_tool over 2026-07-28 HTTP (issue 27 item 11): the inner call is held to the
// `Mcp-Param-*` rules a direct tools/call of the tool has (header present and equal to the argument,
// absent when the argument is), so a gateway policy keyed on those headers cannot be bypassed by
// calling through call_tool. A real server on 127.0.0.1, raw POSTs.

import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { dynamicFeature } from "../../../../runtime/features/dynamic/feature.ts";
import { createSpecServer, type ServerDefinition } from "../../../../runtime/package/spec-server.ts";
import { ErrorCode } from "../../../../runtime/protocol/constants.ts";
import { type HttpServerHandle, serveHttp } from "../../../../runtime/transport/http/server.ts";
import { modernHeaders, modernMeta, rawPost } from "../../helpers.ts";

const definition: ServerDefinition = {
  server: { name: "repos", version: "1.0.0" },
  offers: { tools: true },
  catalog: () => ({
    tools: [
      {
        name: "delete_repo",
        inputSchema: {
          type: "object",
          properties: { owner: { type: "string", "x-mcp-header": "Owner" }, repo: { type: "string" } },
          required: ["repo"],
        },
      },
    ],
    resources: [],
    resourceTemplates: [],
    prompts: [],
  }),
};

const deleted: string[] = [];
let http: HttpServerHandle;
beforeAll(async () => {
  const server = createSpecServer(definition, {
    mode: "dynamic",
    features: [dynamicFeature],
    handlers: {
      tools: {
        delete_repo: (args: Record<string, unknown>) => {
          deleted.push(`${args.owner}/${args.repo}`);
          return { content: [{ type: "text", text: "deleted" }] };
        },
      },
    },
  });
  http = await serveHttp(server, { log: () => {} });
});
afterAll(() => http?.close());

let id = 1;
async function call(name: string, args: Record<string, unknown>, headers: Record<string, string> = {}) {
  const body = {
    jsonrpc: "2.0",
    id: id++,
    method: "tools/call",
    params: { name, arguments: args, _meta: modernMeta() },
  };
  return rawPost(http.url, body, { ...modernHeaders("tools/call", name), ...headers });
}
const viaCallTool = (args: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call("call_tool", { name: "delete_repo", arguments: args }, headers);
const mismatch = (message: RegExp) => ({
  error: { code: ErrorCode.HeaderMismatch, message: expect.stringMatching(message) },
});

describe("call_tool applies the inner tool's Mcp-Param-* rules", () => {
  test("a header contradicting the inner argument is refused, as on a direct call", async () => {
    deleted.length = 0;
    const direct = await call("delete_repo", { owner: "victim", repo: "r" }, { "Mcp-Param-Owner": "mine" });
    expect(direct.status).toBe(400);
    const forwarded = await viaCallTool({ owner: "victim", repo: "r" }, { "Mcp-Param-Owner": "mine" });
    expect(forwarded.status).toBe(400);
    expect(forwarded.json).toMatchObject(mismatch(/Mcp-Param-Owner header value does not match/));
    expect(deleted).toEqual([]);
  });

  test("a missing header, or one for an absent argument, is refused", async () => {
    deleted.length = 0;
    const missing = await viaCallTool({ owner: "victim", repo: "r" });
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject(mismatch(/Mcp-Param-Owner header is missing/));
    const stray = await viaCallTool({ repo: "r" }, { "Mcp-Param-Owner": "mine" });
    expect(stray.json).toMatchObject(mismatch(/present but the argument is absent/));
    expect(deleted).toEqual([]);
  });

  test("a header that matches runs the tool", async () => {
    deleted.length = 0;
    const ok = await viaCallTool({ owner: "mine", repo: "r" }, { "Mcp-Param-Owner": "mine" });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ result: { content: [{ type: "text", text: "deleted" }] } });
    expect(deleted).toEqual(["mine/r"]);
  });
});
