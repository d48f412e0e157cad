/**
 * Scaffolds for user-owned handler files: written once, with the typed signature and a body that
 * answers "not implemented", and never overwritten afterwards. Each imports what handlers need from
 * the runtime's one entry for them (runtime/handler-api.ts) and types `ctx` as what the server passes
 * (SpecContext). Parameters start with `_` until the user's code reads them (Biome: no unused ones).
 */
import type { HandlerRef, Model } from "../normalize/normalize.ts";
import { ANY_OBJECT } from "./format-types.ts";
import { commentText } from "./ts.ts";
import { argumentList, importLine, str } from "./ts-style.ts";

export type Scaffold = { path: string; content: string; owner: string; formerPath?: string };

/** Relative prefix from a handler file to the package root (src/handlers/<kind>/x.ts: three levels). */
const depth = (ref: HandlerRef) => "../".repeat(ref.file.split("/").length - 1);
/** The same, to src/ (where types.ts lives). */
const toSrc = (ref: HandlerRef) => "../".repeat(ref.file.split("/").length - 2);
const intro = (kind: string, name: string) =>
  `// Handler for the ${commentText(kind)} ${commentText(JSON.stringify(name)).replace(/\n/g, " ")}.\n` +
  "// Written once by mcpgen and yours from now on: regenerating never overwrites this file.\n";

type Parts = {
  kind: string;
  name: string;
  ref: HandlerRef;
  /** Names imported from runtime/handler-api.ts besides SpecContext. */
  runtime: string[];
  /** Type names imported from src/types.ts. */
  types: string[];
  params: string[];
  returns: string;
  /** A comment line (or lines) before the body, ending in a newline. */
  note?: string;
  /** `return notImplemented` (a tool answers with an error result) or `throw notImplementedError`. */
  body: "return notImplemented" | "throw notImplementedError";
};

function scaffold(p: Parts): string {
  const imports = [importLine([...p.runtime, "type SpecContext"], `${depth(p.ref)}runtime/handler-api.ts`)];
  if (p.types.length > 0) imports.push(importLine(p.types, `${toSrc(p.ref)}types.ts`, true));
  const signature = argumentList(
    `export default async function ${p.ref.importName}`,
    [...p.params, "_ctx: SpecContext"],
    `: Promise<${p.returns}> {`,
  );
  const body = argumentList(p.body, [str(p.kind), str(p.name), str(p.ref.file)], ";", "  ");
  return `${intro(p.kind, p.name)}${imports.join("\n")}\n\n${signature}\n${p.note ?? ""}${body}\n}\n`;
}

export function renderScaffolds(model: Model): Scaffold[] {
  const scaffolds: Scaffold[] = [];
  const add = (p: Parts) =>
    scaffolds.push({
      path: p.ref.file,
      owner: `${p.kind} ${p.name}`,
      ...(p.ref.formerFile ? { formerPath: p.ref.formerFile } : {}),
      content: scaffold(p),
    });
  for (const tool of model.tools) {
    if (!tool.handler) continue;
    add({
      kind: "tool",
      name: tool.node.name,
      ref: tool.handler,
      runtime: ["notImplemented", "type ToolResult"],
      types: [tool.inputType, ...(tool.outputType ? [tool.outputType] : [])],
      params: [`_args: ${tool.inputType}`],
      returns: `ToolResult<${tool.outputType ?? ANY_OBJECT}>`,
      body: "return notImplemented",
    });
  }
  const reading = { runtime: ["notImplementedError", "type ResourceReadResult"], types: [] };
  for (const { node, handler } of model.resources) {
    if (!handler) continue;
    add({
      kind: "resource",
      name: node.uri,
      ref: handler,
      ...reading,
      params: ["_uri: string"],
      returns: "ResourceReadResult",
      body: "throw notImplementedError",
    });
  }
  for (const { node, handler } of model.templates) {
    if (!handler) continue;
    add({
      kind: "resource template",
      name: node.uriTemplate,
      ref: handler,
      ...reading,
      params: ["_uri: string", "_variables: Record<string, string>"],
      returns: "ResourceReadResult",
      // The code for "resource not found" changed in 2026-07-28; ctx.notFound answers each client right.
      note: '  // Nothing there? `throw _ctx.notFound(_uri)` answers "resource not found" in the client\'s revision.\n',
      body: "throw notImplementedError",
    });
  }
  for (const { node, handler, argsType } of model.prompts) {
    if (!handler) continue;
    add({
      kind: "prompt",
      name: node.name,
      ref: handler,
      runtime: ["notImplementedError", "type GetPromptResult"],
      types: [argsType],
      params: [`_args: ${argsType}`],
      returns: "GetPromptResult",
      body: "throw notImplementedError",
    });
  }
  return scaffolds;
}
