// The one client every server is measured with: a minimal JSON-RPC 2.0 client
// with no MCP logic beyond the handshake, so the client side costs the same
// for mcpgen, the SDK and the raw floors.
import type { JsonValue } from "./json.ts";

export type RawConnection = {
  /** Sends a request and resolves with its `result`; rejects on a JSON-RPC error. */
  call(method: string, params?: Record<string, JsonValue>): Promise<JsonValue>;
  notify(method: string, params?: Record<string, JsonValue>): Promise<void>;
  /** The server process id (for RSS figures), when the client started it. */
  pid?: number;
  /** Everything the server wrote to stderr so far (warnings under load show up here). */
  stderr(): string;
  /** Stops the server; `graceMs` waits that long after stdin EOF before SIGTERM (stdio only). */
  close(graceMs?: number): Promise<void>;
};

export const CLIENT_INFO = { name: "mcpgen-bench", version: "1.0.0" };
export const LEGACY_VERSION = "2025-11-25";
export const MODERN_VERSION = "2026-07-28";

export class RpcError extends Error {
  constructor(readonly error: JsonValue) {
    super(`JSON-RPC error: ${JSON.stringify(error)}`);
  }
}

/** The 2025-era handshake: initialize, then notifications/initialized. Returns the negotiated version. */
export async function initialize(connection: RawConnection): Promise<string> {
  const result = (await connection.call("initialize", {
    protocolVersion: LEGACY_VERSION,
    capabilities: {},
    clientInfo: CLIENT_INFO,
  })) as { protocolVersion?: string };
  await connection.notify("notifications/initialized");
  return result.protocolVersion ?? LEGACY_VERSION;
}

/** The 2026-era first request: server/discover with the per-request `_meta`. */
export function discoverParams(): Record<string, JsonValue> {
  return {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
      "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  };
}
