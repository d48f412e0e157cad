// Forwarding a binding's call to the upstream REST API: request.ts builds it, credentials.ts signs it, send.ts
// sends it, retries on 429/503 here. Credentials never appear in results, errors or logs (answers are redacted).
import { unescape as decoded } from "node:querystring";
import { setTimeout as wait } from "node:timers/promises";
import type { HttpBinding, SharedParameter } from "../package/catalog-types.ts";
import { ownValue, setOwn } from "../protocol/codec.ts";
import { applySecurity, authHint } from "./credentials.ts";
import { explicitRequest, legacyRequest } from "./request.ts";
import { configuredRedactor, isTextual, retryAfterMs } from "./response.ts";
import { send } from "./send.ts";
import type { Outgoing, Redactor, UpstreamCall, UpstreamConfig, UpstreamResponse } from "./types.ts";

/** Rejects (with a safe message) only when no response arrives. Given no request context and no incoming header,
 * nothing of the client's request reaches the upstream but the arguments, and `call.forbidden` is refused there. */
export async function callUpstream(
  upstream: UpstreamConfig,
  binding: HttpBinding,
  args: Record<string, unknown>,
  signal: AbortSignal,
  env: NodeJS.ProcessEnv = process.env,
  call: UpstreamCall = {},
): Promise<UpstreamResponse> {
  const method = (call.url ? (call.method ?? "GET") : binding.method).toUpperCase();
  const base = binding.baseUrl && !upstream.pinned ? binding.baseUrl : baseUrlOf(upstream, env);
  const explicit = binding.parameters || binding.body;
  const out = call.url
    ? sameOriginRequest(base, call.url)
    : explicit
      ? explicitRequest(base, binding, args)
      : legacyRequest(base, method, binding, args);
  const secrets: string[] = [...(call.forbidden ?? [])];
  for (const p of upstream.sharedParameters ?? []) shared(out, p, env[p.env], secrets);
  if (call.credentials) {
    for (const [name, value] of Object.entries(call.credentials.headers)) setOwn(out.headers, name, value);
    secrets.push(...call.credentials.secrets);
  } else if (binding.security) await applySecurity(upstream, binding.security, out, env, secrets, signal);
  if (out.cookies.length > 0) out.headers.cookie = out.cookies.join("; ");
  for (const [name, value] of Object.entries(call.extraHeaders ?? {})) {
    const taken = Object.keys(out.headers).some((key) => key.toLowerCase() === name.toLowerCase());
    if (!taken) out.headers[name] = value;
  }
  refuseForbidden(out, call.forbidden ?? []);
  const redact = configuredRedactor(upstream, env, secrets);
  const attempts = Math.max(1, upstream.retry?.attempts ?? 1);
  const retried = call.once ? [429] : [429, 503];
  const maxDelay = upstream.retry?.maxDelayMs ?? 30_000;
  for (let attempt = 1; ; attempt++) {
    const { retryAfter, ...response } = await send(upstream, method, out, signal, redact);
    const retryable = retried.includes(response.status);
    const delay = retryable && attempt < attempts ? retryDelay(retryAfter, attempt) : undefined;
    const hint = response.status === 401 || response.status === 403 ? authHint(upstream, binding, call) : undefined;
    if (delay === undefined || delay > maxDelay) return { ...redacted(response, redact), ...(hint ? { hint } : {}) };
    await wait(delay, undefined, { signal });
  }
}

/** A shared parameter's value, unless the request (a job's poll URL) has it; appended as text, not re-encoded. */
function shared(out: Outgoing, p: SharedParameter, value: string | undefined, secrets: string[]): void {
  if (!value) return;
  if (p.secret) secrets.push(value);
  if (p.in === "header") out.headers[p.name.toLowerCase()] ??= value;
  else if (!out.url.searchParams.has(p.name))
    out.url.search += `${out.url.search ? "&" : ""}${encodeURIComponent(p.name)}=${encodeURIComponent(value)}`;
}

/** A request to a URL the upstream gave (a job's), only on the upstream's own origin. */
function sameOriginRequest(base: string, target: string): Outgoing {
  const url = new URL(target, base);
  if (url.origin !== new URL(base).origin)
    throw new Error(
      `The upstream pointed at ${url.origin}, another origin than ${new URL(base).origin}: not followed, so the credentials are not sent there.`,
    );
  return { url, headers: {}, cookies: [] };
}

/** The MCP access token (token passthrough is forbidden) never leaves in the URL, a header, a cookie or the body. */
function refuseForbidden(out: Outgoing, forbidden: readonly string[]): void {
  const values = forbidden.filter((value) => value.length > 0);
  if (values.length === 0) return;
  const body = typeof out.body === "string" || out.body instanceof URLSearchParams ? String(out.body) : "";
  // querystring's unescape decodes what it can of malformed text, where decodeURIComponent throws.
  const sent = [out.url.href, decoded(out.url.href), body, decoded(body), ...Object.values(out.headers)];
  if (values.some((value) => sent.some((text) => text.includes(value))))
    throw new Error(
      "The request to the upstream API would carry the caller's MCP access token, which must never be sent upstream (token passthrough is forbidden); the call was not sent.",
    );
}

/** Retry-After in seconds or as an HTTP date; otherwise exponential backoff from 250 ms. */
function retryDelay(retryAfter: string | null, attempt: number): number {
  return retryAfterMs(retryAfter) ?? 250 * 2 ** (attempt - 1);
}

/** An answer may echo what was sent (status text, error or success body): no credential reaches a result. */
function redacted(response: UpstreamResponse, redact: Redactor): UpstreamResponse {
  if (redact.none) return response;
  const statusText = redact(response.statusText);
  const contentType = redact(response.contentType); // shown in notes about binary answers
  const link = response.link === undefined ? {} : { link: redact(response.link) }; // query keys come back in it
  const ok = response.status >= 200 && response.status < 300;
  // Binary success bodies (images) are passed on as bytes; text bodies (and error excerpts) are read.
  if (ok && !isTextual(contentType)) return { ...response, statusText, contentType, ...link, redact };
  const text = response.body.toString("utf8");
  const clean = redact(text);
  const body = clean === text ? response.body : Buffer.from(clean);
  return { ...response, statusText, contentType, body, ...link, redact };
}

function baseUrlOf(upstream: UpstreamConfig, env: NodeJS.ProcessEnv): string {
  const { baseUrlTemplate: template, variables } = upstream;
  if (!template || !variables) return upstream.baseUrl;
  return template.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    const variable = ownValue(variables, name);
    if (!variable) return "";
    const value = env[variable.env] || variable.default;
    if (variable.enum && !variable.enum.includes(value))
      throw new Error(`${variable.env} must be one of ${variable.enum.join(", ")}`);
    return value;
  });
}
