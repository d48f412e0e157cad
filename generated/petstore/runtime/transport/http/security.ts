// Request admission: Origin/Host checks against DNS rebinding, optional bearer token, a bounded body read.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { isIPv6 } from "node:net";
import type { AuthPrincipal } from "../../server/auth-principal.ts";
import { headerLineCount, keepLast } from "./raw-headers.ts";

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

/** The Host names let in, normalized once per options object (per request, Node's IPv6 regex ran 4 times). */
const allowedHostSets = new WeakMap<AdmissionOptions, Set<string> | undefined>();
function allowedHostNames(options: AdmissionOptions): Set<string> | undefined {
  if (allowedHostSets.has(options)) return allowedHostSets.get(options);
  const loopback = LOOPBACK_HOSTS.has(options.boundHost) || options.boundHost.startsWith("127.");
  const names = (options.allowedHosts ?? (loopback ? [...LOOPBACK_HOSTS] : undefined))?.map(normalizeHostName);
  allowedHostSets.set(options, names && new Set(names));
  return allowedHostSets.get(options);
}

/** A digest of the caller's credentials, binding MRTR state and sessions; OAuth: who the token names (issue 17). */
export function principalOf(req: IncomingMessage): string {
  const auth = requestAuth(req);
  if (auth) return sha256(`oauth\n${auth.issuer}\n${auth.subject}`);
  const authorization = req.headers.authorization;
  return authorization ? sha256(authorization) : "anonymous";
}

// Kept for the last value: a request asks up to three times, and a client repeats its credentials and Host.
const sha256 = keepLast((text: string) => createHash("sha256").update(text).digest("base64url"));
const hostnameOfCached = keepLast(hostnameOf);

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
    req.on("end", () => resolve((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString("utf8")));
    req.on("error", reject);
  });
}

function originAllowed(origin: string, allowed: string[] | undefined): boolean {
  return allowed?.includes(origin) || loopbackOrigin(origin);
}

const loopbackOrigin = keepLast((origin: string) => {
  try {
    return LOOPBACK_HOSTS.has(new URL(origin).hostname);
  } catch {
    return false;
  }
});

const digest = (text: string) => createHash("sha256").update(text).digest();
const tokenDigest = keepLast(digest); // the server's own token: digested once, not per request

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  return match !== null && timingSafeEqual(digest(match[1].trim()), tokenDigest(token));
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
