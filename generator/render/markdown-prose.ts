/**
 * A spec's own Markdown (an OpenAPI document's descriptions are CommonMark) rendered as Markdown in the
 * README, safely (issue 33 item 6): parsed with mdast rather than patched with regexes, the tree made
 * harmless, then serialized. Raw HTML becomes text, links and images keep only http, https, mailto or
 * relative URLs, headings sit below the section they appear in, and nothing the spec writes stays open
 * past its own block. One-line contexts (table cells) get mdSummary: the first sentence as plain text.
 */
import type { Nodes, Parent, PhrasingContent, Root, RootContent, Table, Text } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown, gfmToMarkdown } from "mdast-util-gfm";
import { type Options, toMarkdown } from "mdast-util-to-markdown";
import { gfm } from "micromark-extension-gfm";
import { remember } from "../output/answer-memo.ts";
import { mdText, visible } from "./markdown.ts";

/** Markdown in, Markdown out: `headingDepth` is the shallowest heading the context allows (2 under the
 * README's title, 4 under a tool's `###`). Empty for no text. */
export function mdProse(text: string | undefined, headingDepth: number): string {
  if (!text?.trim()) return "";
  return (
    plainProse(text) ?? remember("prose", `markdown${headingDepth}`, text, () => mdProseParsed(text, headingDepth))
  );
}

/** mdProse through the parser, whatever the text; exported so a test can hold the fast path to it. */
export function mdProseParsed(text: string, headingDepth: number): string {
  const tree = parse(text);
  const definitions = new Map<string, { url: string; title?: string | null }>();
  visit(tree, (node) => {
    if (node.type === "definition") definitions.set(node.identifier, node);
  });
  const shallowest = Math.min(7, ...collect(tree, "heading").map((h) => h.depth));
  const shift = Math.max(0, headingDepth - shallowest);
  tree.children = defuse(tree, definitions, shift) as RootContent[];
  const out = toMarkdown(tree, TO_MARKDOWN).trimEnd();
  // The serializer is built to round-trip; this re-parse is the proof, per description, that the output
  // holds no HTML or unsafe link, no heading above its context, and ends every block it opens. A text
  // that fails it is shown flattened, as every spec string was before.
  return safe(out, headingDepth) ? out : mdText(text);
}

/** Whether the text has headings of its own: a document, not a paragraph (the API's description, say). */
export function hasHeadings(text: string | undefined): boolean {
  if (!text?.trim() || plainProse(text) !== undefined) return false;
  return remember("prose", "headings", text, () => (collect(parse(text), "heading").length > 0 ? "yes" : "")) === "yes";
}

/** The first sentence as plain text, escaped for a table cell (mdText): no formatting, one line. */
export function mdSummary(text: string | undefined): string {
  if (!text?.trim()) return "";
  const prose = plainProse(text);
  if (prose !== undefined) return mdText(firstSentence(prose.split("\n\n")[0].replace(/\n/g, " ")));
  return remember("prose", "summary", text, () => parsedSummary(text));
}

function parsedSummary(text: string): string {
  const tree = parse(text);
  const block =
    tree.children.find((node) => node.type === "paragraph") ?? tree.children.find((node) => node.type === "heading");
  const plain = plainText(block ?? tree)
    .replace(/\s+/g, " ")
    .trim();
  return mdText(firstSentence(plain));
}

/**
 * Most descriptions are words and plain punctuation, which Markdown reads as paragraphs: their lines
 * as they are, one blank line between paragraphs. Parsing costs about a millisecond a kilobyte, twice
 * (the re-parse in mdProseParsed), which an API of thousands of operations feels. Undefined when a
 * character or a line start could mean anything else (a list, a heading, a link, an indented block, a
 * hard break); a property test holds this to mdProseParsed.
 */
function plainProse(text: string): string | undefined {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  if (!lines.every((line) => PLAIN_LINE.test(line)) || /www\./i.test(text)) return undefined;
  return lines
    .join("\n")
    .replace(/\n{2,}/g, "\n\n")
    .trim();
}

/** Empty, or words and `,.;'"?()%/-` with no space at either end and no block-opening first character. */
const PLAIN_LINE = /^(?:(?![\d+=-])[\p{L}\p{N},.;'"?()%/-](?:[\p{L}\p{N} ,.;'"?()%/-]*[\p{L}\p{N},.;'"?()%/-])?)?$/u;

/**
 * Up to the first `.`, `!` or `?` that ends a sentence: followed by a space and no lowercase letter,
 * and not closing an abbreviation (`e.g. Paris`, `i.e.`, `etc.`, `Mr.`, a single letter). Intl.Segmenter
 * splits `e.g. Paris`, which API descriptions write all the time.
 */
export function firstSentence(text: string): string {
  for (const end of text.matchAll(/[.!?]+(?=\s+[^\s\p{Ll}])/gu)) {
    const word = /\S*$/.exec(text.slice(0, end.index))?.[0] ?? "";
    const bare = word.replace(/^[("'[]+/, "").toLowerCase();
    if (end[0] === "." && (bare.includes(".") || bare.length === 1 || ABBREVIATIONS.has(bare))) continue;
    return text.slice(0, end.index + end[0].length);
  }
  return text;
}

const ABBREVIATIONS = new Set([
  "approx",
  "cf",
  "dr",
  "eg",
  "etc",
  "ie",
  "inc",
  "jr",
  "ltd",
  "mr",
  "mrs",
  "ms",
  "no",
  "st",
  "vs",
]);

// Built once: making the GFM extensions per call costs more than parsing a description.
const FROM_MARKDOWN = { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] };
const TO_MARKDOWN: Options = {
  extensions: [gfmToMarkdown()],
  bullet: "-",
  rule: "-",
  fences: true,
  listItemIndent: "one",
};

function parse(text: string): Root {
  // Invisible and bidi characters are shown as U+XXXX, as in mdText; line separators are line ends.
  const normalized = visible(text.replace(/\r\n?|[\u2028\u2029]/g, "\n"));
  return fromMarkdown(normalized, FROM_MARKDOWN);
}

/** Children made harmless: HTML as text, unsafe links as their text, references resolved (a definition
 * is global to the README, so one description's must not reach another's), headings shifted. */
function defuse(parent: Parent, definitions: Map<string, { url: string; title?: string | null }>, shift: number) {
  const flow = FLOW.has(parent.type);
  const out: Nodes[] = [];
  for (const node of parent.children as Nodes[]) {
    switch (node.type) {
      case "html": {
        const text: Text = { type: "text", value: node.value };
        out.push(flow ? { type: "paragraph", children: [text] } : text);
        continue;
      }
      case "definition":
        continue;
      case "linkReference":
      case "link": {
        const target = node.type === "link" ? node : definitions.get(node.identifier);
        const children = defuse(node, definitions, shift) as PhrasingContent[];
        if (target && safeUrl(target.url)) out.push({ type: "link", url: target.url, title: target.title, children });
        else out.push(...children);
        continue;
      }
      case "imageReference":
      case "image": {
        const target = node.type === "image" ? node : definitions.get(node.identifier);
        if (target && safeUrl(target.url))
          out.push({ type: "image", url: target.url, title: target.title, alt: node.alt });
        else if (node.alt) out.push({ type: "text", value: node.alt });
        continue;
      }
      case "footnoteReference":
        out.push({ type: "text", value: `[${node.label ?? node.identifier}]` });
        continue;
      case "footnoteDefinition": {
        const children = defuse(node, definitions, shift) as RootContent[];
        const first = children[0];
        if (first?.type === "paragraph")
          first.children.unshift({ type: "text", value: `[${node.label ?? node.identifier}]: ` });
        out.push(...children);
        continue;
      }
      case "heading":
        node.depth = Math.min(6, node.depth + shift) as typeof node.depth;
        break;
      case "table":
        evenRows(node);
        break;
    }
    if ("children" in node) node.children = defuse(node, definitions, shift) as typeof node.children;
    out.push(node);
  }
  return out;
}

/** Nodes whose children are blocks: HTML there becomes a paragraph, not bare text. */
const FLOW = new Set(["root", "blockquote", "listItem", "footnoteDefinition"]);

/** Nodes whose children read as separate words in plain text. */
const BLOCKS = new Set([...FLOW, "list", "table", "tableRow"]);

/** Every row as wide as the header: GFM drops extra cells and pads missing ones, so this renders the same
 * and keeps the README's rows regular. */
function evenRows(table: Table) {
  const width = table.children[0]?.children.length ?? 0;
  for (const row of table.children) {
    row.children = row.children.slice(0, width);
    while (row.children.length < width) row.children.push({ type: "tableCell", children: [] });
  }
}

/** http, https and mailto, or no scheme at all (relative, fragment, protocol-relative). */
export function safeUrl(url: string): boolean {
  const scheme = /^([^:/?#]*):/.exec(url)?.[1];
  return scheme === undefined || /^(https?|mailto)$/i.test(scheme);
}

function safe(markdown: string, headingDepth: number): boolean {
  const tree = parse(`${markdown}\n\nEND-OF-BLOCK`);
  const last = tree.children.at(-1);
  if (last?.type !== "paragraph" || plainText(last) !== "END-OF-BLOCK") return false;
  let ok = true;
  visit(tree, (node) => {
    if (node.type === "html" || node.type === "definition" || node.type === "footnoteDefinition") ok = false;
    if ((node.type === "link" || node.type === "image") && !safeUrl(node.url)) ok = false;
    if (node.type === "heading" && node.depth < headingDepth) ok = false;
  });
  return ok;
}

function plainText(node: Nodes): string {
  if (node.type === "image") return node.alt ?? "";
  if (node.type === "break") return " ";
  if ("value" in node) return node.value;
  if (!("children" in node)) return "";
  return node.children.map((child) => plainText(child as Nodes)).join(BLOCKS.has(node.type) ? " " : "");
}

function visit(node: Nodes, fn: (node: Nodes) => void) {
  fn(node);
  if ("children" in node) for (const child of node.children) visit(child as Nodes, fn);
}

function collect<T extends Nodes["type"]>(tree: Root, type: T): Extract<Nodes, { type: T }>[] {
  const found: Nodes[] = [];
  visit(tree, (node) => {
    if (node.type === type) found.push(node);
  });
  return found as Extract<Nodes, { type: T }>[];
}
