/**
 * Tool names from operations: the operationId (else method + path), made MCP-valid
 * (`A-Z a-z 0-9 _ - .`), cut to the length limit with a short stable hash, and made unique across the
 * API. Deterministic: the same document and options always give the same names, whatever the order
 * of colliding operations.
 */
import { shortHash } from "../normalize/naming.ts";

/** The short hash in decimal: hex letters after digits would be re-cased by the type generator. */
const hashOf = (text: string) => String(Number.parseInt(shortHash(text), 16)).padStart(8, "0");

export const DEFAULT_MAX_NAME = 64;
export const MAX_NAME = 128;

export type NameRequest = { key: string; wanted?: string; operationId?: string; method: string; path: string };

/** `key` identifies the operation ("GET /pets/{id}"); the result maps each key to its tool name. */
export function toolNames(requests: NameRequest[], maxLength = DEFAULT_MAX_NAME): Map<string, string> {
  const limit = Math.min(Math.max(maxLength, 8), MAX_NAME);
  const candidates = requests.map((r) => ({
    key: r.key,
    // An explicit x-mcp name is the user's word: kept as written, so validate reports it if invalid.
    isExplicit: r.wanted !== undefined,
    name: r.wanted ?? fitLength(sanitize(r.operationId ?? `${r.method.toLowerCase()}_${r.path}`), limit, r.key),
  }));
  const count = new Map<string, number>();
  for (const c of candidates) count.set(c.name.toLowerCase(), (count.get(c.name.toLowerCase()) ?? 0) + 1);
  const out = new Map<string, string>();
  const taken = new Set<string>();
  // Every holder of a clashing name gets a hash of its own key, so no holder depends on the order.
  for (const c of candidates) {
    const clashes = !c.isExplicit && (count.get(c.name.toLowerCase()) ?? 0) > 1;
    let name = clashes ? withSuffix(c.name, `_${hashOf(c.key)}`, limit) : c.name;
    for (let n = 2; taken.has(name.toLowerCase()) && !c.isExplicit; n++) name = withSuffix(c.name, `_${n}`, limit);
    taken.add(name.toLowerCase());
    out.set(c.key, name);
  }
  return out;
}

/** Characters outside the MCP set become `_`; runs and ends are tidied; never empty. */
export function sanitize(raw: string): string {
  const cleaned = raw
    .replace(/\{([^{}]*)\}/g, "by_$1")
    .replace(/[^A-Za-z0-9_.-]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^[_.-]+|[_.-]+$/g, "");
  return cleaned || "operation";
}

function fitLength(name: string, limit: number, key: string): string {
  return name.length <= limit ? name : withSuffix(name, `_${hashOf(`${key} ${name}`)}`, limit);
}

function withSuffix(name: string, suffix: string, limit: number): string {
  const head = name.slice(0, limit - suffix.length).replace(/[_.-]+$/, "");
  return `${head}${suffix}`;
}
