// Dynamic mode over an API that has a tool named like one of dynamic mode's own (`search_tools`): the
// dynamic tool keeps the name, and the API's tool is reported as hidden, with how to reach it, instead
// of call_tool silently running the dynamic tool in its place.

import { expect, test } from "vitest";
import { DYNAMIC_TOOLS } from "../../../../runtime/features/dynamic/dynamic-tools.ts";
import { dynamicFeature } from "../../../../runtime/features/dynamic/feature.ts";
import { createSpecServer, type ServerDefinition } from "../../../../runtime/package/spec-server.ts";
import { modernMeta } from "../../helpers.ts";

const definition: ServerDefinition = {
  server: { name: "clash", version: "1.0.0" },
  offers: { tools: true },
  catalog: () => ({
    tools: [
      { name: "search_tools", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
      { name: "ping", inputSchema: { type: "object" } },
    ],
    resources: [],
    resourceTemplates: [],
    prompts: [],
  }),
};

test("an API tool named like a dynamic tool is hidden in dynamic mode, and call_tool says so", async () => {
  const server = createSpecServer(definition, {
    mode: "dynamic",
    features: [dynamicFeature],
    handlers: {
      tools: {
        search_tools: () => ({ content: [{ type: "text", text: "the API's own search" }] }),
        ping: () => ({ content: [{ type: "text", text: "pong" }] }),
      },
    },
  });
  let id = 1;
  const request = (method: string, params: Record<string, unknown> = {}) =>
    server.handleRequest(
      { jsonrpc: "2.0", id: id++, method, params: { ...params, _meta: modernMeta() } },
      { signal: new AbortController().signal, notify: () => {} },
    );
  expect((await request("tools/list")).tools).toEqual(DYNAMIC_TOOLS);
  const hidden = await request("tools/call", { name: "call_tool", arguments: { name: "search_tools" } });
  expect(hidden).toMatchObject({
    isError: true,
    content: [
      {
        text: "The API's own tool 'search_tools' is hidden by dynamic mode's tool of that name; run the server with --mode all to call it.",
      },
    ],
  });
  const ping = await request("tools/call", { name: "call_tool", arguments: { name: "ping" } });
  expect(ping).toMatchObject({ content: [{ type: "text", text: "pong" }] });
});
