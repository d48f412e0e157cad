/**
 * Checks a search query set against a generated package's catalog:
 *   npx tsx bench/search/check-queries.ts bench/search/queries-github.yaml /tmp/sq-github/src/catalog.json
 * Errors (exit 1): a malformed entry, an expected tool name the catalog does not have, a repeated query.
 * Review hints (no failure): queries whose words cover most of an expected tool's title or first
 * sentence, i.e. that may copy the summary instead of phrasing the need as a user would.
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { loadQuerySet } from "./query-set.ts";

export type CatalogEntry = { name: string; title?: string; description?: string };

export type QuerySetCheck = { queries: number; problems: string[]; hints: string[] };

const STOPWORDS = new Set(
  "a an the of for to in on at by with from and or is are be this that it its my me i your our all any as"
    .split(" ")
    .concat("into out up do does did have has can will which what who how get list".split(" ")),
);

function contentWords(text: string): Set<string> {
  const words = text
    .toLowerCase()
    .replace(/<[^>]*>/g, " ")
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1 && !STOPWORDS.has(word))
    .map((word) => word.replace(/(ies|es|s)$/, (ending) => (ending === "ies" ? "y" : "")));
  return new Set(words);
}

/**
 * The texts a copying author would have started from: the title and the description's first sentence
 * (a generated description repeats the title as its first line; that line is skipped).
 */
function summariesOf(tool: CatalogEntry): string[] {
  let plain = (tool.description ?? "").replace(/<[^>]*>/g, " ").trim();
  if (tool.title && plain.startsWith(tool.title)) plain = plain.slice(tool.title.length).trim();
  const firstSentence = plain.split(/(?<=[.!?])\s/)[0] ?? "";
  return [tool.title ?? "", firstSentence].filter((text) => text !== "");
}

export function checkQuerySet(queryFile: string, catalogTools: readonly CatalogEntry[]): QuerySetCheck {
  const tools = new Map(catalogTools.map((tool) => [tool.name, tool]));
  const { queries, problems } = loadQuerySet(queryFile);
  const seen = new Set<string>();
  const hints: string[] = [];
  for (const { query, expect } of queries) {
    const key = query.trim().toLowerCase();
    if (seen.has(key)) problems.push(`repeated query: "${query}"`);
    seen.add(key);
    for (const name of expect) if (!tools.has(name)) problems.push(`"${query}": no tool named ${name}`);
    const asked = contentWords(query);
    for (const name of expect) {
      for (const text of summariesOf(tools.get(name) ?? { name })) {
        const summary = contentWords(text);
        const shared = [...summary].filter((word) => asked.has(word));
        if (summary.size >= 2 && shared.length / summary.size >= 0.75)
          hints.push(`"${query}" covers ${shared.length}/${summary.size} words of ${name}'s "${text.slice(0, 80)}"`);
      }
    }
  }
  return { queries: queries.length, problems, hints };
}

function main(queryFile: string | undefined, catalogFile: string | undefined): number {
  if (!queryFile || !catalogFile) {
    console.error("usage: npx tsx bench/search/check-queries.ts <queries.yaml> <generated>/src/catalog.json");
    return 2;
  }
  const catalog = JSON.parse(readFileSync(catalogFile, "utf8")) as { tools: CatalogEntry[] };
  const { queries, problems, hints } = checkQuerySet(queryFile, catalog.tools);
  for (const hint of hints) console.log(`review: ${hint}`);
  for (const problem of problems) console.error(`error: ${problem}`);
  console.log(`${queries} queries, ${problems.length} error(s), ${hints.length} review hint(s)`);
  return problems.length > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exitCode = main(process.argv[2], process.argv[3]);
