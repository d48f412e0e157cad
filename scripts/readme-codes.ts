/**
 * The README's tables made from the code, so the two never disagree: the diagnostic codes (from the
 * catalog) and the flags of a generated server (from runtime/package/server-flags.ts).
 * `npm run docs` rewrites them in place; test/readme.test.ts fails when one is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { catalog } from "../generator/diagnostics/catalog.ts";
import { flagTable } from "../generator/render/flag-docs.ts";

export const README_PATH = new URL("../README.md", import.meta.url);

const cell = (text: string) => text.replaceAll("|", "\\|");

export function codesTable(): string {
  const rows = Object.entries(catalog).map(
    ([code, entry]) =>
      `| \`${code}\` | ${entry.severity}${"usage" in entry ? " (exit 2)" : ""} | ${cell(entry.title)} | ${cell(entry.fix)} |`,
  );
  return ["| code | severity | what | how to fix |", "| --- | --- | --- | --- |", ...rows].join("\n");
}

/** The text between `<!-- name:start -->` and `<!-- name:end -->` replaced by `table`. */
function replaced(readme: string, name: string, table: string): string {
  const start = readme.indexOf(`<!-- ${name}:start -->`);
  const end = readme.indexOf(`<!-- ${name}:end -->`);
  if (start < 0 || end < start) throw new Error(`README.md lacks the <!-- ${name}:start/end --> markers`);
  return `${readme.slice(0, start + `<!-- ${name}:start -->`.length)}\n${table}\n${readme.slice(end)}`;
}

/** The README with its code and flag tables replaced by the current ones. */
export function readmeWithCodes(readme: string): string {
  return replaced(replaced(readme, "diagnostic-codes", codesTable()), "server-flags", flagTable());
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop()!)) {
  const readme = readFileSync(README_PATH, "utf8");
  writeFileSync(README_PATH, readmeWithCodes(readme));
}
