// The HTTP server's route table and its dispatch: every request gets a request id, is matched on its path,
// passes the middleware of that path's routes (middleware.ts), then its method's handler answers
// (mcp-endpoint.ts, and the public routes below). A feature adds routes through the state it gave serveHttp.
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorResponse } from "../../protocol/codec.ts";
import { ErrorCode } from "../../protocol/constants.ts";
import type { Handler, HttpState, Middleware, RequestContext, Route, RouteTable } from "./http-state.ts";
import { deleteSession, openStandaloneStream, postMessage } from "./mcp-endpoint.ts";
import { authenticate, drainAdmission, hostOriginToken, singleMcpHeaders } from "./middleware.ts";
import { startRecord } from "./request-record.ts";
import { sendJson } from "./responder.ts";

/** The MCP endpoint's checks: shutdown first (a stopped server runs nothing), then who may call. */
const ENDPOINT_CHECKS: readonly Middleware[] = [drainAdmission, hostOriginToken, authenticate, singleMcpHeaders];
/** /metrics on the MCP port sits behind the same Host/Origin and token checks, outside the drain. */
const METRICS_CHECKS: readonly Middleware[] = [hostOriginToken, authenticate];
/** Probes and the OAuth metadata are public: no checks. */
const PUBLIC: readonly Middleware[] = [];

/**
 * The routes of one server. Where two would claim a path, the earlier wins: the metadata document and
 * /metrics over an MCP endpoint configured at their path, the MCP endpoint over a probe.
 */
export function routeTable(state: HttpState): RouteTable {
  const endpoints: Route[][] = [
    ...[...(state.resource?.metadataPaths ?? [])].map((path) =>
      endpoint(path, PUBLIC, { GET: protectedResourceMetadata, HEAD: protectedResourceMetadata }),
    ),
    ...(state.metricsHere ? [endpoint("/metrics", METRICS_CHECKS, { GET: metrics, HEAD: metrics })] : []),
    endpoint(state.path, ENDPOINT_CHECKS, { GET: openStandaloneStream, POST: postMessage, DELETE: deleteSession }),
    endpoint("/healthz", PUBLIC, { GET: liveness, HEAD: liveness }),
    endpoint("/readyz", PUBLIC, { GET: readiness, HEAD: readiness }),
  ];
  const table = new Map<string, Route[]>();
  for (const routes of endpoints) if (!table.has(routes[0].path)) table.set(routes[0].path, routes);
  return table;
}

function endpoint(path: string, middleware: readonly Middleware[], handlers: Record<string, Handler>): Route[] {
  return Object.entries(handlers).map(([method, handler]) => ({ method, path, middleware, handler }));
}

/** Answers one request on the MCP listener from `state.routes`. */
export async function dispatch(state: HttpState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const record = startRecord(req, res);
  res.setHeader("X-Request-Id", record.id);
  const target = pathOf(req.url ?? "/");
  if (target === undefined) {
    const error = { code: ErrorCode.InvalidRequest, message: "Bad Request: malformed request target" };
    return sendJson(res, 400, errorResponse(undefined, error));
  }
  const routes = state.routes.get(target);
  if (!routes) return sendJson(res, 404, undefined);
  const route = routes.find((candidate) => candidate.method === req.method);
  const handler = route?.handler ?? ((ctx: RequestContext) => refuseMethod(ctx.res, routes));
  await runChain(routes[0].middleware, { req, res, state, record }, handler);
}

/** The metrics port (--metrics-port): a listener of its own for the operator's scraper, /metrics only. */
export function dispatchMetricsPort(state: HttpState, req: IncomingMessage, res: ServerResponse): void {
  if (pathOf(req.url ?? "/") !== "/metrics") sendJson(res, 404, undefined);
  else if (req.method !== "GET" && req.method !== "HEAD") sendJson(res, 405, undefined, { Allow: "GET, HEAD" });
  else void state.metrics?.serve(res);
}

/** Runs `chain` in order, each middleware calling the next, the last one the handler. */
function runChain(chain: readonly Middleware[], ctx: RequestContext, handler: Handler): Promise<void> {
  const step = async (index: number): Promise<void> => {
    const middleware = chain[index];
    if (!middleware) return handler(ctx);
    return middleware(ctx, () => step(index + 1));
  };
  return step(0);
}

function refuseMethod(res: ServerResponse, routes: readonly Route[]): void {
  sendJson(res, 405, undefined, { Allow: routes.map((route) => route.method).join(", ") });
}

/** The path of a request-target (origin-form or absolute-form); undefined when it is not a valid URL. */
function pathOf(target: string): string | undefined {
  try {
    return new URL(target, "http://localhost").pathname;
  } catch {
    return undefined;
  }
}

// The handlers beside the MCP endpoint: the probes of a container platform, the OAuth metadata document
// (the `oauth` feature) and Prometheus metrics (the `metrics` feature).

/**
 * Liveness (/healthz: 200 while the process serves HTTP) and readiness (/readyz: 200 while it takes MCP
 * requests, 503 once it is closing). Probes carry no token and come from the platform, so they skip
 * the bearer, Host and Origin checks: the answer tells nothing but that the process is up.
 */
export const liveness: Handler = ({ res }) => sendProbe(res, 200, "ok");
export const readiness: Handler = ({ res, state }) =>
  state.closing ? sendProbe(res, 503, "closing") : sendProbe(res, 200, "ready");

function sendProbe(res: Parameters<Handler>[0]["res"], status: number, state: string): void {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  res.end(JSON.stringify({ status: state })); // node sends no body to HEAD
}

/** RFC 9728 metadata: public, so no token and no Host/Origin check, and readable from browsers (CORS). */
export const protectedResourceMetadata: Handler = ({ res, state }) => {
  res.writeHead(200, {
    "Content-Type": "application/json",
    "Cache-Control": "max-age=300",
    "Access-Control-Allow-Origin": "*",
  });
  res.end(JSON.stringify(state.resource?.metadata()));
};

export const metrics: Handler = async ({ res, state }) => {
  await state.metrics?.serve(res);
};
