/**
 * View settings that cannot work (issue 31): a value that is none of false, table, card or a page's path; a page
 * that cannot be read; a table or card the tool's answer does not fit; a view the features leave out.
 */
import { closest } from "../diagnostics/spelling.ts";
import type { ToolNode } from "../ir.ts";
import { answerSchema, BUILT_IN_VIEWS, uiPage } from "../views/tool-view.ts";
import { answerShape } from "../views/view-schema.ts";
import { featureAsked, type Rule } from "./rule.ts";

export const viewRules: Rule = (server, report) => {
  const asking = server.tools.filter((tool) => tool.ui !== undefined && tool.ui.value !== false);
  for (const tool of asking) {
    const ui = tool.ui;
    if (!ui) continue;
    const { value } = ui;
    if (typeof value !== "string" || value.trim() === "") {
      report("UI_VALUE_INVALID", ui.loc.pointer, `ui of tool '${tool.name}' is ${JSON.stringify(value)}`, {
        at: "value",
      });
    } else if (BUILT_IN_VIEWS.includes(value)) {
      checkFit(tool, value, (message) => report("UI_VIEW_MISMATCH", ui.loc.pointer, message, { at: "value" }));
    } else {
      const page = uiPage(tool);
      const near = closest(value, BUILT_IN_VIEWS);
      if (page && !page.ok)
        report("UI_FILE_UNREADABLE", ui.loc.pointer, `the page '${value}' of tool '${tool.name}' ${page.problem}`, {
          at: "value",
          ...(near ? { hint: `Did you mean ${near}? A path names your own HTML page, relative to this file.` } : {}),
        });
    }
  }
  if (asking.length > 0 && !featureAsked(server, "apps"))
    for (const tool of asking)
      report(
        "UI_FEATURE_OFF",
        tool.ui?.loc.pointer ?? tool.loc.pointer,
        `tool '${tool.name}' asks for a view, but the features asked for leave out apps: no view is served`,
        { at: "key" },
      );
};

function checkFit(tool: ToolNode, view: string, fail: (message: string) => void): void {
  const shape = answerShape(answerSchema(tool));
  if (view === "table" && shape.kind !== "list")
    fail(`ui: table on tool '${tool.name}', whose answer is ${shapeText(tool, shape.kind)}, not a list of objects`);
  if (view === "card" && shape.kind !== "record")
    fail(`ui: card on tool '${tool.name}', whose answer is ${shapeText(tool, shape.kind)}, not an object`);
}

const shapeText = (tool: ToolNode, kind: string) =>
  !answerSchema(tool)
    ? "not described (no outputSchema)"
    : kind === "list"
      ? "a list of objects"
      : kind === "record"
        ? "an object"
        : "neither a list of objects nor an object";
