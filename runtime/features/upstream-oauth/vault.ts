// Where the users' API tokens and the sign-ins under way are kept: in memory, or in the redis feature's shared
// store so every instance reads them. Every value is sealed with AES-256-GCM (node:crypto) under
// MCP_UPSTREAM_TOKEN_KEY, its key name bound in as associated data, so a record moved to another user's key does
// not open; key names are HMACs, so no user id or state value appears in the store either.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import type { SharedStore } from "../../package/feature.ts";

/** A user's tokens at the API; `expiresAt` and `renewAt` (when a refresh is due) in ms; `scopes`: what the API
 * granted (else what was asked). */
export type Grant = {
  access: string;
  refresh?: string;
  expiresAt?: number;
  renewAt?: number;
  scopes: string[];
  tokenUrl: string;
};

type Cells = Pick<SharedStore, "get" | "set"> & { claim(key: string, value: string, ttlMs: number): Promise<boolean> };

const PREFIX = "mcpgen:upstream-oauth:";
const GRANT_TTL_MS = 90 * 24 * 3600_000; // a refresh token's usual life; an access token alone lives its own
const MEMORY_MAX = 100_000;

export type Vault = {
  read(user: string): Promise<Grant | undefined>;
  write(user: string, grant: Grant): Promise<void>;
  forget(user: string): Promise<void>;
  /** A short-lived record (a pending sign-in, a flow's state), and taking it once: a second take gets nothing. */
  put(kind: string, id: string, value: object, ttlMs: number): Promise<void>;
  take<T>(kind: string, id: string): Promise<T | undefined>;
  peek<T>(kind: string, id: string): Promise<T | undefined>;
  /** One holder at a time across instances (a refresh); released by `unlock` or after ttlMs. */
  lock(user: string, ttlMs: number): Promise<boolean>;
  unlock(user: string): Promise<void>;
  mac(text: string): string; // HMAC-SHA256 under the key, base64url
};

export function createVault(key: Buffer, shared?: SharedStore): Vault {
  const cells: Cells = shared?.claim ? (shared as Cells) : memoryCells();
  const mac = (text: string) => createHmac("sha256", key).update(text).digest("base64url");
  const name = (kind: string, id: string) => `${PREFIX}${kind}:${mac(`${kind}\0${id}`)}`;
  const seal = (cell: string, value: object) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv).setAAD(Buffer.from(cell));
    const body = Buffer.concat([cipher.update(JSON.stringify(value)), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
  };
  const open = <T>(cell: string, text: string | undefined): T | undefined => {
    if (!text) return undefined;
    try {
      const raw = Buffer.from(text, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12)).setAAD(Buffer.from(cell));
      decipher.setAuthTag(raw.subarray(12, 28));
      return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8")) as T;
    } catch {
      return undefined; // another key (rotated), or tampered with: as if absent, so the user is asked again
    }
  };
  const peek = async <T>(kind: string, id: string) => {
    const cell = name(kind, id);
    return open<T>(cell, await cells.get(cell));
  };
  return {
    read: (user) => peek<Grant>("grant", user),
    write: async (user, grant) => {
      const cell = name("grant", user);
      const ttl = grant.refresh || grant.expiresAt === undefined ? GRANT_TTL_MS : grant.expiresAt - Date.now();
      await cells.set(cell, seal(cell, grant), Math.max(1000, ttl));
    },
    forget: (user) => cells.set(name("grant", user), "", 1),
    put: async (kind, id, value, ttlMs) => {
      const cell = name(kind, id);
      await cells.set(cell, seal(cell, value), ttlMs);
    },
    take: async <T>(kind: string, id: string) => {
      if (!(await cells.claim(name(`${kind}-used`, id), "1", 15 * 60_000))) return undefined;
      return peek<T>(kind, id);
    },
    peek,
    lock: (user, ttlMs) => cells.claim(name("lock", user), "1", ttlMs),
    unlock: (user) => cells.set(name("lock", user), "", 1),
    mac,
  };
}

/** One process's cells: values with their expiry, swept as they are read and when the map grows large. */
function memoryCells(): Cells {
  const map = new Map<string, { value: string; until: number }>();
  const live = (key: string) => {
    const cell = map.get(key);
    if (cell && cell.until > Date.now()) return cell;
    map.delete(key);
    return undefined;
  };
  const set = async (key: string, value: string, ttlMs: number) => {
    if (map.size >= MEMORY_MAX) for (const [k, cell] of map) if (cell.until <= Date.now()) map.delete(k);
    map.delete(key);
    if (value !== "") map.set(key, { value, until: Date.now() + ttlMs });
  };
  return {
    get: async (key) => live(key)?.value,
    set,
    claim: async (key, value, ttlMs) => {
      if (live(key)) return false;
      await set(key, value, ttlMs);
      return true;
    },
  };
}
