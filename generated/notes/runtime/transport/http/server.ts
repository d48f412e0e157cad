// The Streamable HTTP transport, server side, on node:http. One endpoint
// (default /mcp): POST carries messages (see post.ts), GET opens the
// 2025-era standalone stream, DELETE ends a 2025-era session. Beside it, the
// probes of a container platform: GET /healthz (liveness) and /readyz (readiness).
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeMessage, errorResponse } from "../../protocol/codec.ts";
import { ErrorCode } from "../../protocol/constants.ts";
import type { AuthConfig } from "../../server/auth-config.ts";
import { boundLogValue, logRequest } from "../../server/log.ts";
import type { McpServer } from "../../server/server.ts";
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, Drain } from "./drain.ts";
import { type HttpFeatures, missingFeature, type ProtectedResource } from "./http-features.ts";
import { isMediaType } from "./media-type.ts";
import { handlePost } from "./post.ts";
import { acceptsSse, header, type PostContext, repeatedMcpHeader } from "./post-common.ts";
import { setRequestAuth } from "./request-auth.ts";
import { type RequestRecord, startRecord } from "./request-record.ts";
import { sendJson } from "./responder.ts";
import { admit, BodyTooLargeError, principalOf, readBody } from "./security.ts";
import type { HttpSession } from "./session.ts";
import {
  DEFAULT_MAX_SESSIONS,
  SessionStore,
  SessionStoreUnavailableError,
  type Sessions,
  sendStoreUnavailable,
} from "./session-store.ts";
import { openStreams, startSse } from "./sse.ts";
import { parseEventId } from "./sse-replay.ts";

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
  const path = options.path ?? "/mcp";
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  if (options.auth && options.bearerToken !== undefined)
    throw new Error("a static bearer token and OAuth (auth) cannot both protect the server; choose one");
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const sessionIdleMs = options.sessionIdleMs ?? 30 * 60_000;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const features = options.features ?? {};
  // A feature's code comes from the package's entry point: the transport imports none of it.
  if (options.sessionStore && !features.openSessionStore) throw missingFeature("sessionStore", "redis");
  if (options.metrics && !features.createMetrics) throw missingFeature("metrics", "metrics");
  if (options.auth && !features.createProtectedResource) throw missingFeature("auth", "oauth");
  const sessions: Sessions =
    options.sessionStore && features.openSessionStore
      ? await features.openSessionStore(options.sessionStore, server, { maxSessions, idleMs: sessionIdleMs, log })
      : new SessionStore(maxSessions);
  const context: PostContext = {
    server,
    sessions,
    keepAliveMs: options.keepAliveMs ?? 15_000,
    retryMs: options.retryMs ?? 1_000,
  };
  // Set once listening (the default audience is the server's own URL); the module loads only with auth on.
  let resource: ProtectedResource | undefined;

  let closing = false;
  const drain = new Drain();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const record = startRecord(req, res);
    res.setHeader("X-Request-Id", record.id);
    const target = pathOf(req.url ?? "/");
    if (target === undefined) {
      const error = { code: ErrorCode.InvalidRequest, message: "Bad Request: malformed request target" };
      return sendJson(res, 400, errorResponse(undefined, error));
    }
    if (target !== path && PROBES.has(target)) return probe(req, res, target, closing);
    if (resource?.metadataPaths.has(target)) return serveMetadata(req, res, resource);
    const metricsHere = metrics !== undefined && options.metricsPort === undefined && target === "/metrics";
    if (target !== path && !metricsHere) return sendJson(res, 404, undefined);
    if (!metricsHere) {
      if (drain.phase === "stopped") return drain.refuse(res);
      drain.admit(res, req.method === "POST");
      res.once("close", () => answered(req, res, record));
    }
    const rejection = admit(req, { ...options, boundHost: host });
    if (rejection) {
      const body = errorResponse(undefined, { code: ErrorCode.InvalidRequest, message: rejection.message });
      return sendJson(res, rejection.status, body, rejection.headers);
    }
    if (options.auth) {
      if (!resource) return sendJson(res, 503, undefined, { "Retry-After": "1" });
      const outcome = await resource.authenticate(req);
      if ("rejection" in outcome) {
        const { status, message, headers } = outcome.rejection;
        return sendJson(res, status, errorResponse(undefined, { code: ErrorCode.InvalidRequest, message }), headers);
      }
      setRequestAuth(req, outcome.principal);
    }
    if (metricsHere) return serveMetrics(req, res);
    const repeated = req.method === "POST" ? undefined : repeatedMcpHeader(req);
    if (repeated) {
      const error = {
        code: ErrorCode.InvalidRequest,
        message: `Invalid Request: ${repeated} header sent more than once`,
      };
      return sendJson(res, 400, errorResponse(undefined, error));
    }
    if (req.method === "POST") return post(req, res);
    if (req.method === "GET") return openStandaloneStream(req, res);
    if (req.method === "DELETE") return deleteSession(req, res);
    return sendJson(res, 405, undefined, { Allow: "GET, POST, DELETE" });
  };

  const metrics =
    options.metrics && features.createMetrics
      ? await features.createMetrics(server, { sessions: () => sessions.size, streams: openStreams })
      : undefined;
  const serveMetrics = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== "GET" && req.method !== "HEAD") return sendJson(res, 405, undefined, { Allow: "GET, HEAD" });
    await metrics?.serve(res);
  };
  /** After each MCP request: its metrics and, with --log-format json, its access line. */
  const answered = (req: IncomingMessage, res: ServerResponse, record: RequestRecord) => {
    metrics?.request(record, res.statusCode);
    logRequest({
      requestId: record.id,
      http: req.method,
      method: record.method,
      tool: record.tool,
      protocol: record.era,
      status: res.statusCode,
      errorCode: record.errorCode,
      durationMs: Math.round((performance.now() - record.started) * 10) / 10,
    });
  };

  const post = async (req: IncomingMessage, res: ServerResponse) => {
    // Node keeps only the first of repeated Content-Type lines; a request with two is ambiguous, so refused.
    const contentTypes = req.headersDistinct["content-type"] ?? [];
    if (contentTypes.length !== 1 || !isMediaType(contentTypes[0], "application/json")) {
      const error = { code: ErrorCode.InvalidRequest, message: "Content-Type must be application/json" };
      return sendJson(res, 415, errorResponse(undefined, error));
    }
    let body: string;
    try {
      body = await readBody(req, maxBodyBytes);
    } catch (error) {
      const status = error instanceof BodyTooLargeError ? 413 : 400;
      const message = status === 413 ? `Request body exceeds ${maxBodyBytes} bytes` : "Could not read the body";
      return sendJson(res, status, errorResponse(undefined, { code: ErrorCode.InvalidRequest, message }), {
        Connection: "close",
      });
    }
    const decoded = decodeMessage(body);
    if (!decoded.ok) return sendJson(res, 400, decoded.error);
    await handlePost(context, req, res, decoded.message);
  };

  const openStandaloneStream = async (req: IncomingMessage, res: ServerResponse) => {
    const sessionId = header(req, "mcp-session-id");
    // 2026-07-28 has no GET stream; only 2025-era sessions may open one.
    if (!sessionId) return sendJson(res, 405, undefined, { Allow: "POST" });
    const session = await sessions.use(sessionId, principalOf(req));
    if (!session)
      return sendJson(
        res,
        404,
        errorResponse(undefined, { code: ErrorCode.InvalidRequest, message: "Session not found" }),
      );
    if (!acceptsSse(req)) return sendJson(res, 406, undefined);
    const lastEventId = header(req, "last-event-id");
    if (lastEventId !== undefined) return await resumeStream(session, lastEventId, res);
    if (session.standaloneStream && !session.standaloneStream.closed) {
      const error = { code: ErrorCode.InvalidRequest, message: "A stream is already open for this session" };
      return sendJson(res, 409, errorResponse(undefined, error));
    }
    session.standaloneStream = startSse(res, { "Mcp-Session-Id": session.id }, context.keepAliveMs);
    drain.stream(session.standaloneStream);
  };

  /** 2025-era resumption: replay what the dropped connection missed, then keep delivering if still running. */
  const resumeStream = async (session: HttpSession, lastEventId: string, res: ServerResponse) => {
    const position = parseEventId(lastEventId);
    const open = () => startSse(res, { "Mcp-Session-Id": session.id }, context.keepAliveMs);
    const stream = position ? session.resumableStreams.get(position.streamId) : undefined;
    if (position && stream) return stream.attach(open(), position.seq);
    // Another process may have run the stream (shared store): it replays from there.
    if (position && (await sessions.resume?.(session, position.streamId, position.seq, open))) return;
    const error = { code: ErrorCode.InvalidRequest, message: "Unknown Last-Event-ID" };
    return sendJson(res, 404, errorResponse(undefined, error));
  };

  const deleteSession = async (req: IncomingMessage, res: ServerResponse) => {
    const sessionId = header(req, "mcp-session-id");
    if (!sessionId) return sendJson(res, 405, undefined, { Allow: "POST" });
    if (!(await sessions.use(sessionId, principalOf(req))) || !(await sessions.delete(sessionId)))
      return sendJson(res, 404, undefined);
    return sendJson(res, 200, undefined);
  };

  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? 30_000, headersTimeout);
  const httpServer = createHttpServer(
    {
      headersTimeout,
      requestTimeout,
      // Node only enforces the two timeouts when it sweeps connections; sweep often enough to honour them.
      connectionsCheckingInterval: Math.min(1_000, headersTimeout),
    },
    (req, res) => {
      handle(req, res).catch((error) => {
        if (error instanceof SessionStoreUnavailableError && !res.headersSent)
          return sendStoreUnavailable(res, undefined, error);
        answerInternalError(res, error, log);
      });
    },
  );
  const sweeper = setInterval(() => sessions.sweep(Date.now() - sessionIdleMs), Math.min(sessionIdleMs, 60_000));
  sweeper.unref();

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;
  // --metrics-port: a listener of its own, for a scraper on the operator's network only.
  const metricsServer =
    options.metricsPort === undefined
      ? undefined
      : createHttpServer((req, res) => {
          if (pathOf(req.url ?? "/") === "/metrics") void serveMetrics(req, res);
          else sendJson(res, 404, undefined);
        });
  if (metricsServer) {
    await new Promise<void>((resolve, reject) => {
      metricsServer.once("error", reject);
      metricsServer.listen(options.metricsPort, host, () => resolve());
    });
  }
  const urlHost = host.includes(":") ? `[${host}]` : host;
  if (options.auth && features.createProtectedResource) {
    const gate = server.options.toolGate;
    resource = features.createProtectedResource(options.auth, {
      serverUrl: `http://${urlHost}:${port}${path}`,
      scopesSupported: () => gate?.all() ?? [],
      resourceName: server.options.title ?? server.options.name,
      log,
    });
    context.resource = resource;
  }
  return {
    url: `http://${urlHost}:${port}${path}`,
    port,
    host,
    ...(metricsServer
      ? { metricsUrl: `http://${urlHost}:${(metricsServer.address() as AddressInfo).port}/metrics` }
      : {}),
    async close() {
      closing = true;
      await drain.run(httpServer, {
        graceMs: options.shutdownGraceMs ?? 0,
        timeoutMs: options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
        retryMs: context.retryMs,
        onStop: () => server.close(),
      });
      clearInterval(sweeper);
      await new Promise((resolve) => setImmediate(resolve)); // let ended subscriptions flush their responses
      await sessions.closeAll();
      metricsServer?.close();
      metricsServer?.closeAllConnections();
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
}

const PROBES = new Set(["/healthz", "/readyz"]);
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

/** RFC 9728 metadata: public, so no token and no Host/Origin check, and readable from browsers (CORS). */
function serveMetadata(req: IncomingMessage, res: ServerResponse, resource: ProtectedResource): void {
  if (req.method !== "GET" && req.method !== "HEAD") {
    sendJson(res, 405, undefined, { Allow: "GET, HEAD" });
    return;
  }
  res.writeHead(200, {
    "Content-Type": "application/json",
    "Cache-Control": "max-age=300",
    "Access-Control-Allow-Origin": "*",
  });
  res.end(JSON.stringify(resource.metadata()));
}

/**
 * Liveness (/healthz: 200 while the process serves HTTP) and readiness (/readyz: 200 while it takes MCP
 * requests, 503 once it is closing). Probes carry no token and come from the platform, so they skip
 * the bearer, Host and Origin checks: the answer tells nothing but that the process is up.
 */
function probe(req: IncomingMessage, res: ServerResponse, target: string, closing: boolean): void {
  if (req.method !== "GET" && req.method !== "HEAD") {
    sendJson(res, 405, undefined, { Allow: "GET, HEAD" });
    return;
  }
  const [status, state] = target === "/healthz" ? [200, "ok"] : closing ? [503, "closing"] : [200, "ready"];
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  res.end(JSON.stringify({ status: state })); // node sends no body to HEAD
}

/** The path of a request-target (origin-form or absolute-form); undefined when it is not a valid URL. */
function pathOf(target: string): string | undefined {
  try {
    return new URL(target, "http://localhost").pathname;
  } catch {
    return undefined;
  }
}
