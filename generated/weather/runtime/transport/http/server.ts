// The Streamable HTTP transport, server side, on node:http: a route table (routes.ts) of module-level
// handlers behind module-level middleware. One MCP endpoint (default /mcp; mcp-endpoint.ts, post.ts), the
// probes of a container platform (GET /healthz, /readyz), and what features add through `features`
// (OAuth metadata, /metrics). This file turns the options into the routes' shared state, listens, and closes.
import { createServer as createHttpServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { errorResponse } from "../../protocol/codec.ts";
import { ErrorCode } from "../../protocol/constants.ts";
import type { AuthConfig } from "../../server/auth-principal.ts";
import { boundLogValue } from "../../server/log.ts";
import type { McpServer } from "../../server/server.ts";
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, Drain } from "./drain.ts";
import { type HttpFeatures, missingFeature } from "./http-features.ts";
import type { HttpState } from "./http-state.ts";
import { sendJson } from "./responder.ts";
import { dispatch, dispatchMetricsPort, routeTable } from "./routes.ts";
import {
  DEFAULT_MAX_SESSIONS,
  SessionStore,
  SessionStoreUnavailableError,
  type Sessions,
  sendStoreUnavailable,
} from "./session-store.ts";
import { openStreams } from "./sse.ts";

export type HttpServerOptions = {
  /** Default 0 (any free port); read the chosen one from the handle. */
  port?: number;
  /** Default 127.0.0.1: local servers should not listen on every interface. */
  host?: string;
  path?: string;
  /** When set, every request must carry `Authorization: Bearer <token>` (else 401). */
  bearerToken?: string;
  /** Origins allowed besides absent and localhost ones (others get 403). */
  allowedOrigins?: string[];
  /** Host header names allowed; defaults to loopback names when bound to loopback. */
  allowedHosts?: string[];
  /** Largest accepted POST body (default 4 MiB, else 413). */
  maxBodyBytes?: number;
  /** Time allowed to receive the request headers (default 10 s). */
  headersTimeoutMs?: number;
  /** Time allowed to receive the whole request, body included (default 30 s). */
  requestTimeoutMs?: number;
  /** Interval of SSE keep-alive comments (default 15 s). */
  keepAliveMs?: number;
  /** Reconnection delay announced to 2025-era clients on resumable SSE streams (default 1 s). */
  retryMs?: number;
  /** Idle 2025-era sessions are dropped after this long (default 30 min). */
  sessionIdleMs?: number;
  /** Live 2025-era sessions at most (default 10,000): the least recently used idle one makes room for a
   * new one; when all are busy, `initialize` is answered 503. */
  maxSessions?: number;
  /** On close(), how long /readyz answers 503 while MCP requests are still served (each answer closing its
   * connection), so a load balancer stops routing here before the listener closes (default 0). */
  shutdownGraceMs?: number;
  /** On close(), how long requests in flight may take to finish, counted from the start (default 30 s);
   * those still running then are answered with an error. See drain.ts for the whole order. */
  shutdownTimeoutMs?: number;
  /** OAuth 2.1 protected resource (--auth-issuer, issue 17): tokens validated, RFC 9728 metadata served.
   * Not together with `bearerToken`. */
  auth?: AuthConfig;
  /** Serve Prometheus metrics at GET /metrics (--metrics): on this port, behind the same Host/Origin and
   * token checks as /mcp, or on `metricsPort` (a listener of its own on the same host, no token). */
  metrics?: boolean;
  metricsPort?: number;
  /** A Redis URL (redis:// or rediss://): 2025-era sessions are kept there, shared by every instance using
   * it (--session-store, issue 18). Unreachable at start: serveHttp rejects with SessionStoreStartError. */
  sessionStore?: string;
  /** Where the auth layer's operator messages go (default: stderr). */
  log?: (line: string) => void;
  /** The code of the features `auth`, `metrics` and `sessionStore` need (runtime/features/*.ts `http`). */
  features?: HttpFeatures;
};

export type HttpServerHandle = {
  url: string;
  port: number;
  host: string;
  /** With `metricsPort`: where the metrics are served. */
  metricsUrl?: string;
  close(): Promise<void>;
};

export async function serveHttp(server: McpServer, options: HttpServerOptions = {}): Promise<HttpServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const state = await createState(server, options, host);
  const httpServer = createListener(state, options);
  const sessionIdleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const sweeper = setInterval(
    () => state.post.sessions.sweep(Date.now() - sessionIdleMs),
    Math.min(sessionIdleMs, 60_000),
  );
  sweeper.unref();
  const port = await listen(httpServer, options.port ?? 0, host);
  // --metrics-port: a listener of its own, for a scraper on the operator's network only.
  const metricsServer =
    options.metricsPort === undefined
      ? undefined
      : createHttpServer((req, res) => dispatchMetricsPort(state, req, res));
  const metricsPort = metricsServer && (await listen(metricsServer, options.metricsPort ?? 0, host));
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}${state.path}`;
  if (options.auth) protect(state, options.auth, url, options.features ?? {});
  return {
    url,
    port,
    host,
    ...(metricsServer ? { metricsUrl: `http://${urlHost}:${metricsPort}/metrics` } : {}),
    async close() {
      state.closing = true;
      await state.drain.run(httpServer, {
        graceMs: options.shutdownGraceMs ?? 0,
        timeoutMs: options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
        retryMs: state.post.retryMs,
        onStop: () => server.close(),
      });
      clearInterval(sweeper);
      await new Promise((resolve) => setImmediate(resolve)); // let ended subscriptions flush their responses
      await state.post.sessions.closeAll();
      metricsServer?.close();
      metricsServer?.closeAllConnections();
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
}

const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

/** The routes' shared state from the options; the features' parts (store, metrics) opened here. */
async function createState(server: McpServer, options: HttpServerOptions, host: string): Promise<HttpState> {
  if (options.auth && options.bearerToken !== undefined)
    throw new Error("a static bearer token and OAuth (auth) cannot both protect the server; choose one");
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const features = options.features ?? {};
  // A feature's code comes from the package's entry point: the transport imports none of it.
  if (options.sessionStore && !features.openSessionStore) throw missingFeature("sessionStore", "redis");
  if (options.metrics && !features.createMetrics) throw missingFeature("metrics", "metrics");
  if (options.auth && !features.createProtectedResource) throw missingFeature("auth", "oauth");
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const sessions: Sessions =
    options.sessionStore && features.openSessionStore
      ? await features.openSessionStore(options.sessionStore, server, { maxSessions, idleMs, log })
      : new SessionStore(maxSessions);
  const metrics =
    options.metrics && features.createMetrics
      ? await features.createMetrics(server, { sessions: () => sessions.size, streams: openStreams })
      : undefined;
  const { bearerToken, allowedOrigins, allowedHosts } = options;
  const state: HttpState = {
    server,
    path: options.path ?? "/mcp",
    maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
    admission: { bearerToken, allowedOrigins, allowedHosts, boundHost: host },
    authRequired: options.auth !== undefined,
    metricsHere: metrics !== undefined && options.metricsPort === undefined,
    post: { server, sessions, keepAliveMs: options.keepAliveMs ?? 15_000, retryMs: options.retryMs ?? 1_000 },
    drain: new Drain(),
    closing: false,
    metrics,
    log,
    routes: new Map(),
  };
  state.routes = routeTable(state);
  return state;
}

/**
 * How long an idle kept-alive connection stays open. Set here rather than left to Node's default (5 s
 * today) because deploy/nginx.conf's upstream `keepalive_timeout` (4 s) must stay below it: nginx then
 * never sends a request on a connection this server is closing, which would lose a POST after it was sent.
 */
export const IDLE_CONNECTION_MS = 5_000;

/** The MCP listener, with node's own limits on slow requests; a failure of the transport answers 500. */
function createListener(state: HttpState, options: HttpServerOptions): Server {
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? 30_000, headersTimeout);
  return createHttpServer(
    {
      headersTimeout,
      requestTimeout,
      keepAliveTimeout: IDLE_CONNECTION_MS,
      // Node only enforces the two timeouts when it sweeps connections; sweep often enough to honour them.
      connectionsCheckingInterval: Math.min(1_000, headersTimeout),
    },
    (req, res) => {
      dispatch(state, req, res).catch((error) => {
        if (error instanceof SessionStoreUnavailableError && !res.headersSent)
          return sendStoreUnavailable(res, undefined, error);
        answerInternalError(res, error, state.log);
      });
    },
  );
}

function listen(httpServer: Server, port: number, host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(port, host, () => resolve((httpServer.address() as AddressInfo).port));
  });
}

/** OAuth on: the protected resource (its default audience is the server's own URL, known once listening),
 * its metadata routes, and its 403 answer for the POST handlers. */
function protect(state: HttpState, auth: AuthConfig, serverUrl: string, features: HttpFeatures): void {
  if (!features.createProtectedResource) return;
  const { server } = state;
  const gate = server.options.toolGate;
  state.resource = features.createProtectedResource(auth, {
    serverUrl,
    scopesSupported: () => gate?.all() ?? [],
    resourceName: server.options.title ?? server.options.name,
    log: state.log,
  });
  state.post.resource = state.resource;
  state.routes = routeTable(state);
}

/** An error's text may carry what a client sent; its log line is bounded like every client-chosen value. */
const MAX_ERROR_LOG_CHARS = 4_096;

/**
 * A failure of the transport itself (not of a handler): its text can name internal modules, paths or
 * configuration, so it goes to the operator's log and the client gets a generic 500 with the request id
 * that finds the log line.
 */
function answerInternalError(res: ServerResponse, error: unknown, log: (line: string) => void): void {
  const requestId = String(res.getHeader("X-Request-Id") ?? "");
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  log(`internal error answering request ${requestId}: ${boundLogValue(detail, MAX_ERROR_LOG_CHARS)}`);
  if (res.headersSent) return void res.end();
  const message = `Internal error (request id ${requestId})`;
  sendJson(res, 500, errorResponse(undefined, { code: ErrorCode.InternalError, message, data: { requestId } }));
}
