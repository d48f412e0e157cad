// Opaque tokens a client carries but cannot alter (MRTR `requestState`, cursors): JSON signed with HMAC-SHA256.
// Replicas share secrets (MCP_SEALING_SECRET or the session store's); with several, the first seals, all open.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export type TokenSealer = {
  seal(payload: unknown): string;
  /** The payload, or undefined when the token was tampered with or is malformed. */
  open(token: string): unknown;
  /** Replaces the secrets (e.g. by the one a shared session store holds): the first seals, all open. */
  rekey(secrets: readonly Uint8Array[]): void;
};

export function createTokenSealer(secret: Uint8Array | readonly Uint8Array[] = randomBytes(32)): TokenSealer {
  let secrets = secretList(secret);
  const sign = (key: Uint8Array, body: string) => createHmac("sha256", key).update(body).digest("base64url");
  return {
    seal(payload) {
      const body = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
      return `${body}.${sign(secrets[0], body)}`;
    },
    open(token) {
      if (typeof token !== "string") return undefined;
      const [body, mac, extra] = token.split(".");
      if (!body || !mac || extra !== undefined) return undefined;
      const given = Buffer.from(mac);
      const valid = secrets.some((key) => {
        const expected = Buffer.from(sign(key, body));
        return expected.length === given.length && timingSafeEqual(expected, given);
      });
      if (!valid) return undefined;
      try {
        return JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
      } catch {
        return undefined;
      }
    },
    rekey(next) {
      secrets = secretList(next);
    },
  };
}

function secretList(secret: Uint8Array | readonly Uint8Array[]): readonly Uint8Array[] {
  const list = secret instanceof Uint8Array ? [secret] : [...secret];
  if (list.length === 0) throw new RangeError("a token sealer needs at least one secret");
  return list;
}
