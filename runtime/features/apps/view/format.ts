// A value as the person reads it, per ViewFormat (catalog-types.ts). Everything the API sent becomes a text
// node or an attribute: a hostile string stays a string.
import type { ViewFormat } from "../../../package/catalog-types.ts";

/** The host's locale and time zone, and how a link asks the host to open it (absent: the browser's way). */
export type FormatContext = { locale?: string; timeZone?: string; openLink?: (url: string) => void };

const MISSING = "—";
const LABEL_KEYS = ["name", "title", "login", "label", "key", "id"];
const LIST_SHOWN = 3;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What an object is called: its first name-like property, else undefined. */
export function labelOf(value: unknown): string | undefined {
  if (!isRecord(value)) return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
  for (const key of LABEL_KEYS) {
    const found = value[key];
    if (typeof found === "string" || typeof found === "number") return String(found);
  }
  return undefined;
}

export const countText = (count: number, noun: "fields" | "items") =>
  `${count} ${count === 1 ? noun.slice(0, -1) : noun}`;

/** An object or a list in one line: its label(s), else how many fields or items it has. */
export function summaryOf(value: unknown): string {
  if (Array.isArray(value)) {
    const labels = value.map(labelOf);
    if (value.length === 0 || labels.some((label) => label === undefined)) return countText(value.length, "items");
    const more = value.length > LIST_SHOWN ? ` +${value.length - LIST_SHOWN} more` : "";
    return labels.slice(0, LIST_SHOWN).join(", ") + more;
  }
  if (isRecord(value)) return labelOf(value) ?? countText(Object.keys(value).length, "fields");
  return String(value);
}

function numberText(value: number, format: ViewFormat, ctx: FormatContext): string {
  const options = format === "integer" ? { maximumFractionDigits: 0 } : {};
  return new Intl.NumberFormat(ctx.locale, options).format(value);
}

/** The date as the host's locale writes it; a plain date is a calendar day, shown in UTC so it never shifts. */
function dateText(value: string | number, format: ViewFormat, ctx: FormatContext): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const options: Intl.DateTimeFormatOptions =
    format === "date"
      ? { dateStyle: "medium", timeZone: "UTC" }
      : { dateStyle: "medium", timeStyle: "short", timeZone: ctx.timeZone };
  try {
    return new Intl.DateTimeFormat(ctx.locale, options).format(date);
  } catch {
    // An unknown time zone or locale from the host: the browser's defaults still read well.
    return new Intl.DateTimeFormat(undefined, { ...options, timeZone: format === "date" ? "UTC" : undefined }).format(
      date,
    );
  }
}

export function valueText(value: unknown, format: ViewFormat, ctx: FormatContext): string {
  if (value === null || value === undefined) return MISSING;
  if (typeof value === "number" && Number.isFinite(value)) {
    return format === "date" || format === "date-time" ? dateText(value, format, ctx) : numberText(value, format, ctx);
  }
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "string")
    return format === "date" || format === "date-time" ? dateText(value, format, ctx) : value;
  return summaryOf(value);
}

const isWebUrl = (value: unknown): value is string => typeof value === "string" && /^https?:\/\//i.test(value);

/** The node a value shows as: a link for an http(s) URL in a link field, else text. */
export function valueNode(value: unknown, format: ViewFormat, ctx: FormatContext): Node {
  if (format !== "link" || !isWebUrl(value)) return document.createTextNode(valueText(value, format, ctx));
  const link = document.createElement("a");
  link.href = value;
  link.target = "_blank";
  link.rel = "noopener noreferrer";
  link.textContent = value;
  const open = ctx.openLink;
  if (open) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      open(value);
    });
  }
  return link;
}

/** What a column sorts by: numbers and dates by value, the rest by text; missing values sort last. */
export function sortKey(value: unknown, format: ViewFormat): number | string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "number") return value;
  if (format === "date" || format === "date-time") {
    const time = new Date(value as string).getTime();
    if (!Number.isNaN(time)) return time;
  }
  if (typeof value === "boolean") return value ? 1 : 0;
  return typeof value === "string" ? value : summaryOf(value);
}
