/**
 * A table row's next step (issue 31): the read-only tool whose path is the list's plus one `/{param}` segment
 * (GET /repos/{owner}/{repo}/issues → GET /repos/{owner}/{repo}/issues/{issue_number}), its parameter taken from
 * the row (issue_number ← number, petId ← id) and its other required arguments from the list call's input.
 */
import type { ViewLink } from "../../runtime/package/catalog-types.ts";
import type { HttpBindingNode, ToolNode } from "../ir.ts";
import type { ObjectSchema } from "./view-schema.ts";

const LAST_PARAM = /^(.*)\/\{([^{}/]+)\}$/;

/** The argument holding a path parameter (OpenAPI bindings name it; else the parameter's own name). */
const argOf = (http: HttpBindingNode, param: string) =>
  http.parameters?.find((p) => p.in === "path" && p.name === param)?.arg[0] ?? param;

const propertiesOf = (tool: ToolNode) =>
  (typeof tool.inputSchema.properties === "object" && tool.inputSchema.properties) || {};
const requiredOf = (tool: ToolNode) =>
  Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required.map(String) : [];

/** The row's key a parameter means: itself, or without its prefix/suffix (issue_number → number, petId → id). */
function rowKey(param: string, item: ObjectSchema): string | undefined {
  const keys = new Set(item.properties.map(([key]) => key));
  const candidates = [
    param,
    param.replace(/^.*_/, ""),
    param.replace(/^[a-z]+(?=[A-Z])/, "").replace(/^./, (c) => c.toLowerCase()),
    /(Id|_id|ID)$/.test(param) ? "id" : "",
  ];
  return candidates.find((key) => key && keys.has(key));
}

export function openLink(list: ToolNode, item: ObjectSchema, tools: readonly ToolNode[]): ViewLink | undefined {
  const from = list.http;
  if (from?.method !== "GET") return undefined;
  for (const target of tools) {
    const to = target.http;
    // Read-only as annotated; unannotated (the spec language), a GET is safe by definition (RFC 9110).
    const readOnly = target.annotations?.readOnlyHint ?? to?.method === "GET";
    if (!to || target === list || !readOnly) continue;
    const match = LAST_PARAM.exec(to.path);
    if (!match || match[1] !== from.path.replace(/\/$/, "")) continue;
    const param = match[2];
    const key = rowKey(param, item);
    if (!key) continue;
    const args: ViewLink["args"] = { [argOf(to, param)]: { from: "row", key } };
    const listArgs = propertiesOf(list);
    const missing = requiredOf(target).filter((name) => !(name in args) && !Object.hasOwn(listArgs, name));
    if (missing.length > 0) continue;
    for (const name of requiredOf(target)) if (!(name in args)) args[name] = { from: "input", key: name };
    return { tool: target.name, label: "Open", args };
  }
  return undefined;
}
