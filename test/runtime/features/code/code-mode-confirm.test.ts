// Code mode's confirmation of a destructive call in the 2026 era (issue 27 item 2), over real HTTP on
// 127.0.0.1: the user's "yes" is bound to the exact tool and arguments shown. The retried execute runs
// the code again; code that then picks another target is asked again, an answer sent without the sealed
// requestState answers nothing, one "yes" allows one call, and what the question shows is made visible
// (no bidi overrides, no padding) and bounded.

import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MAX_SHOWN_ARGUMENTS } from "../../../../runtime/features/code/code-confirm.ts";
import { codeFeature } from "../../../../runtime/features/code/feature.ts";
import { createSpecServer, type ServerDefinition } from "../../../../runtime/package/spec-server.ts";
import { type HttpServerHandle, serveHttp } from "../../../../runtime/transport/http/server.ts";
import { modernHeaders, modernMeta, rawPost } from "../../helpers.ts";

type Obj = Record<string, unknown>;
type InputRequests = Record<string, { method: string; params: { message: string } }>;

const definition: ServerDefinition = {
  server: { name: "items", version: "1.0.0" },
  offers: { tools: true },
  catalog: () => ({
    tools: [
      // An upstream read whose answer changes between the runs of one execute.
      { name: "pick_target", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
      { name: "delete_item", inputSchema: { type: "object", properties: { id: { type: "string" } } } },
    ],
    resources: [],
    resourceTemplates: [],
    prompts: [],
  }),
};

let picks = 0;
const deleted: string[] = [];
let http: HttpServerHandle;
beforeAll(async () => {
  const server = createSpecServer(definition, {
    mode: "code",
    features: [codeFeature],
    handlers: {
      tools: {
        pick_target: () => ({ structuredContent: { id: picks++ === 0 ? "harmless" : "important" } }),
        delete_item: (args: Obj) => {
          deleted.push(String(args.id));
          return { structuredContent: { deleted: args.id } };
        },
      },
    },
  });
  http = await serveHttp(server, { log: () => {} });
});
afterAll(() => http?.close());

let id = 1;
async function execute(code: string, retry: Obj = {}): Promise<Obj> {
  const body = {
    jsonrpc: "2.0",
    id: id++,
    method: "tools/call",
    params: { name: "execute", arguments: { code }, ...retry, _meta: modernMeta({}, { elicitation: {} }) },
  };
  const response = await rawPost(http.url, body, modernHeaders("tools/call", "execute"));
  return (response.json as { result: Obj }).result;
}

const accept = { action: "accept" };
const only = (requests: unknown) => Object.entries(requests as InputRequests)[0];

describe("code mode, 2026 era: a confirmation holds for the call it showed", () => {
  test("a retry whose code picks another target is asked again; the first yes runs nothing", async () => {
    picks = 0;
    deleted.length = 0;
    const code = "const t = await api.pick_target({});\nreturn await api.delete_item({ id: t.id });";
    const first = await execute(code);
    expect(first.resultType).toBe("input_required");
    const [key, question] = only(first.inputRequests);
    expect(question.params.message).toContain('{"id":"harmless"}');
    const second = await execute(code, { requestState: first.requestState, inputResponses: { [key]: accept } });
    expect(deleted).toEqual([]);
    expect(second.resultType).toBe("input_required");
    const [key2, question2] = only(second.inputRequests);
    expect(key2).not.toBe(key);
    expect(question2.params.message).toContain('{"id":"important"}');
    // Confirmed as shown, it runs.
    const third = await execute(code, { requestState: second.requestState, inputResponses: { [key2]: accept } });
    expect(JSON.parse((third.content as Array<{ text: string }>)[0].text)).toEqual({ deleted: "important" });
    expect(deleted).toEqual(["important"]);
  });

  test("an answer without the sealed requestState answers no question", async () => {
    deleted.length = 0;
    const code = "return await api.delete_item({ id: 'x' });";
    const first = await execute(code);
    const [key] = only(first.inputRequests);
    const forged = await execute(code, { inputResponses: { [key]: accept, "elicitation-0": accept } });
    expect(forged.resultType).toBe("input_required");
    expect(deleted).toEqual([]);
  });

  test("one yes allows one call: the same call again in that execute is refused, not run twice", async () => {
    deleted.length = 0;
    const code =
      "await api.delete_item({ id: 'a' });\ntry { await api.delete_item({ id: 'a' }); } catch (e) { return e.message; }\nreturn 'twice';";
    const first = await execute(code);
    const [key] = only(first.inputRequests);
    const second = await execute(code, { requestState: first.requestState, inputResponses: { [key]: accept } });
    expect(JSON.parse((second.content as Array<{ text: string }>)[0].text)).toContain(
      "one destructive call per execute",
    );
    expect(deleted).toEqual(["a"]);
  });

  test("the question shows no bidi overrides or padding, and is bounded", async () => {
    const sneaky = `harmless\u202e\u2066${" ".repeat(300)}\u200bimportant${"x".repeat(1000)}`;
    const first = await execute(`return await api.delete_item({ id: ${JSON.stringify(sneaky)} });`);
    const [, question] = only(first.inputRequests);
    const message = question.params.message;
    expect(message).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b]/);
    expect(message).not.toMatch(/ {3}/);
    expect(message).toContain("\\u202e");
    expect(message).toContain("[300 spaces]");
    expect(message).toMatch(/more characters not shown/);
    expect(message.length).toBeLessThan(MAX_SHOWN_ARGUMENTS + 200);
  });
});
