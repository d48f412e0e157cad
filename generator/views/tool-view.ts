/**
 * Each tool's view (issue 31, docs/views.md): a table for a list of records, a card for a record,
 * the user's own page, or none. Columns are picked so a table stays readable: at most 8, identity first, then
 * state, dates, required fields; links, opaque ids and long texts only when nothing else is left.
 */
import type { ToolView, ViewField } from "../../runtime/package/catalog-types.ts";
import type { JsonSchema, ToolNode } from "../ir.ts";
import { openLink } from "./view-link.ts";
import { type PageRead, readViewPage } from "./view-page-file.ts";
import { answerShape, fieldOf, formatOf, type ObjectSchema } from "./view-schema.ts";

const MAX_COLUMNS = 8;
const IDENTITY = ["number", "key", "name", "title", "login", "slug", "label", "email", "id"];
const STATUS = ["state", "status", "type", "kind"];
const OPAQUE = /(^|_)(node_id|etag|sha|hash)$/;
const LONG_TEXT = /^(body|body_html|body_text|content|markdown|html|text)$/;

/** The values of `ui:` that name a view mcpgen makes; any other string is the path of the user's own page. */
export const BUILT_IN_VIEWS: readonly string[] = ["table", "card"];

/** The user's own page a `ui:` path names (read as views/view-page-file.ts says); undefined for any other value. */
export function uiPage(tool: ToolNode): PageRead | undefined {
  const value = tool.ui?.value;
  if (typeof value !== "string" || BUILT_IN_VIEWS.includes(value) || !tool.ui) return undefined;
  return readViewPage(value, tool.ui.loc.file);
}

/** What the view of a tool would be made from: its outputSchema, else the schema of a list answer. */
export const answerSchema = (tool: ToolNode): JsonSchema | undefined => tool.outputSchema ?? tool.resultSchema;

/** The tool's view, or undefined (`ui: false`, or an answer neither a list of records nor a record). */
export function toolView(tool: ToolNode, tools: readonly ToolNode[]): ToolView | undefined {
  const value = tool.ui?.value;
  if (value === false) return undefined;
  // A page that cannot be read is the rules' UI_FILE_UNREADABLE, which stops generation before this.
  const page = uiPage(tool);
  if (page) return page.ok ? { kind: "html", html: page.html } : undefined;
  const shape = answerShape(answerSchema(tool));
  if (shape.kind === "list" && value !== "card") {
    const open = openLink(tool, shape.item, tools);
    return {
      kind: "table",
      ...(shape.items ? { items: shape.items } : {}),
      columns: columnsOf(shape.item),
      ...(open ? { open } : {}),
    };
  }
  if (shape.kind === "record" && value !== "table") return { kind: "card", fields: cardFields(shape.record) };
  return undefined;
}

function rank(key: string, schema: JsonSchema, required: boolean): number {
  const format = formatOf(key, schema);
  if (format === "link" || OPAQUE.test(key) || LONG_TEXT.test(key)) return 9;
  const composite = format === "object" || format === "list";
  if (IDENTITY.includes(key) && !composite) return 0;
  // A `type` that is an object (GitHub's issue type) is summarised like any object, not read as a status.
  if (STATUS.includes(key) && !composite) return 1;
  if (format === "date" || format === "date-time") return 2;
  if (required) return composite ? 4 : 3;
  return composite ? 6 : 5;
}

function columnsOf(item: ObjectSchema): ViewField[] {
  const ranked = item.properties
    .map((property, order) => ({
      property,
      order,
      rank: rank(property[0], property[1], item.required.has(property[0])),
    }))
    .sort((a, b) => a.rank - b.rank || a.order - b.order);
  const usable = ranked.filter((entry) => entry.rank < 9);
  // An `id` beside a `number` (GitHub's issues, pulls) is the database's; the number is what people use.
  const hasNumber = usable.some((entry) => entry.property[0] === "number");
  const chosen = (usable.length > 0 ? usable : ranked).filter((entry) => !(hasNumber && entry.property[0] === "id"));
  return chosen.slice(0, MAX_COLUMNS).map((entry) => fieldOf(entry.property));
}

/** A card shows every field, in the schema's order, but the opaque ids no reader needs. */
function cardFields(record: ObjectSchema): ViewField[] {
  const fields = record.properties.filter(([key]) => !OPAQUE.test(key));
  return (fields.length > 0 ? fields : record.properties).map(fieldOf);
}
