// The shapes the HTTP server's routes and middleware share (server.ts builds them, routes.ts runs them).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { McpServer } from "../../server/server.ts";
import type { Drain } from "./drain.ts";
import type { Metrics, ProtectedResource } from "./http-features.ts";
import type { RequestRecord } from "./request-record.ts";
import type { AdmissionOptions } from "./security.ts";
import type { Sessions } from "./session-store.ts";

export type HttpState = {
  server: McpServer;
  path: string;
  maxBodyBytes: number;
  admission: AdmissionOptions;
  authRequired: boolean; // whether OAuth protects the server: then a request before `resource` exists is answered 503
  sessions: Sessions;
  keepAliveMs: number; // SSE keep-alive interval; the `retry` delay announced on resumable (2025-era) streams
  retryMs: number;
  drain: Drain;
  closing: boolean;
  metrics?: Metrics;
  resource?: ProtectedResource; // the OAuth protected resource, set once listening (server.ts protect)
  log: (line: string) => void;
  routes: RouteTable; // the route table by path (routes.ts routeTable), rebuilt when `resource` adds its metadata paths
  pages?: Record<string, Handler>; // a feature's own pages (upstream-oauth's sign-in), public: they check their callers
};

export type RequestContext = { req: IncomingMessage; res: ServerResponse; state: HttpState; record: RequestRecord };

export type Handler = (ctx: RequestContext) => void | Promise<void>;
/** `next` is the rest of the chain, composed once when the table is built: no closure per request. */
export type Middleware = (ctx: RequestContext, next: Handler) => void | Promise<void>;

export type Route = { method: string; path: string; middleware: readonly Middleware[]; handler: Handler };
/** One path's routes, each already behind the path's middleware, and the 405 answer behind it too; `exact`:
 * the path is its own normalized form, so a request-target equal to it is that path without URL parsing. */
export type PathRoutes = { exact: boolean; byMethod: ReadonlyMap<string, Handler>; notAllowed: Handler };
/** Routes by path; one path's routes share their middleware, so a wrong method is refused after it. */
export type RouteTable = ReadonlyMap<string, PathRoutes>;
