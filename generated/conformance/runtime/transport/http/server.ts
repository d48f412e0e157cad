// The Streamable HTTP transport, server side: the options made into the routes' shared state; listen; close.
import { createServer as createHttpServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { errorResponse } from "../../protocol/codec.ts";
import { ErrorCode } from "../../protocol/constants.ts";
import type { AuthConfig } from "../../server/auth-principal.ts";
import { boundLogValue } from "../../server/log.ts";
import type { McpServer } from "../../server/server.ts";
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, Drain } from "./drain.ts";
import type { HttpFeatures } from "./http-features.ts";
import type { HttpState } from "./http-state.ts";
import { sendJson } from "./responder.ts";
import { dispatch, routeTable } from "./routes.ts";
import {
  DEFAULT_MAX_SESSIONS,
  SessionStore,
  SessionStoreUnavailableError,
  type Sessions,
  sendStoreUnavailable,
} from "./session-store.ts";
import { openStreams } from "./sse.ts";

export type HttpServerOptions = {
  /** Defaults: any free port (the handle tells which), 127.0.0.1 (local servers should not listen everywhere). */
  port?: number;
  host?: string;
  path?: string;
  /** Admission: a static `Authorization: Bearer` token (else 401); Origins allowed besides absent and localhost
   * ones, Host names allowed (default: loopback names when bound to loopback); others get 403. */
  bearerToken?: string;
  allowedOrigins?: string[];
  allowedHosts?: string[];
  maxBodyBytes?: number; // largest accepted POST body (default 4 MiB, else 413)
  /** Time allowed to receive the request headers (default 10 s), and the whole request (default 30 s). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** SSE keep-alive interval (default 15 s); the reconnect delay announced on 2025-era resumable streams (1 s). */
  keepAliveMs?: number;
  retryMs?: number;
  /** 2025-era sessions: dropped after this long idle (default 30 min); how many live at most (default 10,000). */
  sessionIdleMs?: number;
  maxSessions?: number;
  /** On close() (drain.ts): how long /readyz answers 503 while MCP requests are still served (default 0), and
   * how long requests in flight may take to finish (default 30 s). */
  shutdownGraceMs?: number;
  shutdownTimeoutMs?: number;
  auth?: AuthConfig; // OAuth 2.1 protected resource (--auth-issuer, issue 17); not together with `bearerToken`
  metrics?: { port?: number }; // Prometheus metrics (--metrics): /metrics here behind /mcp's checks, or on `port`
  sessionStore?: string; // a Redis URL sharing 2025-era sessions between instances (--session-store, issue 18)
  traceSessions?: (sessions: Sessions) => Sessions; // --otel: the store's round trips in spans (the otel feature)
  log?: (line: string) => void; // operator messages (default: stderr)
  features?: HttpFeatures; // the code `auth`, `metrics` and `sessionStore` need (runtime/features/*.ts `http`)
  pages?: HttpState["pages"]; // a feature's own pages by path (GET and POST)
};

export type HttpServerHandle = { url: string; port: number; host: string; close(): Promise<void> };

export async function serveHttp(server: McpServer, options: HttpServerOptions = {}): Promise<HttpServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const state = await createState(server, options, host);
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? 30_000, headersTimeout);
  const limits = {
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: IDLE_CONNECTION_MS,
    // Node only enforces the two timeouts when it sweeps connections; sweep often enough to honour them.
    connectionsCheckingInterval: Math.min(1_000, headersTimeout),
  };
  const httpServer = createHttpServer(limits, (req, res) => {
    dispatch(state, req, res).catch((error) => {
      if (error instanceof SessionStoreUnavailableError && !res.headersSent)
        return sendStoreUnavailable(res, undefined, error);
      answerInternalError(res, error, state.log);
    });
  });
  const sessionIdleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const sweep = () => state.sessions.sweep(Date.now() - sessionIdleMs);
  const sweeper = setInterval(sweep, Math.min(sessionIdleMs, 60_000)).unref();
  const port = await listen(httpServer, options.port ?? 0, host);
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}${state.path}`;
  const createProtectedResource = options.features?.createProtectedResource;
  if (options.auth && createProtectedResource) {
    // Made once listening: its default audience is the server's own URL.
    const gate = server.options.toolGate;
    const resource = createProtectedResource(options.auth, {
      serverUrl: url,
      scopesSupported: () => gate?.all() ?? [],
      resourceName: server.options.title ?? server.options.name,
      log: state.log,
    });
    // Callers now have principals: a server without a gate of its own still checks its resources' scopes.
    server.options.toolGate ??= resource.fallbackGate;
    state.resource = resource;
    state.routes = routeTable(state);
  }
  return {
    url,
    port,
    host,
    async close() {
      state.closing = true;
      let ended: Promise<unknown> = Promise.resolve(); // what server.close()'s listeners finish (--otel's last spans)
      await state.drain.run(httpServer, {
        graceMs: options.shutdownGraceMs ?? 0,
        timeoutMs: options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
        retryMs: state.retryMs,
        onStop: () => {
          ended = server.close();
        },
      });
      clearInterval(sweeper);
      await new Promise((resolve) => setImmediate(resolve)); // let ended subscriptions flush their responses
      await state.sessions.closeAll();
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
      await ended;
    },
  };
}

const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

async function createState(server: McpServer, options: HttpServerOptions, host: string): Promise<HttpState> {
  if (options.auth && options.bearerToken !== undefined)
    throw new Error("a static bearer token and OAuth (auth) cannot both protect the server; choose one");
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const features = options.features ?? {};
  // A defect of the caller: the package's entry point hands serveHttp the features it was generated with.
  const missing = (option: string, feature: string) =>
    new Error(`serveHttp: '${option}' needs the ${feature} feature's HTTP part (options.features)`);
  if (options.sessionStore && !features.openSessionStore) throw missing("sessionStore", "redis");
  if (options.metrics && !features.createMetrics) throw missing("metrics", "metrics");
  if (options.auth && !features.createProtectedResource) throw missing("auth", "oauth");
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const shared =
    features.openSessionStore &&
    options.sessionStore &&
    (await features.openSessionStore(options.sessionStore, server, { maxSessions, idleMs, log }));
  const sessions: Sessions = shared ? (options.traceSessions?.(shared) ?? shared) : new SessionStore(maxSessions);
  const metrics =
    options.metrics && features.createMetrics
      ? await features.createMetrics(
          server,
          { sessions: () => sessions.size, streams: openStreams },
          host,
          options.metrics,
        )
      : undefined;
  const { bearerToken, allowedOrigins, allowedHosts } = options;
  const state: HttpState = {
    server,
    path: options.path ?? "/mcp",
    maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
    admission: { bearerToken, allowedOrigins, allowedHosts, boundHost: host },
    authRequired: options.auth !== undefined,
    sessions,
    keepAliveMs: options.keepAliveMs ?? 15_000,
    retryMs: options.retryMs ?? 1_000,
    drain: new Drain(),
    closing: false,
    metrics,
    log,
    routes: new Map(),
    ...(options.pages ? { pages: options.pages } : {}),
  };
  state.routes = routeTable(state);
  return state;
}

/** Idle kept-alive connections close after this; set rather than Node's default because deploy/nginx.conf's
 * `keepalive_timeout` (4 s) must stay below it, or nginx could send a POST on a connection being closed. */
export const IDLE_CONNECTION_MS = 5_000;

/** Listens; the port it got (port 0: any free one). */
export function listen(httpServer: Server, port: number, host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(port, host, () => resolve((httpServer.address() as AddressInfo).port));
  });
}

/** A transport failure's text can name internals: it is logged, the client gets a 500 with the log's request id. */
function answerInternalError(res: ServerResponse, error: unknown, log: (line: string) => void): void {
  const requestId = String(res.getHeader("X-Request-Id") ?? "");
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  log(`internal error answering request ${requestId}: ${boundLogValue(detail, 4_096)}`);
  if (res.headersSent) return void res.end();
  const message = `Internal error (request id ${requestId})`;
  sendJson(res, 500, errorResponse(undefined, { code: ErrorCode.InternalError, message, data: { requestId } }));
}
