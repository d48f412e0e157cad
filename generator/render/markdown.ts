/** Spec text made safe for Markdown: it can format nothing, open no HTML, break no table or code block. */

/** Plain text for a paragraph or a table cell: one line, HTML and Markdown punctuation escaped. */
export function mdText(text: string | undefined): string {
  if (!text) return "";
  return text
    .replace(/[\r\n\u2028\u2029]+/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/([\\`*_{}[\]()#+!|~])/g, "\\$1")
    .trim();
}

/** An inline code span that holds any text: the fence is longer than any backtick run inside. */
export function mdCode(text: string): string {
  const flat = text.replace(/[\r\n\u2028\u2029]+/g, " ");
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  // A | inside a code span still splits a table row in GFM.
  return `${fence}${pad}${flat.replace(/\|/g, "\\|")}${pad}${fence}`;
}

/** A fenced code block that no content can close early. */
export function mdBlock(language: string, body: string): string {
  const longest = Math.max(0, ...(body.match(/`{3,}/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${body}\n${fence}`;
}
