/**
 * The house style of generated TypeScript, which is the repository's biome.json: 2-space indent, lines of
 * at most 120 columns, double quotes unless the text holds more of them than single quotes, keys quoted
 * only where needed, imports sorted. Renderers build text that is already in this style (Biome's output
 * is Prettier's for what we emit), so `biome check` finds nothing and no formatter runs at generate time.
 */

import { escapeInvisible } from "./ts.ts";

export const LINE_WIDTH = 120;

/** True when every line of `text` fits the line width. */
export function fits(text: string): boolean {
  return text.split("\n").every((line) => textWidth(line) <= LINE_WIDTH);
}

// East Asian wide and fullwidth characters take two columns, combining marks none (as Biome measures);
// a character escapeInvisible (ts.ts) turns into `\uXXXX` afterwards takes six.
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
const ZERO = /[\p{Mn}\p{Me}\u200b-\u200d]/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is measured
const ESCAPED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Columns `text` takes on a line of the written file. */
export function textWidth(text: string): number {
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const c of text) width += ESCAPED.test(c) ? 6 : ZERO.test(c) ? 0 : WIDE.test(c) ? 2 : 1;
  return width;
}

/**
 * A string literal for `value` as Biome prints it: double quotes unless the text has more double than
 * single quotes, escapes as JSON.stringify makes them (control characters, backslash), the chosen quote
 * escaped and the other not; line separators and bidirectional controls escaped too (escapeInvisible), so
 * spec text stays visible as written even in files no later pass escapes (user-owned handler scaffolds).
 */
export function str(value: string): string {
  return escapeInvisible(requote(JSON.stringify(value)));
}

/** A JSON string token (`"..."`) re-quoted as Biome prints it (Prettier's makeString). */
export function requote(json: string): string {
  const raw = json.slice(1, -1);
  const doubles = (raw.match(/"/g) ?? []).length;
  const singles = (raw.match(/'/g) ?? []).length;
  const quote = doubles > singles ? "'" : '"';
  const body = raw.replace(/\\(.)|(["'])/gs, (match, escaped: string | undefined, bare: string | undefined) => {
    if (escaped === (quote === '"' ? "'" : '"')) return escaped;
    if (bare === quote) return `\\${bare}`;
    if (bare) return bare;
    return match;
  });
  return quote + body + quote;
}

// ES identifier names (what Biome leaves unquoted as a property key): Unicode ID_Start/ID_Continue.
const IDENTIFIER_NAME = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u;

/** A property key in a type or an object literal: bare when an identifier name, a string literal otherwise. */
export function propKey(name: string): string {
  return IDENTIFIER_NAME.test(name) ? name : str(name);
}

/** A key in an object literal that builds a value, as Biome prints it. `__proto__` takes the computed
 * form: there `"__proto__": x` would set the object's prototype instead of adding an own key. */
export function objectKey(name: string): string {
  return name === "__proto__" ? `[${str(name)}]` : propKey(name);
}

/** A number literal as Biome prints it (Prettier's printNumber): lower case, no `+` or padding zeros. */
export function printNumber(text: string): string {
  return text
    .toLowerCase()
    .replace(/^([+-]?[\d.]+e)(?:\+|(-))?0*(\d)/, "$1$2$3")
    .replace(/^([+-]?[\d.]+)e[+-]?0+$/, "$1")
    .replace(/^([+-])?\./, "$10.")
    .replace(/(\.\d+?)0+(?=e|$)/, "$1")
    .replace(/\.(?=e|$)/, "");
}

/**
 * Biome's order of import sources and named specifiers (organizeImports): `.` < `_` < `-` < digits <
 * letters, letters as A < a < B < b, runs of digits compared as numbers (shorter first). Measured against
 * Biome 2.5 for the characters handler file names can hold ([A-Za-z0-9_.-] and `/`).
 */
export function compareNatural(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const digitsA = /^\d+/.exec(a.slice(i))?.[0];
    const digitsB = /^\d+/.exec(b.slice(j))?.[0];
    if (digitsA && digitsB) {
      if (digitsA.length !== digitsB.length) return digitsA.length - digitsB.length;
      if (digitsA !== digitsB) return digitsA < digitsB ? -1 : 1;
      i += digitsA.length;
      j += digitsB.length;
      continue;
    }
    const diff = rank(a[i]) - rank(b[j]);
    if (diff !== 0) return diff;
    i++;
    j++;
  }
  return a.length - i - (b.length - j);
}

function rank(c: string): number {
  const punctuation = "/._-".indexOf(c);
  if (punctuation >= 0) return punctuation;
  if (c >= "0" && c <= "9") return 10;
  const lower = c.toLowerCase();
  if (lower >= "a" && lower <= "z") return 20 + (lower.charCodeAt(0) - 97) * 2 + (c === lower ? 1 : 0);
  return 100 + c.charCodeAt(0);
}

/** `import { a, type B } from "x";`, specifiers sorted, broken over lines when too long. */
export function importLine(specifiers: string[], source: string, typeOnly = false): string {
  const sorted = [...specifiers].sort((x, y) => compareNatural(x.replace(/^type /, ""), y.replace(/^type /, "")));
  const head = typeOnly ? "import type" : "import";
  const flat = `${head} { ${sorted.join(", ")} } from ${str(source)};`;
  if (fits(flat)) return flat;
  return `${head} {\n${sorted.map((s) => `  ${s},`).join("\n")}\n} from ${str(source)};`;
}

/** Import statements sorted as Biome sorts them: farther sources (`../`) first, then by natural order. */
export function sortImports(lines: Array<{ source: string; text: string }>): string[] {
  const distance = (source: string) => (source.startsWith("../") ? 0 : 1);
  return [...lines]
    .sort((x, y) => distance(x.source) - distance(y.source) || compareNatural(x.source, y.source))
    .map((line) => line.text);
}

/**
 * `head(a, b)tail` on one line when it fits, else one argument (or parameter) a line with a trailing
 * comma: how Biome lays out a call or a function signature whose arguments are plain.
 */
export function argumentList(head: string, args: string[], tail: string, indent = ""): string {
  const flat = `${indent}${head}(${args.join(", ")})${tail}`;
  if (args.length === 0 || fits(flat)) return flat;
  return `${indent}${head}(\n${args.map((a) => `${indent}  ${a},`).join("\n")}\n${indent})${tail}`;
}

/**
 * Drops the names of `import type { ... } from "..."` lines that the rest of the file never mentions, and
 * a line left with none (Biome's noUnusedImports); lays the rest out again with importLine.
 */
export function pruneTypeImports(code: string): string {
  return code.replace(/^import type \{([^}]*)\} from "([^"]+)";\n/gm, (line, names: string, source: string) => {
    const rest = code.replace(line, "");
    const used = names
      .split(",")
      .map((n) => n.trim())
      .filter((n) => n && new RegExp(`\\b${n.replace(/\$/g, "\\$")}\\b`).test(rest));
    return used.length > 0 ? `${importLine(used, source, true)}\n` : "";
  });
}

/** At most one blank line in a row and one newline at the end, as Biome leaves a file. */
export function tidyBlankLines(code: string): string {
  return `${code.replace(/\n{3,}/g, "\n\n").trimEnd()}\n`;
}
