// Cursor pagination over an ordered list. Cursors are sealed offsets, so a
// client cannot forge them and a stale/garbage cursor is a clean -32602.
import { isObject } from "../protocol/codec.ts";
import { invalidParams } from "../protocol/errors.ts";
import type { TokenSealer } from "./sealed-token.ts";

export type Page<T> = { items: T[]; nextCursor?: string };

export function paginate<T>(items: readonly T[], cursor: unknown, pageSize: number, sealer: TokenSealer, kind: string) {
  let offset = 0;
  if (cursor !== undefined) {
    const payload = typeof cursor === "string" ? sealer.open(cursor) : undefined;
    if (
      !isObject(payload) ||
      payload.kind !== kind ||
      !Number.isSafeInteger(payload.offset) ||
      Number(payload.offset) < 0
    ) {
      throw invalidParams("Invalid cursor");
    }
    offset = payload.offset as number;
  }
  const page: Page<T> = { items: items.slice(offset, offset + pageSize) };
  if (offset + pageSize < items.length) page.nextCursor = sealer.seal({ kind, offset: offset + pageSize });
  return page;
}
