// The checks a request passes before its route's handler: each answers the request or calls `next`.
import { errorResponse } from "../../protocol/codec.ts";
import { logRequest, logsRequests } from "../../server/log.ts";
import type { Middleware, RequestContext } from "./http-state.ts";
import { invalidRequest, repeatedMcpHeader } from "./post-common.ts";
import { sendJson } from "./responder.ts";
import { admit, setRequestAuth } from "./security.ts";

/** Shutdown (drain.ts): once stopped, 503 before anything runs. Admitted requests are logged when answered. */
export const drainAdmission: Middleware = (ctx, next) => {
  const { req, res, state } = ctx;
  if (state.drain.phase === "stopped") return state.drain.refuse(res);
  // One close listener for both, and none for the access line when neither metrics nor JSON logs want it.
  const observed = state.metrics !== undefined || logsRequests();
  state.drain.admit(res, req.method === "POST", observed ? () => answered(ctx) : undefined);
  return next(ctx);
};

export const hostOriginToken: Middleware = (ctx, next) => {
  const { req, res, state } = ctx;
  const rejection = admit(req, state.admission);
  if (!rejection) return next(ctx);
  sendJson(res, rejection.status, errorResponse(undefined, invalidRequest(rejection.message)), rejection.headers);
};

/** OAuth (the `oauth` feature's protected resource): a valid token, its principal kept beside the request. */
export const authenticate: Middleware = async (ctx, next) => {
  const { req, res, state } = ctx;
  if (!state.authRequired) return next(ctx);
  if (!state.resource) return sendJson(res, 503, undefined, { "Retry-After": "1" });
  const outcome = await state.resource.authenticate(req);
  if ("rejection" in outcome) {
    const { status, message, headers } = outcome.rejection;
    return sendJson(res, status, errorResponse(undefined, invalidRequest(message)), headers);
  }
  setRequestAuth(req, outcome.principal);
  return next(ctx);
};

/** A GET or DELETE with an `Mcp-*` header on two lines is ambiguous: 400 (POST answers it per era, post.ts). */
export const singleMcpHeaders: Middleware = (ctx, next) => {
  const { req, res } = ctx;
  const repeated = req.method === "POST" ? undefined : repeatedMcpHeader(req);
  if (!repeated) return next(ctx);
  const error = invalidRequest(`Invalid Request: ${repeated} header sent more than once`);
  sendJson(res, 400, errorResponse(undefined, error));
};

/** After each MCP request: its metrics and, with --log-format json, its access line. */
function answered({ req, res, state, record }: RequestContext): void {
  state.metrics?.request(record, res.statusCode);
  logRequest({
    requestId: record.id,
    http: req.method,
    method: record.method,
    tool: record.tool,
    protocol: record.era,
    status: res.statusCode,
    errorCode: record.errorCode,
    durationMs: Math.round((performance.now() - record.started) * 10) / 10,
    ...record.trace,
  });
}
