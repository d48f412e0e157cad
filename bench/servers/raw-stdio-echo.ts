// The stdio floor: a bare newline-JSON process that answers every request with
// an echo result and does nothing else (no MCP, no validation).
import { httpPort } from "./echo-args.ts";

if (httpPort() !== undefined) throw new Error("raw-stdio-echo serves stdio only");

let buffered = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  buffered += chunk;
  let start = 0;
  let newline = buffered.indexOf("\n", start);
  let out = "";
  while (newline >= 0) {
    const message = JSON.parse(buffered.slice(start, newline));
    start = newline + 1;
    if (message.id !== undefined) out += `${JSON.stringify(answer(message))}\n`;
    newline = buffered.indexOf("\n", start);
  }
  buffered = buffered.slice(start);
  if (out) process.stdout.write(out);
});
process.stdin.on("end", () => process.exit(0));

function answer(message: { id: number | string; method: string; params?: { arguments?: { text?: string } } }) {
  if (message.method === "initialize") {
    const result = {
      protocolVersion: "2025-11-25",
      capabilities: { tools: {} },
      serverInfo: { name: "raw", version: "1" },
    };
    return { jsonrpc: "2.0", id: message.id, result };
  }
  const text = message.params?.arguments?.text ?? "";
  return { jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text }] } };
}
