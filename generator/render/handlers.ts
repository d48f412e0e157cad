/**
 * Scaffolds for user-owned handler files: written once, with the typed signature and a body that
 * answers "not implemented", and never overwritten afterwards.
 */
import type { HandlerRef, Model } from "../normalize.ts";
import { commentText, lit } from "./ts.ts";

export type Scaffold = { path: string; content: string; owner: string; formerPath?: string };

/** Relative prefix from a handler file to the package root (src/handlers/<kind>/x.ts: three levels). */
const depth = (ref: HandlerRef) => "../".repeat(ref.file.split("/").length - 1);
/** The same, to src/ (where types.ts lives). */
const toSrc = (ref: HandlerRef) => "../".repeat(ref.file.split("/").length - 2);
const intro = (kind: string, name: string) =>
  `// Handler for the ${commentText(kind)} ${commentText(JSON.stringify(name)).replace(/\n/g, " ")}.\n` +
  "// Written once by mcpgen and yours from now on: regenerating never overwrites this file.\n";

export function renderScaffolds(model: Model): Scaffold[] {
  const scaffolds: Scaffold[] = [];
  for (const tool of model.tools) {
    const ref = tool.handler;
    if (!ref) continue;
    const up = depth(ref);
    const output = tool.outputType ?? "{ [key: string]: unknown }";
    const types = [tool.inputType, tool.outputType].filter(Boolean).join(", ");
    scaffolds.push({
      path: ref.file,
      owner: `tool ${tool.node.name}`,
      ...(ref.formerFile ? { formerPath: ref.formerFile } : {}),
      content: `${intro("tool", tool.node.name)}import type { HandlerContext } from "${up}runtime/index.ts";
import { notImplemented, type ToolResult } from "${up}runtime/spec-server.ts";
import type { ${types} } from "${toSrc(ref)}types.ts";

export default async function ${ref.importName}(args: ${tool.inputType}, ctx: HandlerContext): Promise<ToolResult<${output}>> {
  return notImplemented("tool", ${lit(tool.node.name)}, ${lit(ref.file)});
}
`,
    });
  }
  const throwing = (ref: HandlerRef, kind: string, name: string, signature: string, returns: string, note = "") => ({
    path: ref.file,
    owner: `${kind} ${name}`,
    content: `${intro(kind, name)}import type { HandlerContext } from "${depth(ref)}runtime/index.ts";
import { notImplementedError } from "${depth(ref)}runtime/spec-server.ts";
import type { ${returns} } from "${depth(ref)}runtime/server-types.ts";

export default async function ${ref.importName}(${signature}, ctx: HandlerContext): Promise<${returns}> {
${note}  throw notImplementedError(${lit(kind)}, ${lit(name)}, ${lit(ref.file)});
}
`,
  });
  for (const { node, handler } of model.resources) {
    if (handler) scaffolds.push(throwing(handler, "resource", node.uri, "uri: string", "ResourceReadResult"));
  }
  for (const { node, handler } of model.templates) {
    if (handler)
      scaffolds.push(
        throwing(
          handler,
          "resource template",
          node.uriTemplate,
          "uri: string, variables: Record<string, string>",
          "ResourceReadResult",
          // The code for "resource not found" changed in 2026-07-28; ctx.notFound answers each client right.
          '  // Nothing at `uri`? `throw ctx.notFound(uri)`: the "resource not found" of the client\'s protocol revision.\n',
        ),
      );
  }
  for (const { node, handler, argsType } of model.prompts) {
    if (!handler) continue;
    const up = depth(handler);
    scaffolds.push({
      path: handler.file,
      owner: `prompt ${node.name}`,
      content: `${intro("prompt", node.name)}import type { HandlerContext } from "${up}runtime/index.ts";
import { notImplementedError } from "${up}runtime/spec-server.ts";
import type { GetPromptResult } from "${up}runtime/types.ts";
import type { ${argsType} } from "${toSrc(handler)}types.ts";

export default async function ${handler.importName}(args: ${argsType}, ctx: HandlerContext): Promise<GetPromptResult> {
  throw notImplementedError("prompt", ${lit(node.name)}, ${lit(handler.file)});
}
`,
    });
  }
  return scaffolds;
}
