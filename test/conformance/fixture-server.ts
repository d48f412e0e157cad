// The conformance suites' "everything server", written on our runtime: one endpoint serving both
// protocol eras (2025 sessions and 2026-07-28 per-request metadata). The fixture list lives in
// fixtures/. Usage: tsx test/conformance/fixture-server.ts [port]   (prints "LISTENING <url>")
// compile-schema.ts is deliberately outside the barrel (it pulls in ajv, which generated servers avoid).

import { createServer, serveHttp } from "../../runtime/index.ts";
import { compileSchema } from "../../runtime/protocol/compile-schema.ts";
import { commonTools, modernTools, prompts, resources, resourceTemplates } from "./fixtures/index.ts";

const server = createServer({ name: "mcpgen-conformance-fixture", version: "1.0.0", compileSchema });

// The diagnostic hooks change the lists by adding and removing a throwaway entry, which makes the
// runtime emit list_changed exactly as a real registration change would.
const hooks = {
  toolsChanged: () =>
    server
      .tool({
        name: "test_dynamic_tool",
        description: "Appears briefly when the tool list is mutated",
        inputSchema: { type: "object", properties: {} },
        handler: () => ({ content: [] }),
      })
      .remove(),
  promptsChanged: () =>
    server
      .prompt({
        name: "test_dynamic_prompt",
        description: "Appears briefly when the prompt list is mutated",
        get: () => ({ messages: [] }),
      })
      .remove(),
};

for (const tool of [...commonTools(), ...modernTools(hooks)]) server.tool(tool);
for (const resource of resources()) server.resource(resource);
for (const template of resourceTemplates()) server.resourceTemplate(template);
for (const prompt of prompts()) server.prompt(prompt);

const port = Number(process.argv[2] ?? process.env.PORT ?? 0);
const handle = await serveHttp(server, { port });
console.log(`LISTENING ${handle.url}`);

const shutdown = () => void handle.close().finally(() => process.exit(0));
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
