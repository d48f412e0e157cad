// Forwarding tool calls and resource reads to an upstream REST API (the `http` bindings of a spec).
// Path parameters are filled by name; the remaining arguments go to the query string (GET, HEAD,
// DELETE, OPTIONS) or a JSON body. Credentials come from environment variables at call time and
// never appear in results or errors.
import type { ToolHandlerResult } from "./server-types.ts";
import type { ContentBlock, ReadResourceResult } from "./types.ts";

export type UpstreamAuth =
  | { type: "bearer"; env: string }
  | { type: "basic"; env: string }
  | { type: "apiKey"; in: "header" | "query"; name: string; env: string };
export type UpstreamConfig = { baseUrl: string; timeoutMs?: number; auth?: UpstreamAuth };
export type HttpBinding = { method: string; path: string };

const BODYLESS = new Set(["GET", "HEAD", "DELETE", "OPTIONS"]);
const EXCERPT = 500;
const MAX_TEXT = 1_000_000;

export type UpstreamResponse = { status: number; statusText: string; contentType: string; body: Buffer };

/** Sends one request for a binding; rejects (with a safe message) only when no response arrives. */
export async function callUpstream(
  upstream: UpstreamConfig,
  binding: HttpBinding,
  args: Record<string, unknown>,
  signal: AbortSignal,
  env: NodeJS.ProcessEnv = process.env,
): Promise<UpstreamResponse> {
  const method = binding.method.toUpperCase();
  const rest = { ...args };
  const path = binding.path.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value ?? ""));
  });
  const url = new URL(upstream.baseUrl.replace(/\/+$/, "") + path);
  const headers: Record<string, string> = { accept: "application/json, text/*;q=0.9, */*;q=0.8" };
  let body: string | undefined;
  if (BODYLESS.has(method)) {
    for (const [name, value] of Object.entries(rest)) appendQuery(url, name, value);
  } else if (Object.keys(rest).length > 0) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(rest);
  }
  applyAuth(upstream.auth, headers, url, env);

  const timeout = AbortSignal.timeout(upstream.timeoutMs ?? 30_000);
  let response: Response;
  try {
    response = await fetch(url, { method, headers, body, signal: AbortSignal.any([signal, timeout]) });
  } catch (error) {
    const why = timeout.aborted ? `no answer within ${upstream.timeoutMs ?? 30_000} ms` : (error as Error).message;
    throw new Error(`upstream ${method} ${url.origin}${url.pathname} failed: ${why}`);
  }
  return {
    status: response.status,
    statusText: response.statusText,
    contentType: response.headers.get("content-type") ?? "",
    body: Buffer.from(await response.arrayBuffer()),
  };
}

function appendQuery(url: URL, name: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) for (const item of value) appendQuery(url, name, item);
  else url.searchParams.append(name, typeof value === "object" ? JSON.stringify(value) : String(value));
}

function applyAuth(
  auth: UpstreamAuth | undefined,
  headers: Record<string, string>,
  url: URL,
  env: NodeJS.ProcessEnv,
): void {
  if (!auth) return;
  const secret = env[auth.env];
  if (!secret) throw new Error(`environment variable ${auth.env} is not set; the upstream API needs it`);
  if (auth.type === "bearer") headers.authorization = `Bearer ${secret}`;
  else if (auth.type === "basic") headers.authorization = `Basic ${Buffer.from(secret).toString("base64")}`;
  else if (auth.in === "header") headers[auth.name.toLowerCase()] = secret;
  else url.searchParams.set(auth.name, secret);
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
