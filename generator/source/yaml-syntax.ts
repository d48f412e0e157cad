/**
 * YAML syntax errors as a user needs them. One mistake (`path: /orders/{orderId}` inside a flow
 * mapping) throws the parser off for the rest of the file: `yaml` reports dozens of errors, all but
 * the first of them echoes. So each top-level region (a line at column 0 and the indented lines under
 * it) reports its first error only, and a later region reports one only if it is broken on its own
 * (parsed alone), which tells a second real mistake from the first one's cascade. The commonest cause,
 * a flow indicator inside an unquoted value in `{ ... }` or `[ ... ]`, is named, with the quoted fix.
 */
import { parseAllDocuments, type YAMLError } from "yaml";

export type SyntaxProblem = { offset: number; message: string; hint?: string };

const PARSE_OPTIONS = { uniqueKeys: false, prettyErrors: false, strict: true } as const;

/** The problems to report for a document's syntax errors (duplicate keys are the caller's). */
export function syntaxProblems(text: string, errors: YAMLError[], describe: (message: string) => string) {
  const sorted = [...errors].sort((a, b) => a.pos[0] - b.pos[0]);
  if (sorted.length === 0) return [];
  const starts = regionStarts(text);
  const regionOf = (offset: number) => {
    let region = 0;
    while (region + 1 < starts.length && starts[region + 1] <= offset) region++;
    return region;
  };
  const first = sorted[0];
  const problems: SyntaxProblem[] = [explain(text, first.pos[0], describe(first.message))];
  for (let region = regionOf(first.pos[0]) + 1; region < starts.length; region++) {
    const start = starts[region];
    const own = firstErrorAlone(text.slice(start, starts[region + 1] ?? text.length));
    if (own) problems.push(explain(text, start + own.pos[0], describe(own.message)));
  }
  return problems;
}

/** Offsets of the lines that open a top-level region: a key or item at column 0 (not a comment, a flow
 * bracket or comma, or a document marker). The text's start always opens the first one. */
function regionStarts(text: string): number[] {
  const starts = [0];
  const line = /\n(?=[^\s#{}[\],])/g;
  for (let match = line.exec(text); match; match = line.exec(text)) {
    const at = match.index + 1;
    if (!/^(---|\.\.\.)(\s|$)/.test(text.slice(at, at + 4))) starts.push(at);
  }
  return starts;
}

function firstErrorAlone(region: string): YAMLError | undefined {
  const docs = parseAllDocuments(region, PARSE_OPTIONS);
  const errors = Array.isArray(docs) ? docs.flatMap((doc) => doc.errors) : [];
  return errors.filter((e) => e.code !== "DUPLICATE_KEY").sort((a, b) => a.pos[0] - b.pos[0])[0];
}

function explain(text: string, offset: number, message: string): SyntaxProblem {
  return flowIndicatorProblem(text, offset) ?? { offset, message };
}

const OPENERS: Record<string, string> = { "{": "}", "[": "]" };

/**
 * When the error's line holds, inside `{ ... }` or `[ ... ]`, an unquoted value cut short by a flow
 * indicator (`path: /orders/{orderId}`: the value ends at `{`), the problem names it, at the value,
 * with the whole value quoted as the fix.
 */
function flowIndicatorProblem(text: string, offset: number): SyntaxProblem | undefined {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const lineEnd = text.indexOf("\n", lineStart);
  const line = text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd).replace(/\r$/, "");
  const open: string[] = [];
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
      continue;
    }
    if (c === "#" && (i === 0 || /\s/.test(line[i - 1]))) return undefined; // a comment: nothing after counts
    if (c === '"' || c === "'") quote = c;
    else if (c === "}" || c === "]") open.pop();
    else {
      if (Object.hasOwn(OPENERS, c)) open.push(OPENERS[c]);
      // A value starts after `key: ` in a flow mapping or sequence, and after `[` or `,` in a sequence.
      const mapValue = c === ":" && /\s/.test(line[i + 1] ?? " ");
      const item = (c === "[" || c === ",") && open.at(-1) === "]";
      const found = open.length > 0 && (mapValue || item) ? cutValue(line, i + 1, open.at(-1)!) : undefined;
      if (found) return flowProblem(line, lineStart, mapValue ? i : undefined, found);
    }
  }
  return undefined;
}

type CutValue = { start: number; indicator: string; intended: string };

/** The plain value after `key:` at `from`, when a flow indicator cuts it short; undefined otherwise. */
function cutValue(line: string, from: number, closer: string): CutValue | undefined {
  let start = from;
  while (line[start] === " " || line[start] === "\t") start++;
  if (/^["'{[]|^$/.test(line[start] ?? "")) return undefined;
  let end = start;
  while (end < line.length && !/[,{}[\]]/.test(line[end])) end++;
  const indicator = line[end];
  const cut =
    indicator !== undefined && (Object.hasOwn(OPENERS, indicator) || (indicator !== "," && indicator !== closer));
  if (!cut || line.slice(start, end).trim() === "") return undefined;
  // The value the author meant: up to the `,` or closing bracket of the enclosing collection.
  const inner: string[] = [];
  let stop = start;
  for (; stop < line.length; stop++) {
    const c = line[stop];
    if (Object.hasOwn(OPENERS, c)) inner.push(OPENERS[c]);
    else if (inner.length > 0 && c === inner.at(-1)) inner.pop();
    else if (inner.length > 0 && (c === "}" || c === "]")) break;
    else if (inner.length === 0 && (c === "," || c === closer)) break;
  }
  return { start, indicator, intended: line.slice(start, stop).trimEnd() };
}

function flowProblem(line: string, lineStart: number, colon: number | undefined, value: CutValue): SyntaxProblem {
  const key =
    colon === undefined
      ? undefined
      : line
          .slice(0, colon)
          .replace(/^.*[{[,]\s*/, "")
          .trim();
  const what = key === undefined ? "an unquoted list item" : `the unquoted value of '${key}'`;
  const quoted = JSON.stringify(value.intended);
  return {
    offset: lineStart + value.start,
    message: `${what} holds '${value.indicator}', a flow indicator: inside { ... } or [ ... ] an unquoted value ends at any of ${FLOW_INDICATORS}`,
    hint: key === undefined ? `quote the item: ${quoted}` : `quote the value: ${key}: ${quoted}`,
  };
}

const FLOW_INDICATORS = "{ } [ ] ,";
