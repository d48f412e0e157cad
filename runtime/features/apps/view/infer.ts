// A view chosen from the answer itself, for a tool whose view the generator could not fix (no output schema,
// call_tool without its page): a list of objects is a table, an object a card, anything else text.
import type { ViewField, ViewFormat } from "../../../package/catalog-types.ts";
import { type GeneratedView, labelFromKey } from "../view-config.ts";
import { isRecord } from "./format.ts";

const SAMPLED_ROWS = 50; // enough rows to see every key of a typical API list
const MAX_COLUMNS = 8; // wider tables stop being readable inline; the card shows the rest
const MAX_WRAPPER_KEYS = 6; // a list's envelope: the list and a few counts or cursors

export function formatOf(value: unknown): ViewFormat {
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (Array.isArray(value)) return "list";
  if (isRecord(value)) return "object";
  if (typeof value !== "string") return "text";
  if (/^https?:\/\/\S+$/i.test(value)) return "link";
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return "date";
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && !Number.isNaN(Date.parse(value))) return "date-time";
  return "text";
}

/** Every key the records have, in the order first seen, formatted by its first present value. */
export function fieldsOf(records: Record<string, unknown>[], limit = Number.POSITIVE_INFINITY): ViewField[] {
  const seen = new Map<string, ViewFormat>();
  for (const record of records.slice(0, SAMPLED_ROWS)) {
    for (const [key, value] of Object.entries(record)) {
      if (value !== null && value !== undefined && !seen.has(key)) seen.set(key, formatOf(value));
    }
  }
  return [...seen].slice(0, limit).map(([key, format]) => ({ key, label: labelFromKey(key), format }));
}

export const isRecordList = (value: unknown): value is Record<string, unknown>[] =>
  Array.isArray(value) && value.every(isRecord);

/** The table, card or nothing (text) that fits `data`. */
export function inferView(data: unknown): GeneratedView | undefined {
  if (isRecordList(data)) return { kind: "table", columns: fieldsOf(data, MAX_COLUMNS) };
  if (!isRecord(data)) return undefined;
  // A list wrapped in paging facts ({total_count, items: [...]}) is the list; a record that merely has a list
  // among other nested values (an issue with its labels and user) is a card.
  const keys = Object.keys(data);
  const lists = keys.filter((key) => isRecordList(data[key]) && (data[key] as unknown[]).length > 0);
  const nested = keys.filter((key) => typeof data[key] === "object" && data[key] !== null);
  if (lists.length === 1 && nested.length === 1 && keys.length <= MAX_WRAPPER_KEYS) {
    const items = lists[0];
    return { kind: "table", items, columns: fieldsOf(data[items] as Record<string, unknown>[], MAX_COLUMNS) };
  }
  return { kind: "card", fields: fieldsOf([data]) };
}
