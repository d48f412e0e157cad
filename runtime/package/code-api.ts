// STAND-IN: replaced by branch code-sandbox/code-api
// The smallest loadCodeApi/declarationsFor so code mode's search_docs answers on this branch: the real
// ones (branch code-api) read src/code-api.json with typed declarations pruned to the types they use.
import { readFileSync } from "node:fs";
import type { CodeApiFile } from "./code-api-types.ts";

/** src/code-api.json, or undefined when the package has none (or it cannot be read). */
export function loadCodeApi(file: URL): CodeApiFile | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as CodeApiFile;
  } catch {
    return undefined;
  }
}

/** The declarations of these tools inside `declare const api: { ... }`, with the types they reference. */
export function declarationsFor(api: CodeApiFile, names: readonly string[]): string {
  const tools = names.flatMap((name) => (Object.hasOwn(api.tools, name) ? [api.tools[name].declaration] : []));
  return `declare const api: {\n${tools.map((t) => `  ${t.replaceAll("\n", "\n  ")}`).join("\n")}\n};`;
}
