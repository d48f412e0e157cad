// Our runtime's McpServer exposing the shared peer fixture, for the official SDK clients to drive.
// Usage:
//   tsx runtime-server.ts stdio
//   tsx runtime-server.ts http      (prints "LISTENING <url>" once bound to 127.0.0.1)

import { createServer, McpError, serveHttp, serveStdio } from "../../../runtime/index.ts";
import { compileSchema } from "../../../runtime/protocol/compile-schema.ts";
import {
  ADD_INPUT_SCHEMA,
  ASK_ELICITATION,
  addText,
  askText,
  COUNT_INPUT_SCHEMA,
  countText,
  ECHO_INPUT_SCHEMA,
  FAIL_MESSAGE,
  GREET_PROMPT,
  greetText,
  ITEM_TEMPLATE,
  itemText,
  KEY_INPUT_SCHEMA,
  PEER_SERVER_INFO,
  PEER_TOOLS,
  STATIC_RESOURCE,
  waitForAbort,
} from "../peer-fixture.ts";

// compileSchema makes the runtime validate arguments, as generated servers do with precompiled validators.
const server = createServer({ ...PEER_SERVER_INFO, compileSchema });

server.tool<{ a: number; b: number }>({
  ...PEER_TOOLS.add,
  inputSchema: structuredClone(ADD_INPUT_SCHEMA) as unknown as { type: "object" },
  handler: ({ a, b }) => ({ content: [{ type: "text", text: addText(a, b) }] }),
});
server.tool<{ text: string }>({
  ...PEER_TOOLS.echo,
  inputSchema: structuredClone(ECHO_INPUT_SCHEMA) as unknown as { type: "object" },
  handler: ({ text }) => ({ content: [{ type: "text", text }] }),
});
server.tool({
  ...PEER_TOOLS.fail,
  inputSchema: { type: "object", properties: {} },
  handler: () => ({ isError: true, content: [{ type: "text", text: FAIL_MESSAGE }] }),
});
server.tool<{ steps: number }>({
  ...PEER_TOOLS.count,
  inputSchema: structuredClone(COUNT_INPUT_SCHEMA) as unknown as { type: "object" },
  handler: async ({ steps }, ctx) => {
    for (let step = 1; step <= steps; step++) {
      ctx.progress(step, steps);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return { content: [{ type: "text", text: countText(steps) }] };
  },
});
server.tool({
  ...PEER_TOOLS.ask,
  inputSchema: { type: "object", properties: {} },
  handler: async (_args, ctx) => {
    const answer = await ctx.elicit(structuredClone(ASK_ELICITATION) as Parameters<typeof ctx.elicit>[0]);
    return { content: [{ type: "text", text: askText(String(answer.content?.name)) }] };
  },
});
const slowOutcomes = new Map<string, string>();
server.tool<{ key: string }>({
  ...PEER_TOOLS.slow,
  inputSchema: structuredClone(KEY_INPUT_SCHEMA) as unknown as { type: "object" },
  handler: async ({ key }, ctx) => {
    slowOutcomes.set(key, "running");
    const outcome = await waitForAbort(ctx.signal);
    slowOutcomes.set(key, outcome);
    return { content: [{ type: "text", text: outcome }] };
  },
});
server.tool<{ key: string }>({
  ...PEER_TOOLS.slowStatus,
  inputSchema: structuredClone(KEY_INPUT_SCHEMA) as unknown as { type: "object" },
  handler: ({ key }) => ({ content: [{ type: "text", text: slowOutcomes.get(key) ?? "none" }] }),
});
server.tool({
  ...PEER_TOOLS.touch,
  inputSchema: { type: "object", properties: {} },
  handler: () => {
    // Registering and removing a tool is a real list change; the runtime announces it by itself.
    server.tool({ name: "ephemeral", inputSchema: { type: "object" }, handler: () => ({ content: [] }) }).remove();
    server.notifyResourceUpdated(STATIC_RESOURCE.uri);
    return { content: [{ type: "text", text: "touched" }] };
  },
});
server.resource({
  uri: STATIC_RESOURCE.uri,
  name: STATIC_RESOURCE.name,
  mimeType: STATIC_RESOURCE.mimeType,
  read: () => ({
    contents: [{ uri: STATIC_RESOURCE.uri, mimeType: STATIC_RESOURCE.mimeType, text: STATIC_RESOURCE.text }],
  }),
});
server.resourceTemplate({
  ...ITEM_TEMPLATE,
  read: (uri, variables) => ({
    contents: [{ uri, mimeType: ITEM_TEMPLATE.mimeType, text: itemText(variables.id ?? "") }],
  }),
});
server.prompt({
  name: GREET_PROMPT.name,
  description: GREET_PROMPT.description,
  arguments: [{ name: GREET_PROMPT.argument, required: true }],
  get: (args) => {
    const name = args[GREET_PROMPT.argument];
    if (name === undefined) throw new McpError(-32602, `Missing required argument: ${GREET_PROMPT.argument}`);
    return { messages: [{ role: "user", content: { type: "text", text: greetText(name) } }] };
  },
});

if (process.argv[2] === "http") {
  const handle = await serveHttp(server);
  console.log(`LISTENING ${handle.url}`);
  process.on("SIGTERM", () => void handle.close().finally(() => process.exit(0)));
} else {
  serveStdio(server);
}
