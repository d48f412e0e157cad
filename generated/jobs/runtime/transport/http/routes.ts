// The route table and dispatch: a request matched on its path passes that path's middleware, then its handler.
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorResponse } from "../../protocol/codec.ts";
import type { Handler, HttpState, Middleware, PathRoutes, Route, RouteTable } from "./http-state.ts";
import { deleteSession, openStandaloneStream, postMessage } from "./mcp-endpoint.ts";
import { authenticate, drainAdmission, hostOriginToken, singleMcpHeaders } from "./middleware.ts";
import { invalidRequest } from "./post-common.ts";
import { startRecord } from "./request-record.ts";
import { sendJson } from "./responder.ts";

/** The MCP endpoint's checks: shutdown first (a stopped server runs nothing), then who may call. */
const ENDPOINT_CHECKS: readonly Middleware[] = [drainAdmission, hostOriginToken, authenticate, singleMcpHeaders];
/** /metrics on the MCP port sits behind the same Host/Origin and token checks, outside the drain. */
const METRICS_CHECKS: readonly Middleware[] = [hostOriginToken, authenticate];
/** Probes and the OAuth metadata are public: no checks. */
const PUBLIC: readonly Middleware[] = [];

/** Where two routes claim a path the earlier wins: metadata and /metrics over the MCP endpoint, it over a probe. */
export function routeTable(state: HttpState): RouteTable {
  const endpoints: Route[][] = [
    ...[...(state.resource?.metadataPaths ?? [])].map((path) =>
      endpoint(path, PUBLIC, { GET: protectedResourceMetadata, HEAD: protectedResourceMetadata }),
    ),
    ...(state.metrics?.serve ? [endpoint("/metrics", METRICS_CHECKS, { GET: metrics, HEAD: metrics })] : []),
    endpoint(state.path, ENDPOINT_CHECKS, { GET: openStandaloneStream, POST: postMessage, DELETE: deleteSession }),
    ...Object.entries(state.pages ?? {}).map(([path, page]) => endpoint(path, PUBLIC, { GET: page, POST: page })),
    endpoint("/healthz", PUBLIC, { GET: liveness, HEAD: liveness }),
    endpoint("/readyz", PUBLIC, { GET: readiness, HEAD: readiness }),
  ];
  const table = new Map<string, PathRoutes>();
  for (const routes of endpoints)
    if (!table.has(routes[0].path)) table.set(routes[0].path, compileRoutes(state, routes));
  return table;
}

/** Each method's handler behind the path's middleware, composed once; checks of a feature that is off are left out. */
function compileRoutes(state: HttpState, routes: Route[]): PathRoutes {
  const middleware = routes[0].middleware.filter((check) => check !== authenticate || state.authRequired);
  const compose = (handler: Handler) =>
    middleware.reduceRight<Handler>((next, check) => (ctx) => check(ctx, next), handler);
  const allow = { Allow: routes.map((route) => route.method).join(", ") };
  return {
    exact: pathOf(routes[0].path) === routes[0].path,
    byMethod: new Map(routes.map((route) => [route.method, compose(route.handler)])),
    notAllowed: compose(({ res }) => sendJson(res, 405, undefined, { ...allow })),
  };
}

function endpoint(path: string, middleware: readonly Middleware[], handlers: Record<string, Handler>): Route[] {
  return Object.entries(handlers).map(([method, handler]) => ({ method, path, middleware, handler }));
}

export async function dispatch(state: HttpState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const record = startRecord(req);
  res.setHeader("X-Request-Id", record.id);
  // Once the listener is closed every answer closes its connection, probes' too (drain.ts, step 3); not during the
  // grace period, when a proxy would open a new connection for each request and lose one still queued at the close.
  if (state.drain.phase === "stopped") res.setHeader("Connection", "close");
  const url = req.url ?? "/";
  // A request-target that is exactly a route's own (normalized) path needs no URL parsing.
  let routes = state.routes.get(url);
  if (routes === undefined || !routes.exact) {
    const target = pathOf(url);
    if (target === undefined)
      return sendJson(res, 400, errorResponse(undefined, invalidRequest("Bad Request: malformed request target")));
    routes = state.routes.get(target);
    if (!routes) return sendJson(res, 404, undefined);
  }
  const run = routes.byMethod.get(req.method ?? "") ?? routes.notAllowed;
  await run({ req, res, state, record });
}

/** The path of a request-target (origin-form or absolute-form); undefined when it is not a valid URL. */
export function pathOf(target: string): string | undefined {
  try {
    return new URL(target, "http://localhost").pathname;
  } catch {
    return undefined;
  }
}

// Probes: /readyz turns 503 once closing. They come from the platform without a token, so they skip every
// check: the answer tells nothing but that the process is up.
const liveness: Handler = ({ res }) => sendProbe(res, 200, "ok");
const readiness: Handler = ({ res, state }) =>
  sendProbe(res, state.closing ? 503 : 200, state.closing ? "closing" : "ready");

function sendProbe(res: ServerResponse, status: number, state: string): void {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  res.end(JSON.stringify({ status: state })); // node sends no body to HEAD
}

/** RFC 9728 metadata: public, so no token and no Host/Origin check, and readable from browsers (CORS). */
const protectedResourceMetadata: Handler = ({ res, state }) => {
  const headers = { "Content-Type": "application/json", "Cache-Control": "max-age=300" };
  res.writeHead(200, { ...headers, "Access-Control-Allow-Origin": "*" });
  res.end(JSON.stringify(state.resource?.metadata()));
};

const metrics: Handler = ({ res, state }) => state.metrics?.serve?.(res);
