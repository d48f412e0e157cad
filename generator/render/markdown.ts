/** Spec text made safe for Markdown: it can format nothing, open no HTML, break no table or code block. */
import { escapeInvisible } from "./ts.ts";

// biome-ignore lint/suspicious/noControlCharactersInRegex: control and bidi characters are what is made visible
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g;
export const visible = (text: string) =>
  text.replace(INVISIBLE, (c) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`);

/**
 * Plain text for a paragraph, a heading or a table cell: one line, HTML and Markdown punctuation
 * escaped, and no line start that opens a block (a list item `- x` or `1. x`, a rule `---`, a setext
 * underline `===`). Every spec string in the README goes through this, mdCode or mdBlock.
 */
export function mdText(text: string | undefined): string {
  if (!text) return "";
  return visible(text)
    .replace(/[\r\n\u2028\u2029]+/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/([\\`*_{}[\]()#+!|~$])/g, "\\$1")
    .trim()
    .replace(/^([-=])/, "\\$1")
    .replace(/^(\d+)([.)])/, "$1\\$2");
}

/** An inline code span that holds any text: the fence is longer than any backtick run inside. */
export function mdCode(text: string): string {
  const flat = visible(text).replace(/[\r\n\u2028\u2029]+/g, " ");
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  // A | inside a code span still splits a table row in GFM, and a table row reads backslashes in pairs
  // before it looks for pipes: `\\|` is an escaped backslash and a cell divider, which let a name end
  // the code span and open a link. So the backslashes before a pipe are doubled, then the pipe escaped.
  const cell = flat.replace(/(\\*)\|/g, (_, slashes: string) => `${slashes}${slashes}\\|`);
  return `${fence}${pad}${cell}${pad}${fence}`;
}

/** A fenced code block (of JSON, TypeScript or shell) that no content can close early; invisible
 * characters become \\u escapes, which mean the same in those languages' strings. */
export function mdBlock(language: string, code: string): string {
  const body = escapeInvisible(code);
  const longest = Math.max(0, ...(body.match(/`{3,}/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${body}\n${fence}`;
}
