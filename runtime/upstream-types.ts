// Types of the upstream forwarding (runtime/upstream*.ts): the request and response as the forwarding
// code sees them. What the manifest states (bindings, credentials, servers) is in manifest-types.ts.

import type { ManifestUpstream } from "./manifest-types.ts";
import type { Redactor } from "./upstream-redact.ts";

/** The manifest's upstream plus what the server's flags set at start-up. */
export type UpstreamConfig = ManifestUpstream & {
  /** Set by --base-url: every call goes there, operations' own servers included. */
  pinned?: boolean;
  /** Characters of an answer read before it is cut (--max-upstream-body; default 1,000,000). */
  maxBodyChars?: number;
  /** Same-origin redirects followed (--max-redirects; default 5); other origins are never followed. */
  maxRedirects?: number;
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
