// mcpgen's runtime used by hand: createServer with the echo tool, its input
// schema compiled once at start-up (compile-schema.ts), on stdio or HTTP.

import { createServer, serveHttp, serveStdio } from "../../runtime/index.ts";
import { compileSchema } from "../../runtime/protocol/compile-schema.ts";
import { ECHO_INPUT_SCHEMA, httpPort } from "./echo-args.ts";

const server = createServer({ name: "runtime-echo", version: "1.0.0", compileSchema });
server.tool<{ text: string }>({
  name: "echo",
  description: "Returns the text it was given.",
  inputSchema: ECHO_INPUT_SCHEMA,
  handler: (args) => ({ content: [{ type: "text", text: args.text }] }),
});

const port = httpPort();
if (port === undefined) {
  serveStdio(server);
} else {
  const handle = await serveHttp(server, { port });
  process.stderr.write(`runtime-echo listening on ${handle.url}\n`);
  process.on("SIGTERM", () => void handle.close().then(() => process.exit(0)));
}
