// Small helpers for the runtime tests: raw HTTP requests against a real server.
export const MODERN = "2026-07-28";

export function modernMeta(extra: Record<string, unknown> = {}, capabilities: Record<string, unknown> = {}) {
  return {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": { name: "raw-test", version: "0" },
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    ...extra,
  };
}

export type RawResponse = { status: number; headers: Headers; text: string; json: unknown };

export async function rawPost(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** The standard 2026 headers for a request body. */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  const headers: Record<string, string> = { "MCP-Protocol-Version": MODERN, "Mcp-Method": method };
  if (name !== undefined) headers["Mcp-Name"] = name;
  return headers;
}

/** JSON-RPC messages carried in an SSE body. */
export function sseMessages(text: string): Array<Record<string, unknown>> {
  return text
    .split(/\n\n/)
    .map((event) =>
      event
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trim())
        .join("\n"),
    )
    .filter((data) => data !== "")
    .map((data) => JSON.parse(data));
}
