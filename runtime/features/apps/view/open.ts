// A row's next step (ViewLink): the read-only tool it opens, called through the host, its answer shown as a
// card below the table with a way back.
import type { ViewLink } from "../../../package/catalog-types.ts";
import type { GeneratedView } from "../view-config.ts";
import { calledToolConfig } from "./dispatch.ts";
import { button, el } from "./dom.ts";
import { isRecord } from "./format.ts";
import type { HostBridge } from "./host-bridge.ts";
import { fieldsOf } from "./infer.ts";
import {
  errorAlert,
  preformatted,
  type RenderOptions,
  renderData,
  resultData,
  resultText,
  type ToolResult,
} from "./render.ts";

export type OpenContext = {
  bridge: HostBridge;
  main: HTMLElement;
  link: ViewLink;
  input: Record<string, unknown>; // the list call's arguments
  options: () => RenderOptions; // read at answer time: the host's context may have changed meanwhile
  server?: string; // set when the host reads resources: the opened tool's page tells how to show its answer
};

/** The opened tool's arguments: each from the row or from the list call's input; absent ones left out. */
export function openArguments(link: ViewLink, row: Record<string, unknown>, input: Record<string, unknown>) {
  const args: Record<string, unknown> = {};
  for (const [name, source] of Object.entries(link.args)) {
    const value = source.from === "row" ? row[source.key] : input[source.key];
    if (value !== undefined && value !== null) args[name] = value;
  }
  return args;
}

function showDetail(open: OpenContext, opener: HTMLButtonElement, content: HTMLElement): void {
  open.main.querySelector("section.detail")?.remove();
  const section = el("section", "detail");
  section.setAttribute("aria-label", open.link.label);
  const back = button("back", "Back to list", () => {
    section.remove();
    opener.focus();
  });
  section.append(content, back);
  open.main.append(section);
  back.focus();
}

/** The answer as its own tool's view shows it (read from its page when the host can), else as a card. */
function answerElement(open: OpenContext, result: ToolResult, view: GeneratedView | undefined): HTMLElement {
  if (result.isError) return errorAlert(result);
  const data = resultData(result);
  const card = isRecord(data) ? { kind: "card" as const, fields: fieldsOf([data]) } : undefined;
  const options = { ...open.options(), title: open.link.label, view: view ?? card, onOpen: undefined };
  const shown = data === undefined ? undefined : renderData(data, options);
  return shown ?? preformatted(resultText(result));
}

export function openRow(open: OpenContext, row: Record<string, unknown>, opener: HTMLButtonElement): void {
  opener.disabled = true;
  const params = { name: open.link.tool, arguments: openArguments(open.link, row, open.input) };
  const called = open.server === undefined ? undefined : calledToolConfig(open.bridge, open.server, open.link.tool);
  const failure = (error: Error): ToolResult => ({ isError: true, content: [{ type: "text", text: error.message }] });
  Promise.all([open.bridge.request("tools/call", params).catch(failure), called])
    .then(([result, config]) => answerElement(open, result as ToolResult, config?.view))
    .then((content) => {
      opener.disabled = false;
      showDetail(open, opener, content);
    });
}
