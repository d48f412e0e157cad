// Shared command line of the benchmark servers: stdio by default, `--http --port <n>` for HTTP.
// HTTP servers announce themselves on stderr as "<name> listening on <url>", like generated servers.
export function httpPort(argv = process.argv.slice(2)): number | undefined {
  if (!argv.includes("--http")) return undefined;
  const index = argv.indexOf("--port");
  return index >= 0 ? Number(argv[index + 1]) : 0;
}

export const ECHO_INPUT_SCHEMA = {
  type: "object",
  properties: { text: { type: "string" } },
  required: ["text"],
} as const;
