// Request admission for the HTTP transport: Origin/Host checks against DNS
// rebinding, optional bearer token, and a bounded body read.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export type AdmissionOptions = {
  bearerToken?: string;
  allowedOrigins?: string[];
  /** Host header names accepted; defaults to loopback names when bound to a loopback address. */
  allowedHosts?: string[];
  boundHost: string;
};

export type Rejection = { status: number; message: string; headers?: Record<string, string> };

export function admit(req: IncomingMessage, options: AdmissionOptions): Rejection | undefined {
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin, options.allowedOrigins)) {
    return { status: 403, message: `Forbidden origin: ${origin}` };
  }
  const hostName = hostnameOf(req.headers.host);
  const allowedHosts = options.allowedHosts ?? (isLoopback(options.boundHost) ? [...LOOPBACK_HOSTS] : undefined);
  if (allowedHosts && (!hostName || !allowedHosts.includes(hostName))) {
    return { status: 403, message: `Forbidden host: ${req.headers.host ?? "(none)"}` };
  }
  if (options.bearerToken !== undefined && !bearerMatches(req.headers.authorization, options.bearerToken)) {
    return {
      status: 401,
      message: "Missing or invalid bearer token",
      headers: { "WWW-Authenticate": 'Bearer realm="mcp"' },
    };
  }
  return undefined;
}

/** Binds MRTR state to the caller: a digest of the credentials, never the credentials themselves. */
export function principalOf(req: IncomingMessage): string {
  const authorization = req.headers.authorization;
  return authorization ? createHash("sha256").update(authorization).digest("base64url") : "anonymous";
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
      if (size > maxBytes) {
        req.removeAllListeners("data");
        req.resume();
        reject(new BodyTooLargeError());
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function originAllowed(origin: string, allowed: string[] | undefined): boolean {
  if (allowed?.includes(origin)) return true;
  try {
    return LOOPBACK_HOSTS.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  if (!match) return false;
  const given = createHash("sha256").update(match[1].trim()).digest();
  const expected = createHash("sha256").update(token).digest();
  return timingSafeEqual(given, expected);
}

function hostnameOf(host: string | undefined): string | undefined {
  if (!host) return undefined;
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  return host.split(":")[0];
}

function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || host.startsWith("127.");
}
