// Types of the upstream forwarding (runtime/upstream*.ts): how a spec's http bindings, credentials and
// servers arrive in a generated manifest, and the request and response as the forwarding code sees them.

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
  /** Characters of an answer read before it is cut (--max-upstream-body; default 1,000,000). */
  maxBodyChars?: number;
  /** Same-origin redirects followed (--max-redirects; default 5); other origins are never followed. */
  maxRedirects?: number;
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

export type UpstreamResponse = {
  status: number;
  statusText: string;
  contentType: string;
  /** The body as read: whole, or (with `cutAt`) its first `cutAt` characters plus the rest of one chunk. */
  body: Buffer;
  /** Set when the body was longer than the cap and reading stopped: the cap, in characters. */
  cutAt?: number;
  /** Removes configured credentials from text and from parsed JSON (structuredContent). */
  redact?: Redactor;
};

/** A request being built: the parts each step (parameters, body, credentials) adds to. */
export type Outgoing = {
  url: URL;
  headers: Record<string, string>;
  cookies: string[];
  body?: string | FormData | URLSearchParams;
};

/** Removes configured credentials from what an upstream answer shows a client (made by upstream-redact.ts). */
export type Redactor = {
  (text: string): string;
  /** True when no credential is configured: nothing to search, so callers skip decoding bodies. */
  none: boolean;
  /** Redacts strings (keys too) throughout a parsed JSON value. */
  value(value: unknown): unknown;
  /** Text that was cut may end inside a secret: a start of one (4+ characters) at its end is redacted too. */
  cutEnd(text: string): string;
};
