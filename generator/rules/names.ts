/** MCP naming rules for tools and prompts (server/tools.mdx "Tool Names"), and resource names. */
import type { Report } from "../diagnostics/diagnostic.ts";
import type { ServerNode } from "../ir.ts";
import type { Rule } from "./rule.ts";

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** Many clients (and some model APIs) cut tool names at 64 characters. */
const SAFE_LENGTH = 64;

export const nameRules: Rule = (server, report) => {
  for (const [kind, nodes] of [
    ["tool", server.tools],
    ["prompt", server.prompts],
  ] as const) {
    const seen = new Map<string, (typeof nodes)[number]>();
    for (const node of nodes) {
      const at = `${node.loc.pointer}/name`;
      if (!NAME.test(node.name)) {
        const why =
          node.name.length === 0
            ? "is empty"
            : node.name.length > 128
              ? `has ${node.name.length} characters (at most 128)`
              : `contains ${describeBad(node.name)}`;
        report("NAME_INVALID", at, `${kind} name '${node.name}' ${why}`);
      } else if (node.name.length > SAFE_LENGTH) {
        report("NAME_LONG", at, `${kind} name '${node.name}' has ${node.name.length} characters`);
      }
      const first = seen.get(node.name);
      // The first one's position is looked up only for a duplicate: it may cost a parse (load-spec.ts).
      if (first !== undefined)
        report(
          "NAME_DUPLICATE",
          at,
          `${kind} name '${node.name}' is already used at ${first.loc.line}:${first.loc.col}`,
        );
      else seen.set(node.name, node);
    }
  }
  caseRules(server, report);
  renameRules(server, report);
  for (const node of [...server.resources, ...server.resourceTemplates]) {
    if (node.name.trim() === "") report("RESOURCE_NAME_MISSING", `${node.loc.pointer}/name`, "resource name is empty");
  }
};

function describeBad(name: string): string {
  const bad = [...new Set([...name].filter((c) => !/[A-Za-z0-9_.-]/.test(c)))];
  return bad.map((c) => (c === " " ? "a space" : JSON.stringify(c))).join(", ");
}

/**
 * Tools whose names differ only in case: legal in MCP (names are case-sensitive), but easy to call by
 * mistake, and anything that compares names ignoring case (nginx's plain map keys once did, in
 * deploy/nginx.conf) mixes a harmless tool up with another.
 */
function caseRules(server: ServerNode, report: Report): void {
  const seen = new Map<string, string>();
  for (const tool of server.tools) {
    const folded = tool.name.toLowerCase();
    const first = seen.get(folded);
    if (first === undefined) seen.set(folded, tool.name);
    else if (first !== tool.name)
      report(
        "NAME_CASE_CLASH",
        `${tool.loc.pointer}/name`,
        `tool '${tool.name}' differs from tool '${first}' only in case`,
      );
  }
}

/** A tool renamed from a name that is still in use, or two tools claiming one former name. */
function renameRules(server: ServerNode, report: Report): void {
  const names = new Set(server.tools.map((tool) => tool.name));
  const claimed = new Map<string, string>();
  for (const tool of server.tools) {
    const former = tool.renamedFrom;
    if (former === undefined) continue;
    const key = tool.loc.pointer.startsWith("/paths/") ? "x-mcp-renamed-from" : "renamedFrom";
    const at = `${tool.loc.pointer}/${key}`;
    if (names.has(former)) {
      report(
        "RENAMED_FROM_EXISTS",
        at,
        `tool '${tool.name}' is renamed from '${former}', but a tool '${former}' still exists`,
      );
    }
    const first = claimed.get(former);
    if (first !== undefined) {
      report("RENAMED_FROM_DUPLICATE", at, `tool '${tool.name}' and tool '${first}' are both renamed from '${former}'`);
    } else claimed.set(former, tool.name);
  }
}
