// What features add to the HTTP transport, as the shapes the transport calls: the transport imports none
// of them, so a package without a feature carries none of its code or libraries. A feature module
// (runtime/features/*.ts) fills these in; the package's entry point hands the enabled ones to serveHttp.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { JsonRpcMessage } from "../../protocol/types.ts";
import type { AuthConfig, AuthPrincipal } from "../../server/auth-principal.ts";
import type { McpServer } from "../../server/server.ts";
import type { RequestRecord } from "./request-record.ts";
import type { Rejection } from "./security.ts";
import type { Sessions } from "./session-store.ts";

/** An OAuth 2.1 protected resource (the `oauth` feature): validates tokens, serves RFC 9728 metadata. */
export type ProtectedResource = {
  /** The request paths that serve the metadata document. */
  metadataPaths: ReadonlySet<string>;
  metadata(): Record<string, unknown>;
  authenticate(req: IncomingMessage): Promise<{ principal: AuthPrincipal } | { rejection: Rejection }>;
  /** The 403 insufficient_scope answer to a call or read the token lacks scopes for, before it runs. */
  refuse(server: McpServer, message: JsonRpcMessage, auth: AuthPrincipal | undefined): Rejection | undefined;
};

export type ProtectedResourceOptions = {
  serverUrl: string;
  scopesSupported: () => readonly string[];
  resourceName?: string;
  log: (line: string) => void;
};

/** Prometheus metrics (the `metrics` feature). */
export type Metrics = {
  request(record: RequestRecord, status: number): void;
  serve(res: ServerResponse): Promise<void>;
};

export type HttpFeatures = {
  /** A shared session store at a URL (the `redis` feature: --session-store). */
  openSessionStore?: (
    url: string,
    server: McpServer,
    options: { maxSessions: number; idleMs: number; log: (line: string) => void },
  ) => Promise<Sessions>;
  /** Metrics at /metrics (the `metrics` feature: --metrics). */
  createMetrics?: (server: McpServer, gauges: { sessions(): number; streams(): number }) => Promise<Metrics>;
  /** Token validation and metadata (the `oauth` feature: --auth-issuer). */
  createProtectedResource?: (config: AuthConfig, options: ProtectedResourceOptions) => ProtectedResource;
};

/** A feature's part that serveHttp was asked to use but was not given: a defect of the caller. */
export function missingFeature(option: string, feature: string): Error {
  return new Error(`serveHttp: '${option}' needs the ${feature} feature's HTTP part (options.features)`);
}
