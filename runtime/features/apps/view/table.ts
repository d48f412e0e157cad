// A list as a table (docs/views.md): a captioned table with sortable column headers, a page of
// rows at a time, and an Open button per row when the view names the tool a row opens.
import type { ViewField } from "../../../package/catalog-types.ts";
import { button, el } from "./dom.ts";
import { countText, type FormatContext, isRecord, sortKey, valueNode } from "./format.ts";

type Row = Record<string, unknown>;
export type TableState = { sort?: { key: string; dir: "ascending" | "descending" }; page: number };
export type TableOptions = {
  title: string;
  columns: ViewField[];
  rows: unknown[];
  pageSize: number;
  ctx: FormatContext;
  /** The row's next step; absent: no Open column. */
  onOpen?: (row: Row, button: HTMLButtonElement) => void;
  /** Sort and page kept across a re-render (a display mode change keeps the person's sort). */
  state?: TableState;
};

const numeric = (column: ViewField) => column.format === "integer" || column.format === "number";

function compare(a: number | string | undefined, b: number | string | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b));
}

function sorted(rows: Row[], columns: ViewField[], state: TableState): Row[] {
  const sort = state.sort;
  const column = sort && columns.find((field) => field.key === sort.key);
  if (!sort || !column) return rows;
  const keyed = rows.map((row) => ({ row, key: sortKey(row[column.key], column.format) }));
  const sign = sort.dir === "ascending" ? 1 : -1;
  // Missing values stay last both ways: flipping the sign must not bring the blanks to the top.
  keyed.sort((x, y) =>
    x.key === undefined || y.key === undefined ? compare(x.key, y.key) : sign * compare(x.key, y.key),
  );
  return keyed.map((entry) => entry.row);
}

function headerRow(options: TableOptions, state: TableState, redraw: (focus: string) => void): HTMLTableRowElement {
  const row = el("tr");
  options.columns.forEach((column, index) => {
    const th = el("th", numeric(column) ? "num" : undefined);
    th.scope = "col";
    th.setAttribute("aria-sort", state.sort?.key === column.key ? state.sort.dir : "none");
    th.append(
      button(undefined, column.label, () => {
        const dir = state.sort?.key === column.key && state.sort.dir === "ascending" ? "descending" : "ascending";
        state.sort = { key: column.key, dir };
        state.page = 1;
        redraw(`thead th:nth-child(${index + 1}) button`);
      }),
    );
    row.append(th);
  });
  if (options.onOpen) {
    const th = el("th");
    th.scope = "col";
    th.append(el("span", "visually-hidden", "Actions"));
    row.append(th);
  }
  return row;
}

function bodyRow(record: Row, options: TableOptions): HTMLTableRowElement {
  const row = el("tr");
  for (const column of options.columns) {
    const td = el("td", numeric(column) ? "num" : undefined);
    td.append(valueNode(record[column.key], column.format, options.ctx));
    row.append(td);
  }
  const onOpen = options.onOpen;
  if (onOpen) {
    const td = el("td");
    const open = button("open", "Open", () => onOpen(record, open));
    td.append(open);
    row.append(td);
  }
  return row;
}

function pager(state: TableState, total: number, options: TableOptions, redraw: (focus: string) => void): HTMLElement {
  const nav = el("nav", "pager");
  nav.setAttribute("aria-label", "Pages");
  const pages = Math.ceil(total / options.pageSize);
  const first = (state.page - 1) * options.pageSize + 1;
  const last = Math.min(total, state.page * options.pageSize);
  const count = new Intl.NumberFormat(options.ctx.locale);
  const go = (page: number, focus: string) => () => {
    state.page = page;
    redraw(focus);
  };
  const prev = button("prev", "Previous", go(state.page - 1, ".pager .prev"));
  const next = button("next", "Next", go(state.page + 1, ".pager .next"));
  prev.disabled = state.page <= 1;
  next.disabled = state.page >= pages;
  nav.append(prev, el("span", "range", `${count.format(first)}–${count.format(last)} of ${count.format(total)}`), next);
  return nav;
}

/** The table and its pager in one element that redraws itself on sort and paging. */
export function renderTable(options: TableOptions): HTMLElement {
  const wrap = el("div", "table-wrap");
  const state = options.state ?? { page: 1 };
  const rows = options.rows.map((row) => (isRecord(row) ? row : {}));
  const draw = (focus?: string) => {
    const pages = Math.max(1, Math.ceil(rows.length / options.pageSize));
    state.page = Math.min(Math.max(1, state.page), pages);
    const table = el("table", "view-table");
    const count = new Intl.NumberFormat(options.ctx.locale).format(rows.length);
    const noun = countText(rows.length, "items").replace(/^\d+/, "");
    table.append(el("caption", undefined, `${options.title} · ${count}${noun}`));
    table.createTHead().append(headerRow(options, state, draw));
    const body = table.createTBody();
    const start = (state.page - 1) * options.pageSize;
    for (const record of sorted(rows, options.columns, state).slice(start, start + options.pageSize)) {
      body.append(bodyRow(record, options));
    }
    wrap.replaceChildren(table);
    if (rows.length === 0) wrap.append(el("p", "empty", "No items."));
    if (pages > 1) wrap.append(pager(state, rows.length, options, draw));
    if (!focus) return;
    // The clicked button was replaced: focus its successor (or the pager's other button once one is disabled).
    const target = wrap.querySelector<HTMLButtonElement>(focus);
    (target && !target.disabled
      ? target
      : wrap.querySelector<HTMLButtonElement>(".pager button:not(:disabled)")
    )?.focus();
  };
  draw();
  return wrap;
}
