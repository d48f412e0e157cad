// The handlers beside the MCP endpoint: the probes of a container platform, the OAuth metadata document
// (the `oauth` feature) and Prometheus metrics (the `metrics` feature).
import type { Handler } from "./http-state.ts";

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
