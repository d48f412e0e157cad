/**
 * The evaluation query sets for dynamic mode's tool search (bench/search/queries-*.yaml): a YAML list of
 * `{ query, expect: [tool names; any one is a hit], note? }`. Loading checks the shape and returns
 * problems as text instead of throwing, so a checker can report them all at once.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";

export type SearchQuery = { query: string; expect: string[]; note?: string };

export type LoadedQuerySet = { queries: SearchQuery[]; problems: string[] };

export function loadQuerySet(file: string): LoadedQuerySet {
  const problems: string[] = [];
  let document: unknown;
  try {
    document = parse(readFileSync(file, "utf8"));
  } catch (error) {
    return { queries: [], problems: [`${file}: not readable YAML: ${(error as Error).message}`] };
  }
  if (!Array.isArray(document)) return { queries: [], problems: [`${file}: the top level must be a YAML list`] };
  const queries: SearchQuery[] = [];
  document.forEach((entry: unknown, index) => {
    const where = `${file}: entry ${index + 1}`;
    const problem = shapeProblem(entry);
    if (problem) problems.push(`${where}: ${problem}`);
    else queries.push(entry as SearchQuery);
  });
  return { queries, problems };
}

function shapeProblem(entry: unknown): string | undefined {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return "must be a mapping";
  const { query, expect, note, ...rest } = entry as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) return `unknown key(s) ${extra.join(", ")} (allowed: query, expect, note)`;
  if (typeof query !== "string" || query.trim() === "") return "`query` must be a non-empty string";
  if (!Array.isArray(expect) || expect.length === 0) return "`expect` must be a non-empty list of tool names";
  if (!expect.every((name) => typeof name === "string" && name !== "")) return "`expect` holds a non-string name";
  if (note !== undefined && typeof note !== "string") return "`note` must be a string";
  return undefined;
}
