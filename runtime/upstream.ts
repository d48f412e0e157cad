// Forwarding tool calls and resource reads to an upstream REST API (the `http` bindings of a spec):
// building the request (upstream-request.ts), adding credentials (upstream-auth.ts), sending it with a
// timeout and retries on 429/503, and mapping the answer (upstream-response.ts). Credentials come from
// environment variables at call time and never appear in results, errors or logs: error texts name
// variables and URLs without their query.
import { setTimeout as wait } from "node:timers/promises";
import { ownValue } from "./own-keys.ts";
import { applyAuth, applySecurity } from "./upstream-auth.ts";
import { explicitRequest, legacyRequest } from "./upstream-request.ts";
import type { HttpBinding, Outgoing, UpstreamConfig, UpstreamResponse } from "./upstream-types.ts";

export { resourceContentsFrom, toolResultFrom } from "./upstream-response.ts";
export type {
  HttpBinding,
  HttpBody,
  HttpParameter,
  SecurityScheme,
  UpstreamAuth,
  UpstreamConfig,
  UpstreamResponse,
} from "./upstream-types.ts";

/** Sends one request for a binding; rejects (with a safe message) only when no response arrives. */
export async function callUpstream(
  upstream: UpstreamConfig,
  binding: HttpBinding,
  args: Record<string, unknown>,
  signal: AbortSignal,
  env: NodeJS.ProcessEnv = process.env,
): Promise<UpstreamResponse> {
  const method = binding.method.toUpperCase();
  const base = binding.baseUrl && !upstream.pinned ? binding.baseUrl : baseUrlOf(upstream, env);
  const out =
    binding.parameters || binding.body
      ? explicitRequest(base, binding, args)
      : legacyRequest(base, method, binding, args);
  const secrets: string[] = [];
  if (binding.security) await applySecurity(upstream, binding.security, out, env, secrets, signal);
  else applyAuth(upstream.auth, out, env, secrets);
  if (out.cookies.length > 0) out.headers.cookie = out.cookies.join("; ");

  const attempts = Math.max(1, upstream.retry?.attempts ?? 1);
  const maxDelay = upstream.retry?.maxDelayMs ?? 30_000;
  for (let attempt = 1; ; attempt++) {
    const response = await send(upstream, method, out, signal);
    const retryable = response.status === 429 || response.status === 503;
    const delay = retryable && attempt < attempts ? retryDelay(response.retryAfter, attempt) : undefined;
    if (delay === undefined || delay > maxDelay) return redacted(response, secrets);
    await wait(delay, undefined, { signal });
  }
}

async function send(
  upstream: UpstreamConfig,
  method: string,
  out: Outgoing,
  signal: AbortSignal,
): Promise<UpstreamResponse & { retryAfter: string | null }> {
  const timeoutMs = upstream.timeoutMs ?? 30_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(out.url, {
      method,
      headers: out.headers,
      body: out.body,
      signal: AbortSignal.any([signal, timeout]),
    });
  } catch (error) {
    const why = timeout.aborted ? `no answer within ${timeoutMs} ms` : (error as Error).message;
    throw new Error(`upstream ${method} ${out.url.origin}${out.url.pathname} failed: ${why}`);
  }
  return {
    status: response.status,
    statusText: response.statusText,
    contentType: response.headers.get("content-type") ?? "",
    body: Buffer.from(await response.arrayBuffer()),
    retryAfter: response.headers.get("retry-after"),
  };
}

/** Retry-After in seconds or as an HTTP date; otherwise exponential backoff from 250 ms. */
function retryDelay(retryAfter: string | null, attempt: number): number {
  if (retryAfter) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  }
  return 250 * 2 ** (attempt - 1);
}

/** An error body may echo what was sent; the excerpt a user sees must not carry a credential. */
function redacted(response: UpstreamResponse & { retryAfter?: unknown }, secrets: string[]): UpstreamResponse {
  const { retryAfter: _drop, ...rest } = response;
  if (rest.status >= 200 && rest.status < 300) return rest;
  let text = rest.body.toString("utf8");
  for (const secret of secrets.filter((s) => s.length >= 4).flatMap(encodings)) {
    text = text.split(secret).join("[redacted]");
  }
  return { ...rest, body: Buffer.from(text) };
}

/** A secret as an upstream may echo it: raw, base64 (basic auth), URL- and form-encoded (query keys). */
function encodings(secret: string): string[] {
  const forms = [
    secret,
    Buffer.from(secret).toString("base64"),
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
  ];
  // Longest first, so a form that contains another is replaced whole.
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

function baseUrlOf(upstream: UpstreamConfig, env: NodeJS.ProcessEnv): string {
  const template = upstream.baseUrlTemplate;
  if (!template || !upstream.variables) return upstream.baseUrl;
  const variables = upstream.variables;
  return template.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    const variable = ownValue(variables, name);
    if (!variable) return "";
    const value = env[variable.env] || variable.default;
    if (variable.enum && !variable.enum.includes(value)) {
      throw new Error(`${variable.env} must be one of ${variable.enum.join(", ")}`);
    }
    return value;
  });
}
