/**
 * What tools/list serves of a tool, where it differs from the IR: schemas compacted (compact-schema.ts),
 * a large outputSchema loosened (loosen-output.ts), and the description without what the model reads
 * twice: a first paragraph that only repeats the title, and Markdown link targets (the link text stays).
 * `annotations.title` goes when it repeats the tool's title. Types, validators and docs keep the IR's.
 */
import type { JsonSchema, ToolAnnotations, ToolNode } from "../ir.ts";
import { type CompactOptions, compactSchema, withoutLinkTargets } from "./compact-schema.ts";
import { servedOutputSchema } from "./loosen-output.ts";

export type ListedTool = {
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  description?: string;
  annotations?: ToolAnnotations;
};

export function listedTool(
  node: Pick<ToolNode, "title" | "description" | "annotations" | "inputSchema" | "outputSchema">,
  options: CompactOptions,
): ListedTool {
  const listed: ListedTool = { inputSchema: compactSchema(node.inputSchema, options) };
  if (node.outputSchema) listed.outputSchema = servedOutputSchema(node.outputSchema, options);
  if (node.description !== undefined) listed.description = listedDescription(node.description, node.title);
  if (node.annotations) {
    const { title, ...rest } = node.annotations;
    listed.annotations = title === undefined || title === node.title ? rest : node.annotations;
  }
  return listed;
}

function listedDescription(description: string, title: string | undefined): string {
  const text = withoutLinkTargets(description);
  if (title === undefined || !text.startsWith(`${title}\n\n`)) return text;
  return text.slice(title.length).trimStart();
}
