// Forwarding tool calls and resource reads to an upstream REST API (the `http` bindings of a spec).
// A binding from the spec language fills path parameters by name and sends the remaining arguments as
// the query string (GET, HEAD, DELETE, OPTIONS) or a JSON body. A binding from OpenAPI lists every
// parameter with its location and OpenAPI `style`/`explode`, and the body with its media type (JSON,
// form-urlencoded, multipart, text). Credentials come from environment variables at call time and
// never appear in results, errors or logs: error texts name variables and URLs without their query.
import type { ToolHandlerResult } from "./server-types.ts";
import type { ContentBlock, ReadResourceResult } from "./types.ts";

export type UpstreamAuth =
  | { type: "bearer"; env: string }
  | { type: "basic"; env: string }
  | { type: "apiKey"; in: "header" | "query"; name: string; env: string };
export type SecurityScheme =
  | { id: string; type: "apiKey"; in: "header" | "query" | "cookie"; name: string; env: string }
  | { id: string; type: "bearer" | "basic"; env: string }
  | { id: string; type: "oauth2"; tokenUrl: string; scopes?: string[]; clientIdEnv: string; clientSecretEnv: string };
export type UpstreamConfig = {
  baseUrl: string;
  timeoutMs?: number;
  auth?: UpstreamAuth;
  /** The server URL with `{variable}`s, filled from the variables' env (else their defaults). */
  baseUrlTemplate?: string;
  variables?: Record<string, { default: string; env: string; enum?: string[] }>;
  securitySchemes?: SecurityScheme[];
  retry?: { attempts: number; maxDelayMs: number };
  /** Set by --base-url: every call goes there, operations' own servers included. */
  pinned?: boolean;
};
export type HttpParameter = {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  arg?: string[];
  style?: string;
  explode?: boolean;
  allowReserved?: boolean;
  json?: boolean;
};
export type HttpBody = { contentType: string; arg?: string; properties?: string[] };
export type HttpBinding = {
  method: string;
  path: string;
  parameters?: HttpParameter[];
  body?: HttpBody;
  security?: string[][];
  /** An operation's own server URL (OpenAPI `servers` on a path or operation). */
  baseUrl?: string;
};

const BODYLESS = new Set(["GET", "HEAD", "DELETE", "OPTIONS"]);
const EXCERPT = 500;
const MAX_TEXT = 1_000_000;

export type UpstreamResponse = { status: number; statusText: string; contentType: string; body: Buffer };

type Outgoing = {
  url: URL;
  headers: Record<string, string>;
  cookies: string[];
  body?: string | FormData | URLSearchParams;
};

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
    await sleep(delay, signal);
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

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(new Error("the call was cancelled while waiting to retry"));
      },
      { once: true },
    );
  });
}

/** An error body may echo what was sent; the excerpt a user sees must not carry a credential. */
function redacted(response: UpstreamResponse & { retryAfter?: unknown }, secrets: string[]): UpstreamResponse {
  const { retryAfter: _drop, ...rest } = response;
  if (rest.status >= 200 && rest.status < 300) return rest;
  let text = rest.body.toString("utf8");
  for (const secret of secrets) if (secret.length >= 4) text = text.split(secret).join("[redacted]");
  return { ...rest, body: Buffer.from(text) };
}

function baseUrlOf(upstream: UpstreamConfig, env: NodeJS.ProcessEnv): string {
  const template = upstream.baseUrlTemplate;
  if (!template || !upstream.variables) return upstream.baseUrl;
  const variables = upstream.variables;
  return template.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    const variable = variables[name];
    if (!variable) return "";
    const value = env[variable.env] || variable.default;
    if (variable.enum && !variable.enum.includes(value)) {
      throw new Error(`${variable.env} must be one of ${variable.enum.join(", ")}`);
    }
    return value;
  });
}

function legacyRequest(base: string, method: string, binding: HttpBinding, args: Record<string, unknown>): Outgoing {
  const rest = { ...args };
  const path = binding.path.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value ?? ""));
  });
  const url = new URL(base.replace(/\/+$/, "") + path);
  const out: Outgoing = { url, headers: { accept: ACCEPT }, cookies: [] };
  if (BODYLESS.has(method)) {
    for (const [name, value] of Object.entries(rest)) appendQuery(url, name, value);
  } else if (Object.keys(rest).length > 0) {
    out.headers["content-type"] = "application/json";
    out.body = JSON.stringify(rest);
  }
  return out;
}

const ACCEPT = "application/json, text/*;q=0.9, */*;q=0.8";

function appendQuery(url: URL, name: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) for (const item of value) appendQuery(url, name, item);
  else url.searchParams.append(name, typeof value === "object" ? JSON.stringify(value) : String(value));
}

function valueAt(args: Record<string, unknown>, path: string[]): unknown {
  let current: unknown = args;
  for (const step of path) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, step)) return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}

function explicitRequest(base: string, binding: HttpBinding, args: Record<string, unknown>): Outgoing {
  const params = binding.parameters ?? [];
  const byName = new Map(params.filter((p) => p.in === "path").map((p) => [p.name, p]));
  const path = binding.path.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    const p = byName.get(name);
    const value = p ? valueAt(args, p.arg ?? [name]) : undefined;
    return p && value !== undefined && value !== null ? pathValue(p, value) : "";
  });
  const query: string[] = [];
  const out: Outgoing = { url: new URL(base.replace(/\/+$/, "") + path), headers: { accept: ACCEPT }, cookies: [] };
  for (const p of params) {
    const value = valueAt(args, p.arg ?? [p.name]);
    if (value === undefined || value === null || p.in === "path") continue;
    if (p.in === "query") query.push(...queryPairs(p, value));
    else if (p.in === "header")
      out.headers[p.name.toLowerCase()] = p.json
        ? JSON.stringify(value)
        : delimited(value, ",", p.explode === true, "=");
    else
      out.cookies.push(
        `${p.name}=${p.json ? encodeURIComponent(JSON.stringify(value)) : delimited(value, ",", false, ",")}`,
      );
  }
  if (query.length > 0) out.url.search = (out.url.search ? `${out.url.search}&` : "?") + query.join("&");
  if (binding.body) encodeBody(binding.body, args, out);
  return out;
}

const enc = (value: unknown) => encodeURIComponent(scalar(value));
const scalar = (value: unknown) =>
  typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);

/** Array items or object entries joined by `sep`; objects as k=v pairs when exploded, else k,v. */
function delimited(
  value: unknown,
  sep: string,
  explode: boolean,
  pair: string,
  encode = (v: unknown) => scalar(v),
): string {
  if (Array.isArray(value)) return value.map(encode).join(sep);
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined && v !== null);
    return entries
      .map(([k, v]) => (explode ? `${encode(k)}${pair}${encode(v)}` : `${encode(k)},${encode(v)}`))
      .join(sep);
  }
  return encode(value);
}

/** OpenAPI path styles: simple (default) `a,b`, label `.a.b`, matrix `;id=a,b`. */
function pathValue(p: HttpParameter, value: unknown): string {
  const explode = p.explode === true;
  if (p.json) return enc(JSON.stringify(value));
  if (p.style === "label") return `.${delimited(value, explode ? "." : ",", explode, "=", enc)}`;
  if (p.style === "matrix") {
    const name = encodeURIComponent(p.name);
    if (explode && Array.isArray(value)) return value.map((v) => `;${name}=${enc(v)}`).join("");
    if (explode && typeof value === "object") return `;${delimited(value, ";", true, "=", enc)}`;
    return `;${name}=${delimited(value, ",", false, "=", enc)}`;
  }
  return delimited(value, ",", explode, "=", enc);
}

/** OpenAPI query styles: form (default, explode true), spaceDelimited, pipeDelimited, deepObject. */
function queryPairs(p: HttpParameter, value: unknown): string[] {
  const name = encodeURIComponent(p.name);
  const encode = p.allowReserved ? (v: unknown) => encodeURI(scalar(v)) : enc;
  if (p.json) return [`${name}=${enc(JSON.stringify(value))}`];
  const style = p.style ?? "form";
  const explode = p.explode ?? style === "form";
  if (style === "deepObject" && typeof value === "object" && !Array.isArray(value)) {
    return Object.entries(value as object)
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => `${name}%5B${encodeURIComponent(k)}%5D=${encode(v)}`);
  }
  if (Array.isArray(value)) {
    if (explode) return value.map((v) => `${name}=${encode(v)}`);
    const sep = style === "spaceDelimited" ? "%20" : style === "pipeDelimited" ? "|" : ",";
    return [`${name}=${value.map(encode).join(sep)}`];
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined && v !== null);
    if (explode) return entries.map(([k, v]) => `${encodeURIComponent(k)}=${encode(v)}`);
    return [`${name}=${entries.map(([k, v]) => `${encode(k)},${encode(v)}`).join(",")}`];
  }
  return [`${name}=${encode(value)}`];
}

function encodeBody(body: HttpBody, args: Record<string, unknown>, out: Outgoing): void {
  let value: unknown;
  if (body.arg !== undefined) value = args[body.arg];
  else {
    const picked: Record<string, unknown> = {};
    for (const name of body.properties ?? []) if (args[name] !== undefined) picked[name] = args[name];
    value = picked;
  }
  if (value === undefined) return;
  const type = body.contentType;
  if (/^application\/x-www-form-urlencoded\b/i.test(type)) {
    const form = new URLSearchParams();
    forEachField(value, (name, field) => form.append(name, scalar(field)));
    out.body = form;
  } else if (/^multipart\/form-data\b/i.test(type)) {
    const form = new FormData();
    forEachField(value, (name, field) => {
      if (typeof field === "object" && field !== null)
        form.append(name, new Blob([JSON.stringify(field)], { type: "application/json" }));
      else form.append(name, String(field));
    });
    out.body = form; // fetch sets the content type with its boundary
  } else if (/json/i.test(type)) {
    out.headers["content-type"] = type;
    out.body = JSON.stringify(value);
  } else {
    out.headers["content-type"] = type;
    out.body = typeof value === "string" ? value : JSON.stringify(value);
  }
}

/** Top-level fields of a form body; array fields repeat their name. */
function forEachField(value: unknown, add: (name: string, field: unknown) => void): void {
  if (value === null || typeof value !== "object") return;
  for (const [name, field] of Object.entries(value)) {
    if (field === undefined || field === null) continue;
    if (Array.isArray(field)) for (const item of field) add(name, item);
    else add(name, field);
  }
}

function applyAuth(auth: UpstreamAuth | undefined, out: Outgoing, env: NodeJS.ProcessEnv, secrets: string[]): void {
  if (!auth) return;
  const secret = env[auth.env];
  if (!secret) throw new Error(`environment variable ${auth.env} is not set; the upstream API needs it`);
  secrets.push(secret);
  if (auth.type === "bearer") out.headers.authorization = `Bearer ${secret}`;
  else if (auth.type === "basic") out.headers.authorization = `Basic ${Buffer.from(secret).toString("base64")}`;
  else if (auth.in === "header") out.headers[auth.name.toLowerCase()] = secret;
  else out.url.searchParams.set(auth.name, secret);
}

const envOf = (scheme: SecurityScheme) =>
  scheme.type === "oauth2" ? [scheme.clientIdEnv, scheme.clientSecretEnv] : [scheme.env];

/** Uses the first security alternative whose variables are all set; `[]` means no credentials needed. */
async function applySecurity(
  upstream: UpstreamConfig,
  alternatives: string[][],
  out: Outgoing,
  env: NodeJS.ProcessEnv,
  secrets: string[],
  signal: AbortSignal,
): Promise<void> {
  const schemes = new Map((upstream.securitySchemes ?? []).map((s) => [s.id, s]));
  const resolved = alternatives.map((ids) => ids.map((id) => schemes.get(id)).filter((s) => s !== undefined));
  const usable = resolved.find((list) => list.every((s) => envOf(s).every((name) => env[name])));
  if (!usable) {
    const wanted = [...new Set(resolved.flatMap((list) => list.flatMap(envOf)))].join(" or ");
    throw new Error(`set ${wanted}: the upstream API needs credentials for this operation`);
  }
  for (const scheme of usable) {
    if (scheme.type === "oauth2") {
      const token = await clientCredentialsToken(scheme, env, signal);
      secrets.push(token);
      out.headers.authorization = `Bearer ${token}`;
      continue;
    }
    const secret = env[scheme.env] as string;
    secrets.push(secret);
    if (scheme.type === "bearer") out.headers.authorization = `Bearer ${secret}`;
    else if (scheme.type !== "apiKey") out.headers.authorization = `Basic ${Buffer.from(secret).toString("base64")}`;
    else if (scheme.in === "header") out.headers[scheme.name.toLowerCase()] = secret;
    else if (scheme.in === "query") out.url.searchParams.set(scheme.name, secret);
    else out.cookies.push(`${scheme.name}=${encodeURIComponent(secret)}`);
  }
}

const tokens = new Map<string, { token: string; expires: number }>();

/** OAuth2 client credentials (RFC 6749 §4.4), cached until a minute before the token expires. */
async function clientCredentialsToken(
  scheme: Extract<SecurityScheme, { type: "oauth2" }>,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
): Promise<string> {
  const id = env[scheme.clientIdEnv] as string;
  const secret = env[scheme.clientSecretEnv] as string;
  const key = `${scheme.tokenUrl}\0${id}`;
  const cached = tokens.get(key);
  if (cached && cached.expires > Date.now()) return cached.token;
  const form = new URLSearchParams({ grant_type: "client_credentials" });
  if (scheme.scopes?.length) form.set("scope", scheme.scopes.join(" "));
  const where = URL.canParse(scheme.tokenUrl) ? new URL(scheme.tokenUrl) : undefined;
  const fail = (why: string) =>
    new Error(`OAuth2 token request to ${where ? where.origin + where.pathname : "the token URL"} failed: ${why}`);
  let response: Response;
  try {
    response = await fetch(scheme.tokenUrl, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: form,
      signal: AbortSignal.any([signal, AbortSignal.timeout(30_000)]),
    });
  } catch {
    throw fail("no answer");
  }
  if (!response.ok) throw fail(`status ${response.status}`);
  const answer = (await response.json().catch(() => ({}))) as { access_token?: unknown; expires_in?: unknown };
  if (typeof answer.access_token !== "string") throw fail("the answer has no access_token");
  const lifetime = typeof answer.expires_in === "number" ? answer.expires_in : 3600;
  tokens.set(key, { token: answer.access_token, expires: Date.now() + Math.max(0, lifetime - 60) * 1000 });
  return answer.access_token;
}

const isJson = (type: string) => /^application\/([\w.+-]+\+)?json\b/i.test(type);
const isText = (type: string) => type === "" || /^text\/|xml|javascript|yaml|x-www-form-urlencoded/i.test(type);

/** A tool result from an upstream response: JSON objects as structuredContent, errors as isError. */
export function toolResultFrom(response: UpstreamResponse): ToolHandlerResult {
  const ok = response.status >= 200 && response.status < 300;
  if (!ok) {
    const excerpt = truncate(response.body.toString("utf8"), EXCERPT);
    const text = `Upstream API answered ${response.status} ${response.statusText}${excerpt ? `: ${excerpt}` : ""}`;
    return { isError: true, content: [{ type: "text", text }] };
  }
  if (response.body.length === 0)
    return { content: [{ type: "text", text: `Upstream API answered ${response.status}` }] };
  if (isJson(response.contentType)) {
    const text = response.body.toString("utf8");
    try {
      const value: unknown = JSON.parse(text);
      const content: ContentBlock[] = [{ type: "text", text: truncate(text, MAX_TEXT) }];
      if (value !== null && typeof value === "object" && !Array.isArray(value)) {
        return { content, structuredContent: value as Record<string, unknown> };
      }
      return { content };
    } catch {
      return { content: [{ type: "text", text: truncate(text, MAX_TEXT) }] };
    }
  }
  if (response.contentType.startsWith("image/")) {
    return {
      content: [
        { type: "image", data: response.body.toString("base64"), mimeType: response.contentType.split(";")[0] },
      ],
    };
  }
  if (isText(response.contentType))
    return { content: [{ type: "text", text: truncate(response.body.toString("utf8"), MAX_TEXT) }] };
  const note = `Upstream API answered ${response.body.length} bytes of ${response.contentType}`;
  return { content: [{ type: "text", text: note }] };
}

/** Resource contents from an upstream response; a non-2xx answer is an error the caller turns into JSON-RPC. */
export function resourceContentsFrom(
  uri: string,
  mimeType: string | undefined,
  response: UpstreamResponse,
): ReadResourceResult {
  if (response.status < 200 || response.status >= 300) {
    throw new Error(`Upstream API answered ${response.status} ${response.statusText} for ${uri}`);
  }
  const type = mimeType ?? (response.contentType.split(";")[0] || "application/octet-stream");
  if (isJson(response.contentType) || isText(response.contentType)) {
    return { contents: [{ uri, mimeType: type, text: response.body.toString("utf8") }] };
  }
  return { contents: [{ uri, mimeType: type, blob: response.body.toString("base64") }] };
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… [truncated ${text.length - limit} characters]`;
}
