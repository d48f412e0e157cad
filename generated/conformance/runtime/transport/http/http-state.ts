// The shapes the HTTP server's routes and middleware share (server.ts builds them, routes.ts runs them):
// one server's state, one request's context, and the two function types the route table is made of.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { McpServer } from "../../server/server.ts";
import type { Drain } from "./drain.ts";
import type { Metrics, ProtectedResource } from "./http-features.ts";
import type { PostContext } from "./post-common.ts";
import type { RequestRecord } from "./request-record.ts";
import type { AdmissionOptions } from "./security.ts";

/** What every request of one serveHttp sees: built once at start, `resource` set once listening. */
export type HttpState = {
  server: McpServer;
  /** The MCP endpoint's path (default /mcp). */
  path: string;
  maxBodyBytes: number;
  /** Host, Origin and static-token checks (security.ts admit). */
  admission: AdmissionOptions;
  /** Whether OAuth protects the server: then a request before `resource` exists is answered 503. */
  authRequired: boolean;
  /** Metrics served on this listener's /metrics (not on a metrics port of their own). */
  metricsHere: boolean;
  /** The POST handlers' context (sessions, SSE timings, the 403 answer), shared with post.ts. */
  post: PostContext;
  drain: Drain;
  /** Set by close(): /readyz answers 503 from then on. */
  closing: boolean;
  metrics?: Metrics;
  /** The OAuth protected resource, set once listening (its default audience is the server's own URL). */
  resource?: ProtectedResource;
  log: (line: string) => void;
  /** The route table by path (routes.ts routeTable), rebuilt when `resource` adds its metadata paths. */
  routes: RouteTable;
};

/** One request on its way through the middleware to its route's handler. */
export type RequestContext = {
  req: IncomingMessage;
  res: ServerResponse;
  state: HttpState;
  record: RequestRecord;
};

/** Answers a request (a route's handler), or passes it on (`next`) after a check (middleware). */
export type Handler = (ctx: RequestContext) => void | Promise<void>;
export type Middleware = (ctx: RequestContext, next: () => Promise<void>) => void | Promise<void>;

/** One method at one path: the checks it passes (in order), then its handler. */
export type Route = { method: string; path: string; middleware: readonly Middleware[]; handler: Handler };
/** Routes by path; one path's routes share their middleware, so a wrong method is refused after it. */
export type RouteTable = ReadonlyMap<string, readonly Route[]>;
