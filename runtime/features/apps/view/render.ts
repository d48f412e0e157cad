// A tool result into <main id="view">: its data (structuredContent, else the JSON of its first text block,
// else the text) shown with the page's view, or one chosen from the data when the view does not fit it.
import type { GeneratedView } from "../view-config.ts";
import { renderCard } from "./card.ts";
import { el } from "./dom.ts";
import { type FormatContext, isRecord } from "./format.ts";
import { fieldsOf, inferView } from "./infer.ts";
import { renderTable, type TableState } from "./table.ts";

export type ToolResult = {
  content?: Array<{ type?: string; text?: string }>;
  structuredContent?: unknown;
  isError?: boolean;
};
export type RenderOptions = {
  title: string;
  view?: GeneratedView;
  ctx: FormatContext;
  pageSize: number;
  state?: TableState;
  onOpen?: (row: Record<string, unknown>, button: HTMLButtonElement) => void;
};

/** The result's text blocks, as a host without views would show them. */
export const resultText = (result: ToolResult) =>
  (result.content ?? [])
    .filter((block) => block.type === "text" && typeof block.text === "string")
    .map((block) => block.text)
    .join("\n");

/** What the view shows: `undefined` when the result holds no JSON (then its text is shown as is). */
export function resultData(result: ToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  // A REST list answer has no structuredContent (MCP's is an object): its text block is the JSON.
  const text = (result.content ?? []).find((block) => block.type === "text")?.text;
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An error result's text, announced (role=alert). */
export function errorAlert(result: ToolResult): HTMLElement {
  const alert = el("p", "error", resultText(result) || "The tool failed.");
  alert.setAttribute("role", "alert");
  return alert;
}

export function preformatted(text: string): HTMLElement {
  return el("pre", "view-text", text);
}

function renderWith(data: unknown, view: GeneratedView, options: RenderOptions): HTMLElement | undefined {
  if (view.kind === "table") {
    const rows = view.items === undefined ? data : isRecord(data) ? data[view.items] : undefined;
    if (!Array.isArray(rows)) return undefined;
    return renderTable({ ...options, columns: view.columns, rows, onOpen: view.open ? options.onOpen : undefined });
  }
  if (!isRecord(data)) return undefined;
  return renderCard({ ...options, record: data, fields: view.fields.length > 0 ? view.fields : fieldsOf([data]) });
}

/** The element showing `data`: the configured view if the data has its shape, else one inferred from it. */
export function renderData(data: unknown, options: RenderOptions): HTMLElement | undefined {
  const shown = options.view && renderWith(data, options.view, options);
  if (shown) return shown;
  // An inferred view has no `open`: which tool a row opens is the generator's call, made from the schemas.
  const inferred = inferView(data);
  return inferred && renderWith(data, inferred, options);
}

/** Replaces what <main> shows with the result; `data-state` says which state the view is in. */
export function renderResult(main: HTMLElement, result: ToolResult, options: RenderOptions): void {
  if (result.isError) {
    main.dataset.state = "error";
    main.replaceChildren(errorAlert(result));
    return;
  }
  const data = resultData(result);
  const shown = data === undefined ? undefined : renderData(data, options);
  const text = resultText(result);
  main.replaceChildren(shown ?? preformatted(text || JSON.stringify(data, null, 2) || ""));
  main.dataset.state = "ready";
}
