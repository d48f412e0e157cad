// The request and response as the forwarding sees them (what the definition states is in catalog-types.ts).
import type { HttpBinding, UpstreamDefinition } from "../package/catalog-types.ts";

export type UpstreamConfig = UpstreamDefinition & {
  pinned?: boolean; // set by --base-url: every call goes there, operations' own servers included
  maxBodyChars?: number; // --max-upstream-body
  maxRedirects?: number; // --max-redirects (same-origin; other origins are never followed)
};

export type Redactor = {
  (text: string): string;
  none: boolean; // no credential is configured: nothing to search, so callers skip decoding bodies
  /** Redacts strings (keys too) throughout a parsed JSON value. */
  value(value: unknown): unknown;
  /** Text that was cut may end inside a secret: a start of one (4+ characters) at its end is redacted too. */
  cutEnd(text: string): string;
};

export type UpstreamResponse = {
  status: number;
  statusText: string;
  contentType: string;
  /** The body as read: whole, or (when longer than the cap, `cutAt` characters) the cap plus the rest of a chunk. */
  body: Buffer;
  cutAt?: number;
  redact?: Redactor;
  link?: string; // the Link header (RFC 8288), redacted: its rel="next" URL says which arguments fetch the next page
  hint?: string; // on a 401 or 403, a line saying where this operation's credentials come from (authHint)
  /** The headers a long-running job is followed by (JOB_HEADERS, lowercase), and the URL that answered. */
  headers?: Record<string, string>;
  url?: string;
};

/** Where a job's start answer says to poll it (and Retry-After, how soon): the tasks feature reads them. */
export const JOB_HEADERS = ["location", "operation-location", "azure-asyncoperation", "retry-after"] as const;

/** forward.ts's `callUpstream`, carried by a definition with an upstream (so a package without one has none). */
export type CallUpstream = (
  upstream: UpstreamConfig,
  binding: HttpBinding,
  args: Record<string, unknown>,
  signal: AbortSignal,
  env?: NodeJS.ProcessEnv,
  call?: UpstreamCall,
) => Promise<UpstreamResponse>;

/** What one call adds to a binding's request beyond its arguments (issue 17). */
export type UpstreamCall = {
  /** The caller's own upstream credentials (credentials.ts): used instead of the spec's env-based ones. */
  credentials?: { headers: Record<string, string>; secrets: string[] };
  /** Values that must never be sent (the caller's MCP access token): a request carrying one is refused. */
  forbidden?: readonly string[];
  /** Headers added unless the request already has one of the name (the request id, issue 18). */
  extraHeaders?: Record<string, string>;
  /** Instead of the binding's request: `method` (default GET) to this URL, which must share the upstream's origin
   * (a job's poll or cancel URL, from its answers: the credentials never go elsewhere). */
  url?: string;
  method?: string;
  once?: true; // not resent on 503: a job's start is not idempotent (a 429, refused unprocessed, is resent)
};

export type Outgoing = {
  url: URL;
  headers: Record<string, string>;
  cookies: string[];
  body?: string | FormData | URLSearchParams;
};
