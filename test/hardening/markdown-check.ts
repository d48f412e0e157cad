/**
 * What a generated README must look like whatever the spec said (SECURITY.md: generated Markdown
 * escapes HTML, tables, headings, links): every table row has its header's column count; parsed as
 * GFM, it holds no HTML but its first-line comment, no link or image but to http, https, mailto or a
 * relative URL, no definition (global to the document), and the template's tables and title hold plain
 * text and code only. The spec's own Markdown (descriptions rendered as Markdown, issue 33 item 6) may
 * format, list and link; that is all it may do. Shared by the hostile-spec test
 * (markdown-escaping.test.ts) and the spec fuzzer.
 */
import type { Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";

/** Every problem found in a README; empty when it keeps its structure. */
export function readmeProblems(readme: string): string[] {
  const problems: string[] = [];
  const lines = readme.split("\n");
  if (!/^<!-- (?:(?!--).)* -->$/.test(lines[0])) problems.push(`line 1 is not one closed comment: ${lines[0]}`);
  // Tables: every row has as many cells as its header (a pipe inside code counts too: GFM splits there).
  for (let i = 1; i < lines.length; i++) {
    if (!/^\| ---( \| ---)* \|$/.test(lines[i])) continue;
    const width = cells(lines[i - 1]).length;
    for (let j = i + 1; j < lines.length && lines[j].startsWith("|"); j++) {
      if (cells(lines[j]).length !== width) problems.push(`table row ${j + 1} has not ${width} cells: ${lines[j]}`);
    }
  }
  for (const line of outsideCode(readme, problems)) {
    if (/&(?!amp;|lt;|gt;)[a-z]+;/.test(line)) problems.push(`an HTML entity outside code: ${line}`);
  }
  source = readme;
  const tree = fromMarkdown(readme, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const [comment, ...rest] = tree.children;
  if (comment?.type !== "html") problems.push("the README does not start with its comment");
  for (const node of rest) visit(node, problems);
  const titles = tree.children.filter((node) => node.type === "heading" && node.depth === 1);
  if (titles.length !== 1) problems.push(`${titles.length} level-1 headings, not the title alone`);
  for (const title of titles) plainOnly(title, "the title", problems);
  return problems;
}

/** The README being checked, for plainOnly to tell an autolink literal from a written link. */
let source = "";

/** The template's tables, by their first header cell: their cells hold one line of text and code. */
const TEMPLATE_TABLES = new Set([
  "variable",
  "Tool",
  "toolset",
  "parameter",
  "URI",
  "URI template",
  "argument",
  "where",
]);

function visit(node: Nodes, problems: string[]) {
  const at = node.position ? `line ${node.position.start.line}` : "?";
  if (node.type === "html") problems.push(`raw HTML at ${at}: ${node.value}`);
  if ((node.type === "link" || node.type === "image") && !/^(https?:|mailto:|[^:/?#]*([/?#]|$))/i.test(node.url))
    problems.push(`a ${node.type} to ${node.url} at ${at}`);
  if (node.type === "definition" || node.type === "footnoteDefinition") problems.push(`a definition at ${at}`);
  if (node.type === "table") {
    const head = node.children[0]?.children[0];
    const first = head?.children.map((child) => ("value" in child ? child.value : "")).join("");
    if (first && TEMPLATE_TABLES.has(first))
      for (const row of node.children) plainOnly(row, `the table at ${at}`, problems);
  }
  if ("children" in node) for (const child of node.children) visit(child as Nodes, problems);
}

/** Text and code only (no emphasis, link, image or HTML): a place that holds spec text on one line. A
 * URL in the text is a link in GFM (an autolink literal, no `[` or `<` in the source); visit checked it. */
function plainOnly(node: Nodes, where: string, problems: string[]) {
  const literal = node.type === "link" && !/^[[<]/.test(source.slice(node.position?.start.offset));
  if (!literal && !["text", "inlineCode", "heading", "tableRow", "tableCell"].includes(node.type))
    problems.push(`${node.type} in ${where}`);
  if ("children" in node) for (const child of node.children) plainOnly(child as Nodes, where, problems);
}

/** The heading lines outside code, with code spans shown as CODE. */
export function readmeHeadings(readme: string): string[] {
  return outsideCode(readme, []).filter((line) => /^\s{0,3}#/.test(line));
}

/** Cells of a GFM table row: split on pipes that no backslash escapes (a row reads backslashes in pairs,
 * so `\\|` is an escaped backslash, then a divider). */
const cells = (row: string) =>
  row
    .trim()
    .replace(/^\|/, "")
    .replace(/(?<=(?:^|[^\\])(?:\\\\)*)\|$/, "")
    .split(/(?<=(?:^|[^\\])(?:\\\\)*)\|/);

/** The README with fenced blocks, code spans and the do-not-edit comment taken out: what renders as Markdown. */
function outsideCode(readme: string, problems: string[]): string[] {
  const lines = readme.split("\n").slice(1); // line 1: the <!-- generated by --> comment
  const kept: string[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const opener = /^(`{3,})/.exec(line)?.[1];
    if (fence) {
      if (opener && opener.length >= fence.length && line.trim() === opener) fence = undefined;
      continue;
    }
    if (opener) {
      fence = opener;
      continue;
    }
    kept.push(withoutCodeSpans(line));
  }
  if (fence) problems.push("a fenced block is never closed");
  return kept;
}

/** A line with its inline code spans (CommonMark: a backtick run closed by a run of the same length) as CODE. */
function withoutCodeSpans(line: string): string {
  let out = "";
  let i = 0;
  while (i < line.length) {
    if (line[i] === "\\") {
      out += line.slice(i, i + 2);
      i += 2;
      continue;
    }
    const run = /^`+/.exec(line.slice(i))?.[0];
    if (!run) {
      out += line[i++];
      continue;
    }
    const close = new RegExp(`(?<!\`)${run}(?!\`)`, "g");
    close.lastIndex = i + run.length;
    const end = close.exec(line);
    if (!end) {
      out += run;
      i += run.length;
      continue;
    }
    out += "CODE";
    i = end.index + run.length;
  }
  return out;
}
