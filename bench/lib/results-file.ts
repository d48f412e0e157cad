// bench/RESULTS.md is assembled from sections between HTML comment markers.
// A run replaces only the sections it measured, so `npm run bench -- runtime`
// refreshes the runtime tables and keeps everything else (including the
// hand-written notes on profiles and fixes, which live outside the markers).
import { existsSync, readFileSync, writeFileSync } from "node:fs";

export type Table = { headers: string[]; rows: string[][] };
export type Section = { id: string; title: string; intro: string[]; tables: Table[]; notes: string[] };

export function renderTable(table: Table): string {
  const line = (cells: string[]) => `| ${cells.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`;
  return [line(table.headers), line(table.headers.map(() => "---")), ...table.rows.map(line)].join("\n");
}

export function renderSection(section: Section): string {
  const parts = [`## ${section.title}`, ...section.intro];
  for (const table of section.tables) parts.push(renderTable(table));
  if (section.notes.length > 0) parts.push(section.notes.map((note) => `- ${note}`).join("\n"));
  return parts.join("\n\n");
}

const HEADER = `# mcpgen benchmarks

Written by \`npm run bench\` (see bench/README.md); a subset run (\`npm run bench -- runtime\`) replaces only its own
sections. Figures are medians over the rounds with the min–max spread as ±% of the median; ratios are
ours ÷ peer in the unit of the row (time: lower is better, calls/s: higher is better).
`;

export function writeSections(file: string, sections: Section[]): void {
  let text = existsSync(file) ? readFileSync(file, "utf8") : HEADER;
  for (const section of sections) {
    const start = `<!-- section:${section.id} -->`;
    const end = `<!-- /section:${section.id} -->`;
    const block = `${start}\n${renderSection(section)}\n${end}`;
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from >= 0 && to > from) text = text.slice(0, from) + block + text.slice(to + end.length);
    else text = insertBeforeNotes(text, block);
  }
  writeFileSync(file, text.endsWith("\n") ? text : `${text}\n`);
}

/** New sections go before the hand-written notes (marked by NOTES_MARKER) so generated tables come first. */
const NOTES_MARKER = "<!-- notes -->";
function insertBeforeNotes(text: string, block: string): string {
  const at = text.indexOf(NOTES_MARKER);
  if (at < 0) return `${text.trimEnd()}\n\n${block}\n`;
  return `${text.slice(0, at)}${block}\n\n${text.slice(at)}`;
}
