// Sending one upstream request: redirects followed by hand, only within its origin (scheme, host and port), so
// credentials never reach another host; the body read up to a cap; a failure names its cause (ECONNREFUSED ...).
import { TextDecoder } from "node:util"; // not the global: packages compile without the DOM library's types
import { isTextual } from "./response.ts";
import { JOB_HEADERS, type Outgoing, type Redactor, type UpstreamConfig, type UpstreamResponse } from "./types.ts";

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** A URL as errors may show it: origin and path, never user info or query (where keys travel). */
const shownUrl = (url: URL) => `${url.origin}${url.pathname}`;

export async function send(
  upstream: UpstreamConfig,
  firstMethod: string,
  out: Outgoing,
  signal: AbortSignal,
  redact: Redactor,
): Promise<UpstreamResponse & { retryAfter: string | null }> {
  const timeoutMs = upstream.timeoutMs ?? 30_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const both = AbortSignal.any([signal, timeout]);
  const maxRedirects = upstream.maxRedirects ?? 5;
  let method = firstMethod;
  let url = out.url;
  const fail = (why: string) => new Error(redact(`upstream ${method} ${shownUrl(url)} failed: ${why}`));
  const guarded = <T>(work: Promise<T>) =>
    work.catch((error: unknown) => {
      throw fail(timeout.aborted ? `no answer within ${timeoutMs} ms` : describe(error));
    });
  let body = out.body;
  let headers = out.headers;
  for (let redirects = 0; ; redirects++) {
    const response = await guarded(fetch(url, { method, headers, body, signal: both, redirect: "manual" }));
    const location = response.headers.get("location");
    if (REDIRECTS.has(response.status) && location !== null) {
      discard(response);
      const target = URL.canParse(location, url.href) ? new URL(location, url) : undefined;
      if (!target) throw fail("it redirected to an invalid URL");
      const elsewhere = `redirected to another origin, ${shownUrl(target)}; not followed, so the credentials are not sent there (point --base-url at the new location instead)`;
      if (target.origin !== out.url.origin) throw new Error(redact(`upstream ${method} ${shownUrl(url)} ${elsewhere}`));
      if (redirects >= maxRedirects)
        throw fail(`more than ${maxRedirects} redirects (raise --max-redirects / MCP_MAX_REDIRECTS to follow more)`);
      // Fetch semantics: 303 (and 301/302 after a POST) turn into a GET without a body; 307/308 keep both.
      if (response.status === 303 ? method !== "HEAD" : response.status < 303 && method === "POST") {
        method = "GET";
        body = undefined;
        const { "content-type": _type, ...rest } = headers;
        headers = rest;
      }
      url = target;
      continue;
    }
    const contentType = response.headers.get("content-type") ?? "";
    const limit = upstream.maxBodyChars ?? DEFAULT_MAX_BODY_CHARS;
    const read = await guarded(readCapped(response, limit, !isTextual(contentType)));
    const link = response.headers.get("link");
    const jobHeaders = JOB_HEADERS.flatMap((name) =>
      response.headers.has(name) ? [[name, response.headers.get(name) ?? ""]] : [],
    );
    return {
      status: response.status,
      statusText: response.statusText,
      contentType,
      body: read.body,
      ...(read.cut ? { cutAt: limit } : {}),
      ...(link ? { link } : {}),
      headers: Object.fromEntries(jobHeaders),
      url: url.href,
      retryAfter: response.headers.get("retry-after"),
    };
  }
}

type Cause = { code?: unknown; address?: unknown; port?: unknown; message?: unknown; errors?: unknown };

/** fetch says only "fetch failed"; the reason is in its cause (an AggregateError when several addresses failed). */
export function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = (error as { cause?: Cause } | undefined)?.cause;
  if (!cause || typeof cause !== "object") return message;
  const one = (c: Cause) => {
    const where = typeof c.address === "string" ? ` ${c.address}${c.port !== undefined ? `:${c.port}` : ""}` : "";
    return typeof c.code === "string" ? `${c.code}${where}` : typeof c.message === "string" ? c.message : "";
  };
  const parts = Array.isArray(cause.errors) ? (cause.errors as Cause[]).map(one) : [one(cause)];
  const detail = [...new Set(parts.filter(Boolean))].join(", ");
  return detail ? `${message} (${detail})` : message;
}

export const DEFAULT_MAX_BODY_CHARS = 1_000_000;

// Chunks are kept only until the text they decode to passes the cap (characters, as JS counts them; bytes for
// binary types), then the body is cancelled, closing the connection: at most the cap plus one chunk is held.
export async function readCapped(response: Response, maxChars: number, binary: boolean) {
  const stream = response.body;
  if (!stream) return { body: Buffer.alloc(0), cut: false };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  // UTF-8 never takes fewer bytes than the UTF-16 units it decodes to, so text is only decoded (to count
  // characters exactly) once its bytes pass the cap; most answers never get there.
  let decoder: TextDecoder | undefined;
  let chars = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { body: Buffer.concat(chunks), cut: false };
      chunks.push(value);
      bytes += value.byteLength;
      if (bytes <= maxChars) continue;
      if (!binary) {
        if (!decoder) {
          decoder = new TextDecoder("utf-8");
          for (const chunk of chunks.slice(0, -1)) chars += decoder.decode(chunk, { stream: true }).length;
        }
        chars += decoder.decode(value, { stream: true }).length;
        if (chars <= maxChars) continue;
      }
      await reader.cancel().catch(() => {});
      return { body: Buffer.concat(chunks), cut: true };
    }
  } finally {
    reader.releaseLock();
  }
}

/** Discards a body we will not use (a redirect, a retried 429/503), so its connection is not kept busy. */
export function discard(response: Response): void {
  response.body?.cancel().catch(() => {});
}
