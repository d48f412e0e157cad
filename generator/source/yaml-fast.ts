/**
 * A strict, fast reader for the plain subset of YAML that large specs are written in: block mappings and
 * sequences, one-line plain and quoted scalars, one-line flow collections, comments. It is ~10× faster
 * than the `yaml` library (which builds a positioned node for every scalar) and exists for one purpose:
 * the pieces yaml-chunks.ts cuts a large file into.
 *
 * It never guesses. Anything outside the subset (block scalars, anchors, aliases, tags, multi-line
 * scalars or flow collections, escapes beyond JSON's, numbers other than plain decimals, odd keys,
 * duplicate keys, tabs, CRLF) returns undefined, and the caller parses that piece with `yaml`. Where it
 * does answer, it answers as `yaml` (YAML 1.2 core schema) does: test/validate/large-yaml.test.ts
 * compares the two on the example specs and on generated ones.
 */

type Value = unknown;
type Line = { indent: number; text: string };

class Unsupported extends Error {}
const unsupported = (): never => {
  throw new Unsupported();
};

const PLAIN_KEY = /^[A-Za-z_$][\w.$/-]*$/;
const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/;
/** Core-schema scalars this reader leaves to `yaml` (~, Null, True, hex, octal, +1, .5, 1., .inf, .nan...). */
const OTHER_SPECIAL = /^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
/** yaml's core-schema number tests (yaml/dist/schema/core/int.js and float.js), all in one. */
const CORE_NUMBER =
  /^(?:0o[0-7]+|[-+]?[0-9]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+|[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*))$/;

export function parseFastYaml(text: string): Value | undefined {
  if (text.includes("\r") || text.includes("\t")) return undefined;
  const lines: Line[] = [];
  for (const raw of text.split("\n")) {
    const trimmed = raw.trimStart();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    lines.push({ indent: raw.length - trimmed.length, text: trimmed.trimEnd() });
  }
  if (lines.length === 0) return undefined;
  try {
    const cursor = { at: 0 };
    const value = block(lines, cursor, lines[0].indent);
    return cursor.at === lines.length ? value : undefined;
  } catch (error) {
    if (error instanceof Unsupported || error instanceof RangeError) return undefined;
    throw error;
  }
}

/** The block node whose first line is lines[cursor.at], at exactly `indent`. */
function block(lines: Line[], cursor: { at: number }, indent: number): Value {
  const first = lines[cursor.at];
  if (first.indent !== indent) unsupported();
  return isItem(first.text) ? sequence(lines, cursor, indent) : mapping(lines, cursor, indent);
}

const isItem = (text: string) => text === "-" || text.startsWith("- ");

function sequence(lines: Line[], cursor: { at: number }, indent: number): Value[] {
  const items: Value[] = [];
  while (cursor.at < lines.length && lines[cursor.at].indent === indent && isItem(lines[cursor.at].text)) {
    const line = lines[cursor.at];
    const rest = line.text.slice(1).trimStart();
    if (rest === "") {
      cursor.at++;
      items.push(nested(lines, cursor, indent, false));
    } else if (keyOf(rest) !== undefined || isItem(rest)) {
      // `- key: value` opens a mapping whose keys line up with `key`; `- - x` a list inside the list.
      const column = indent + line.text.length - rest.length;
      lines[cursor.at] = { indent: column, text: rest };
      items.push(isItem(rest) ? sequence(lines, cursor, column) : mapping(lines, cursor, column));
    } else {
      items.push(inline(rest));
      cursor.at++;
      if (cursor.at < lines.length && lines[cursor.at].indent > indent) unsupported(); // a multi-line scalar
    }
  }
  if (cursor.at < lines.length && lines[cursor.at].indent > indent) unsupported();
  return items;
}

function mapping(lines: Line[], cursor: { at: number }, indent: number): { [key: string]: Value } {
  const map: { [key: string]: Value } = {};
  while (cursor.at < lines.length && lines[cursor.at].indent === indent && !isItem(lines[cursor.at].text)) {
    const text = lines[cursor.at].text;
    const found = keyOf(text) ?? unsupported();
    const { key, rest } = found;
    if (Object.hasOwn(map, key) || key === "__proto__") unsupported();
    cursor.at++;
    if (rest === "") map[key] = nested(lines, cursor, indent, true);
    else {
      map[key] = inline(rest);
      if (cursor.at < lines.length && lines[cursor.at].indent > indent) unsupported(); // a multi-line scalar
    }
  }
  if (cursor.at < lines.length && lines[cursor.at].indent > indent) unsupported();
  return map;
}

/** The value after `key:` or `-` with nothing on its line: a deeper block, a list at the key's indent, or null. */
function nested(lines: Line[], cursor: { at: number }, indent: number, allowSameIndentList: boolean): Value {
  const next = lines[cursor.at];
  if (!next || next.indent < indent) return null;
  if (next.indent > indent) return block(lines, cursor, next.indent);
  return allowSameIndentList && isItem(next.text) ? sequence(lines, cursor, indent) : null;
}

/** `key: rest` or `key:` with a plain or simple double-quoted key; undefined when the line is no such thing. */
function keyOf(text: string): { key: string; rest: string } | undefined {
  let key: string;
  let after: number;
  if (text.startsWith('"')) {
    const end = text.indexOf('"', 1);
    if (end < 0 || text.slice(1, end).includes("\\")) return undefined;
    key = text.slice(1, end);
    after = end + 1;
  } else {
    after = text.indexOf(":");
    if (after < 0) return undefined;
    key = text.slice(0, after);
    if (!PLAIN_KEY.test(key) || OTHER_SPECIAL.test(key) || CORE_NUMBER.test(key)) return undefined;
  }
  if (text[after] !== ":") return undefined;
  const rest = text.slice(after + 1);
  if (rest !== "" && rest[0] !== " ") return undefined;
  const value = rest.trim();
  return { key, rest: value.startsWith("#") ? "" : value };
}

/** A one-line value: a flow collection, a quoted scalar or a plain scalar, then at most a comment. */
function inline(text: string): Value {
  const state = { text, at: 0 };
  const value =
    text[0] === "{" || text[0] === "[" || text[0] === '"' || text[0] === "'" ? flowValue(state) : plain(text);
  if (text[0] === "{" || text[0] === "[" || text[0] === '"' || text[0] === "'") {
    const tail = text.slice(state.at).trim();
    if (tail !== "" && !(tail.startsWith("#") && /\s/.test(text[state.at] ?? ""))) unsupported();
  }
  return value;
}

/** A plain scalar in block context, resolved as YAML 1.2's core schema does for the forms it allows. */
function plain(text: string): Value {
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(text) && !/^-[0-9]/.test(text)) unsupported();
  const comment = text.indexOf(" #");
  const value = comment < 0 ? text : text.slice(0, comment).trimEnd();
  if (value.includes(": ") || value.endsWith(":")) unsupported();
  return scalar(value);
}

function scalar(text: string): Value {
  if (text === "true") return true;
  if (text === "false") return false;
  if (text === "null") return null;
  if (DECIMAL.test(text) && text !== "-0") return Number(text);
  if (OTHER_SPECIAL.test(text) || CORE_NUMBER.test(text)) unsupported();
  return text;
}

type State = { text: string; at: number };

function skipSpaces(state: State): void {
  while (state.text[state.at] === " ") state.at++;
}

function flowValue(state: State): Value {
  skipSpaces(state);
  const c = state.text[state.at];
  if (c === "{") return flowMap(state);
  if (c === "[") return flowSeq(state);
  if (c === '"') return doubleQuoted(state);
  if (c === "'") return singleQuoted(state);
  return flowPlain(state);
}

function flowMap(state: State): { [key: string]: Value } {
  const map: { [key: string]: Value } = {};
  state.at++;
  for (;;) {
    skipSpaces(state);
    if (state.text[state.at] === "}") {
      state.at++;
      return map;
    }
    const c = state.text[state.at];
    const key = c === '"' ? doubleQuoted(state) : c === "'" ? singleQuoted(state) : flowPlain(state, true);
    if (typeof key !== "string" || Object.hasOwn(map, key) || key === "__proto__") unsupported();
    skipSpaces(state);
    let value: Value = null;
    if (state.text[state.at] === ":") {
      state.at++;
      skipSpaces(state);
      const next = state.text[state.at];
      value = next === "," || next === "}" ? null : flowValue(state);
    }
    map[key as string] = value;
    skipSpaces(state);
    if (state.text[state.at] === ",") state.at++;
    else if (state.text[state.at] !== "}") unsupported();
  }
}

function flowSeq(state: State): Value[] {
  const items: Value[] = [];
  state.at++;
  for (;;) {
    skipSpaces(state);
    if (state.text[state.at] === "]") {
      state.at++;
      return items;
    }
    items.push(flowValue(state));
    skipSpaces(state);
    if (state.text[state.at] === ":") unsupported(); // a single-pair mapping inside a list
    if (state.text[state.at] === ",") state.at++;
    else if (state.text[state.at] !== "]") unsupported();
  }
}

/** A plain scalar inside a flow collection: up to `,` `]` `}`, or `:` + space when it is a key. */
function flowPlain(state: State, isKey = false): Value {
  const start = state.at;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(state.text[start] ?? "") && !/^-[0-9]/.test(state.text.slice(start, start + 2)))
    unsupported();
  let end = start;
  for (; end < state.text.length; end++) {
    const c = state.text[end];
    if (c === "," || c === "]" || c === "}" || c === "[" || c === "{") break;
    if (c === ":" && /[\s,\]}[{]/.test(state.text[end + 1] ?? " ")) break;
    if (c === "#" && state.text[end - 1] === " ") unsupported();
  }
  state.at = end;
  const text = state.text.slice(start, end).trimEnd();
  if (text === "") unsupported();
  return isKey ? (OTHER_SPECIAL.test(text) || CORE_NUMBER.test(text) ? unsupported() : text) : scalar(text);
}

const ESCAPES: { [c: string]: string } = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
};

function doubleQuoted(state: State): string {
  let out = "";
  for (let i = state.at + 1; i < state.text.length; i++) {
    const c = state.text[i];
    if (c === '"') {
      state.at = i + 1;
      return out;
    }
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = state.text[++i];
    if (e === "u" && /^[0-9a-fA-F]{4}$/.test(state.text.slice(i + 1, i + 5))) {
      out += String.fromCharCode(Number.parseInt(state.text.slice(i + 1, i + 5), 16));
      i += 4;
    } else out += ESCAPES[e] ?? unsupported();
  }
  return unsupported(); // continues on the next line
}

function singleQuoted(state: State): string {
  let out = "";
  for (let i = state.at + 1; i < state.text.length; i++) {
    if (state.text[i] !== "'") out += state.text[i];
    else if (state.text[i + 1] === "'") {
      out += "'";
      i++;
    } else {
      state.at = i + 1;
      return out;
    }
  }
  return unsupported();
}
