// One record as a card: a definition list of labelled fields; a nested object or list of objects folds into a
// <details> (closed, so a deep answer stays short) holding its own list or table.
import type { ViewField } from "../../../package/catalog-types.ts";
import { el } from "./dom.ts";
import { countText, type FormatContext, isRecord, valueNode } from "./format.ts";
import { fieldsOf, isRecordList } from "./infer.ts";
import { renderTable } from "./table.ts";

const MAX_DEPTH = 4; // deeper than this, a nested value is summed up in a line

export type CardOptions = { title: string; record: unknown; fields: ViewField[]; ctx: FormatContext; pageSize: number };

function folded(summary: string, content: HTMLElement): HTMLElement {
  const details = el("details");
  details.append(el("summary", undefined, summary), content);
  return details;
}

function fieldList(record: Record<string, unknown>, fields: ViewField[], options: CardOptions, depth: number) {
  const list = el("dl");
  for (const field of fields) {
    const value = record[field.key];
    const dd = el("dd");
    if (depth < MAX_DEPTH && isRecord(value) && Object.keys(value).length > 0) {
      const nested = fieldList(value, fieldsOf([value]), options, depth + 1);
      dd.append(folded(countText(Object.keys(value).length, "fields"), nested));
    } else if (depth < MAX_DEPTH && isRecordList(value) && value.length > 0) {
      const table = renderTable({ ...options, title: field.label, columns: fieldsOf(value), rows: value });
      dd.append(folded(countText(value.length, "items"), table));
    } else {
      dd.append(valueNode(value, field.format, options.ctx));
    }
    list.append(el("dt", undefined, field.label), dd);
  }
  return list;
}

export function renderCard(options: CardOptions): HTMLElement {
  const card = el("article", "view-card");
  card.append(el("h2", undefined, options.title));
  card.append(fieldList(isRecord(options.record) ? options.record : {}, options.fields, options, 0));
  return card;
}
