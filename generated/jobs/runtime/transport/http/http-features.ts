// What features (runtime/features/*) add to HTTP: the transport imports none, so a package carries only its own.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { JsonRpcMessage } from "../../protocol/types.ts";
import type { AuthConfig, AuthPrincipal } from "../../server/auth-principal.ts";
import type { McpServer } from "../../server/server.ts";
import type { AccessGate } from "../../server/types.ts";
import type { RequestRecord } from "./request-record.ts";
import type { Rejection } from "./security.ts";
import type { Sessions } from "./session-store.ts";

/** An OAuth 2.1 protected resource (the `oauth` feature): validates tokens, serves RFC 9728 metadata. */
export type ProtectedResource = {
  metadataPaths: ReadonlySet<string>;
  metadata(): Record<string, unknown>;
  authenticate(req: IncomingMessage): Promise<{ principal: AuthPrincipal } | { rejection: Rejection }>;
  /** The 403 insufficient_scope answer to a call or read the token lacks scopes for, before it runs. */
  refuse(server: McpServer, message: JsonRpcMessage, auth: AuthPrincipal | undefined): Rejection | undefined;
  fallbackGate: AccessGate; // the gate of a server given none: each resource's own `scopes` still bind its callers
};

export type ProtectedResourceOptions = {
  serverUrl: string;
  scopesSupported: () => readonly string[];
  resourceName?: string;
  log: (line: string) => void;
};

export type Metrics = {
  request(record: RequestRecord, status: number): void;
  serve?(res: ServerResponse): Promise<void>; // GET /metrics on the MCP port; none with a port of their own
};

export type HttpFeatures = {
  openSessionStore?: (
    url: string,
    server: McpServer,
    options: { maxSessions: number; idleMs: number; log: (line: string) => void },
  ) => Promise<Sessions>;
  createMetrics?: (
    server: McpServer,
    gauges: { sessions(): number; streams(): number },
    host: string,
    options: { port?: number },
  ) => Promise<Metrics>;
  createProtectedResource?: (config: AuthConfig, options: ProtectedResourceOptions) => ProtectedResource;
};
