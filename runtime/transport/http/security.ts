// Request admission: Origin/Host checks against DNS rebinding, optional bearer token, a bounded body read.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { isIPv6 } from "node:net";
import type { AuthPrincipal } from "../../server/auth-principal.ts";
import { headerLineCount } from "./raw-headers.ts";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export type AdmissionOptions = {
  bearerToken?: string;
  allowedOrigins?: string[];
  allowedHosts?: string[];
  boundHost: string;
};

export type Rejection = { status: number; message: string; headers?: Record<string, string> };

export function admit(req: IncomingMessage, options: AdmissionOptions): Rejection | undefined {
  // RFC 9112 §3.2: a request with more than one Host line, or an invalid one, is answered 400.
  const host = req.headers.host;
  const hostLines = host === undefined ? 0 : headerLineCount(req, "host");
  if (hostLines > 1) return { status: 400, message: "Bad Request: more than one Host header" };
  const hostName = host === undefined ? undefined : hostnameOfCached(host);
  if (host !== undefined && hostName === undefined)
    return { status: 400, message: `Bad Request: invalid Host header: ${printable(host)}` };
  const allowedHosts = allowedHostNames(options);
  if (allowedHosts && (!hostName || !allowedHosts.has(hostName)))
    return { status: 403, message: `Forbidden host: ${printable(host ?? "(none)")}` };
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin, options.allowedOrigins))
    return { status: 403, message: `Forbidden origin: ${printable(origin)}` };
  if (options.bearerToken === undefined || bearerMatches(req.headers.authorization, options.bearerToken))
    return undefined;
  const headers = { "WWW-Authenticate": 'Bearer realm="mcp"' };
  return { status: 401, message: "Missing or invalid bearer token", headers };
}

/** The Host names let in (allowedHosts, else loopback names when bound to loopback), normalized once per options
 * object: normalizing each entry per request ran Node's IPv6 regular expression four times a request. */
const allowedHostSets = new WeakMap<AdmissionOptions, { from: string[] | undefined; names: Set<string> | undefined }>();

function allowedHostNames(options: AdmissionOptions): Set<string> | undefined {
  const cached = allowedHostSets.get(options);
  if (cached && cached.from === options.allowedHosts) return cached.names;
  const loopback = LOOPBACK_HOSTS.has(options.boundHost) || options.boundHost.startsWith("127.");
  const allowed = options.allowedHosts ?? (loopback ? [...LOOPBACK_HOSTS] : undefined);
  const names = allowed && new Set(allowed.map(normalizeHostName));
  allowedHostSets.set(options, { from: options.allowedHosts, names });
  return names;
}

/** hostnameOf, the last value kept: every request of a deployment names the same Host. */
let lastHost: string | undefined;
let lastHostName: string | undefined;
function hostnameOfCached(host: string): string | undefined {
  if (host !== lastHost) {
    lastHostName = hostnameOf(host);
    lastHost = host;
  }
  return lastHostName;
}

/** A digest of the caller's credentials, binding MRTR state and sessions; OAuth: who the token names (issue 17). */
export function principalOf(req: IncomingMessage): string {
  const auth = requestAuth(req);
  if (auth) return oauthPrincipal(auth);
  const authorization = req.headers.authorization;
  if (!authorization) return "anonymous";
  // A request asks this up to three times, and a client sends the same credentials each time: the last kept.
  if (authorization !== lastAuthorization) {
    lastPrincipal = createHash("sha256").update(authorization).digest("base64url");
    lastAuthorization = authorization;
  }
  return lastPrincipal;
}

let lastAuthorization: string | undefined;
let lastPrincipal = "";
const oauthPrincipals = new WeakMap<AuthPrincipal, string>();

function oauthPrincipal(auth: AuthPrincipal): string {
  let principal = oauthPrincipals.get(auth);
  if (principal === undefined) {
    principal = createHash("sha256").update(`oauth\n${auth.issuer}\n${auth.subject}`).digest("base64url");
    oauthPrincipals.set(auth, principal);
  }
  return principal;
}

export class BodyTooLargeError extends Error {}

export function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxBytes) return reject(new BodyTooLargeError());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      req.removeAllListeners("data");
      req.resume();
      reject(new BodyTooLargeError());
    });
    // One chunk is the common case: decoded in place, not copied by concat first.
    req.on("end", () => resolve((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString("utf8")));
    req.on("error", reject);
  });
}

function originAllowed(origin: string, allowed: string[] | undefined): boolean {
  if (allowed?.includes(origin)) return true;
  // Whether the Origin is a loopback one, the last asked kept: a browser sends the same Origin each time.
  if (origin !== lastOrigin) {
    lastOriginLoopback = isLoopbackOrigin(origin);
    lastOrigin = origin;
  }
  return lastOriginLoopback;
}

let lastOrigin: string | undefined;
let lastOriginLoopback = false;

function isLoopbackOrigin(origin: string): boolean {
  try {
    return LOOPBACK_HOSTS.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}

const digest = (text: string) => createHash("sha256").update(text).digest();
let lastToken: string | undefined;
let lastTokenDigest: Buffer = Buffer.alloc(0);

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  if (match === null) return false;
  // The server's own token is digested once, not per request; the caller's still is (a constant-time compare).
  if (token !== lastToken) {
    lastTokenDigest = digest(token);
    lastToken = token;
  }
  return timingSafeEqual(digest(match[1].trim()), lastTokenDigest);
}

// RFC 3986 §3.2.2 reg-name (unreserved, pct-encoded, sub-delims) and §3.2.3 port.
const REG_NAME = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+$/;
const PORT = /^[0-9]{0,5}$/;

/** The lowercased host of a Host value (`uri-host [":" port]`), IPv6 bracketed; undefined if not exactly that. */
function hostnameOf(host: string): string | undefined {
  if (host === "") return ""; // allowed by RFC 9112 §3.2 for a target without authority; names no host
  if (host.startsWith("[")) {
    const close = host.indexOf("]");
    if (close < 0 || !isIPv6(host.slice(1, close))) return undefined;
    const rest = host.slice(close + 1);
    if (rest !== "" && !(rest.startsWith(":") && PORT.test(rest.slice(1)))) return undefined;
    return host.slice(0, close + 1).toLowerCase();
  }
  const colon = host.lastIndexOf(":");
  const name = colon < 0 ? host : host.slice(0, colon);
  if (colon >= 0 && !PORT.test(host.slice(colon + 1))) return undefined;
  return REG_NAME.test(name) ? name.toLowerCase() : undefined;
}

/** An allow-list entry in the form hostnameOf returns: lowercase, IPv6 literals bracketed. */
function normalizeHostName(name: string): string {
  const lower = name.toLowerCase();
  return isIPv6(lower) ? `[${lower}]` : lower;
}

/** A header value safe to echo in an error message: visible ASCII only, and not too long. */
function printable(value: string): string {
  const clean = value.replace(/[^\x20-\x7E]/g, "?");
  return clean.length > 200 ? `${clean.slice(0, 200)}...` : clean;
}

// The OAuth principal, kept beside the request (and gone with it) so the POST handlers' signatures stay as they are.
const principals = new WeakMap<IncomingMessage, AuthPrincipal>();
export const setRequestAuth = (req: IncomingMessage, principal: AuthPrincipal) => void principals.set(req, principal);
export const requestAuth = (req: IncomingMessage) => principals.get(req);
