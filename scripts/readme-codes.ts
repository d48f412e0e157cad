/**
 * The README's table of diagnostic codes, made from the catalog so the two never disagree.
 * `npm run docs` rewrites the table in place; test/readme.test.ts fails when it is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { catalog } from "../generator/diagnostics/catalog.ts";

export const README_PATH = new URL("../README.md", import.meta.url);
const START = "<!-- diagnostic-codes:start -->";
const END = "<!-- diagnostic-codes:end -->";

const cell = (text: string) => text.replaceAll("|", "\\|");

export function codesTable(): string {
  const rows = Object.entries(catalog).map(
    ([code, entry]) =>
      `| \`${code}\` | ${entry.severity}${"usage" in entry ? " (exit 2)" : ""} | ${cell(entry.title)} | ${cell(entry.fix)} |`,
  );
  return ["| code | severity | what | how to fix |", "| --- | --- | --- | --- |", ...rows].join("\n");
}

/** The README with its code table replaced by the catalog's current one. */
export function readmeWithCodes(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the ${START} ... ${END} markers`);
  return `${readme.slice(0, start + START.length)}\n${codesTable()}\n${readme.slice(end)}`;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop()!)) {
  const readme = readFileSync(README_PATH, "utf8");
  writeFileSync(README_PATH, readmeWithCodes(readme));
}
