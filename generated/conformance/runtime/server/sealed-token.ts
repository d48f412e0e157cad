// Integrity-protected opaque tokens (MRTR `requestState`, pagination cursors).
// The payload is JSON, HMAC-SHA256-signed with a secret that by default lives
// only in this process, so a client can carry the token but cannot alter it.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export type TokenSealer = {
  seal(payload: unknown): string;
  /** The payload, or undefined when the token was tampered with or is malformed. */
  open(token: string): unknown;
};

export function createTokenSealer(secret: Uint8Array = randomBytes(32)): TokenSealer {
  const sign = (body: string) => createHmac("sha256", secret).update(body).digest("base64url");
  return {
    seal(payload) {
      const body = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
      return `${body}.${sign(body)}`;
    },
    open(token) {
      if (typeof token !== "string") return undefined;
      const [body, mac, extra] = token.split(".");
      if (!body || !mac || extra !== undefined) return undefined;
      const expected = Buffer.from(sign(body));
      const given = Buffer.from(mac);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
      try {
        return JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
      } catch {
        return undefined;
      }
    },
  };
}
