/**
 * What tools/list serves of a tool, where it differs from the IR: schemas compacted (compact-schema.ts),
 * a large outputSchema loosened (loosen-output.ts), and the description without what the model reads
 * twice: a first paragraph that only repeats the title, and Markdown link targets (the link text stays).
 * `annotations.title` goes when it repeats the tool's title, and a hint when it has MCP's default value
 * (`openWorldHint: true`, `readOnlyHint: false`, `destructiveHint: true`, `idempotentHint: false`). Types, validators and docs keep the IR's.
 */

import { DEFAULT_TOOL_HINTS } from "../../runtime/features/dynamic/dynamic-tools.ts";
import { setOwn } from "../../runtime/protocol/codec.ts";
import type { JsonSchema, ToolAnnotations, ToolNode } from "../ir.ts";
import { type CompactOptions, compactSchema, cutText, withoutLinkTargets } from "./compact-schema.ts";
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
  let inputSchema = compactSchema(node.inputSchema, options);
  // A very large input schema (GitHub's rulesets: 20 kinds of rule) pays most for its descriptions.
  if (JSON.stringify(inputSchema).length > LARGE_INPUT_SCHEMA)
    inputSchema = compactSchema(node.inputSchema, { descriptionLength: Math.min(options.descriptionLength, 60) });
  const listed: ListedTool = { inputSchema };
  if (node.outputSchema) listed.outputSchema = servedOutputSchema(node.outputSchema, options);
  if (node.description !== undefined) listed.description = listedDescription(node.description, node.title);
  const annotations = node.annotations && listedAnnotations(node.annotations, node.title);
  if (annotations && Object.keys(annotations).length > 0) listed.annotations = annotations;
  return listed;
}

/** Input schemas longer than this (characters of JSON, ~2,000 tokens) get descriptions cut at 60 characters. */
export const LARGE_INPUT_SCHEMA = 8000;

const DEFAULT_HINTS: Partial<Record<keyof ToolAnnotations, boolean>> = DEFAULT_TOOL_HINTS;

function listedAnnotations(annotations: ToolAnnotations, title: string | undefined): ToolAnnotations {
  const out: ToolAnnotations = {};
  for (const [key, value] of Object.entries(annotations) as Array<[keyof ToolAnnotations, unknown]>) {
    if (key === "title" ? value === title : DEFAULT_HINTS[key] === value) continue;
    setOwn(out as Record<string, unknown>, key, value);
  }
  return out;
}

/**
 * A tool's description as tools/list serves it: at most LISTED_DESCRIPTION characters, cut at a word.
 * The opening paragraphs say what the tool does; what follows in large APIs is mostly permissions and
 * caveats that every agent session would pay for on every tool. The whole text stays in the package
 * README and the generated types' doc comments.
 */
export const LISTED_DESCRIPTION = 300;

function listedDescription(description: string, title: string | undefined): string {
  // GitHub-style alert markers (`> [!NOTE]`) and quote prefixes carry no meaning for a model.
  let text = withoutLinkTargets(description)
    .replace(/^>\s*\[!\w+\]\s*$\n?/gm, "")
    .replace(/^>\s?/gm, "");
  if (title !== undefined && text.startsWith(`${title}\n\n`)) text = text.slice(title.length).trimStart();
  return cutText(text, LISTED_DESCRIPTION);
}
