// Issue 27 item 17: a failure of the HTTP transport itself (here a deferred catalog whose loading throws
// the way a missing dependency does) is logged for the operator and answered 500 with a generic message
// and the request id; the error's text (module paths) never reaches the client. Real HTTP on 127.0.0.1.
import { expect, test } from "vitest";
import { createServer, serveHttp } from "../../../../runtime/index.ts";
import { modernHeaders, modernMeta, rawPost } from "../../helpers.ts";

const LEAK = "Cannot find module '/srv/app/node_modules/secret-dep/index.js'";

test("an internal error answers 500 with the request id only; the detail goes to the log", async () => {
  const server = createServer({ name: "broken", version: "1.0.0" });
  server.defer(
    () => {
      throw new Error(LEAK);
    },
    { tools: true },
  );
  const lines: string[] = [];
  const handle = await serveHttp(server, { log: (line) => lines.push(line) });
  try {
    const call = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "t", arguments: {}, _meta: modernMeta() },
    };
    const answer = await rawPost(handle.url, call, { ...modernHeaders("tools/call", "t"), "X-Request-Id": "req-17" });
    expect(answer.status).toBe(500);
    expect(answer.text).not.toContain("/srv/app");
    expect(answer.text).not.toContain("Cannot find module");
    expect(answer.headers.get("x-request-id")).toBe("req-17");
    expect(answer.json).toMatchObject({
      error: { code: -32603, message: "Internal error (request id req-17)", data: { requestId: "req-17" } },
    });
    expect(lines.join("\n")).toContain("req-17");
    expect(lines.join("\n")).toContain(LEAK);
  } finally {
    await handle.close();
  }
});
