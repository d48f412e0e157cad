/**
 * src/code-api.json (shape CodeApiFile, runtime/features/code/code-api-types.ts): what code mode's `search_docs`
 * answers with, one TypeScript declaration per tool plus the named types they use, each with the names it
 * references so the runtime prints only what a match needs. Built from src/types.ts as rendered (the
 * json-schema-to-typescript pipeline, so the agent's types and the package's are the same types), reread
 * with the reader of that output (format-types-parse.ts) and reprinted compactly: no property
 * descriptions in types, objects one member a line, the rest flat; an argument keeps its description's
 * first sentence, as that is what an agent gets wrong; a type that repeats another is an alias of it
 * (printer below). A tool whose JSON answer is no object (a list) is typed by its result schema; one
 * whose answer the spec does not describe resolves to `unknown`.
 */
import type { CodeApiFile } from "../../runtime/features/code/code-api-types.ts";
import { setOwn } from "../../runtime/protocol/codec.ts";
import type { Model } from "../normalize/normalize.ts";
import { ANY_OBJECT } from "./format-types.ts";
import { type Member, Parser, splitDeclarations, type TypeNode } from "./format-types-parse.ts";
import { commentText, escapeInvisible, header } from "./ts.ts";
import { propKey } from "./ts-style.ts";

/** The file's path in a package, beside search-index.json. */
export const CODE_API_FILE = "src/code-api.json";

/** A named type as reread: its tree (undefined when the reader does not know its shape) and its text. */
type Named = { name: string; type?: TypeNode; text: string };

/** Longest one-line comment kept on an argument or a tool (characters, before escaping). */
const DOC_LENGTH = 120;

/** The file's JSON text; undefined for a package without tools. `typesTs` is src/types.ts as rendered. */
export function renderCodeApi(model: Model, typesTs: string): string | undefined {
  if (model.tools.length === 0) return undefined;
  const named = namedTypes(typesTs);
  const print = printer(named);
  const file: CodeApiFile = { tools: {}, types: {} };
  const wanted: string[] = [];
  for (const tool of model.tools) {
    const args = resolve(named, tool.inputType);
    const argsText = args?.type?.kind === "object" ? argsObject(args.type.members) : tool.inputType;
    // A list answer has no outputSchema (MCP's must be an object), but its type: the resultType.
    const outputType = tool.outputType ?? tool.resultType;
    const output = outputType === undefined ? undefined : resolve(named, outputType);
    // An output that is an alias of a shared type (`GetPetOutput = Pet`) is named by that type, and a
    // list of one (`ListIssuesResult = Issue[]`) is written as that list.
    const element = output?.type?.kind === "array" ? output.type.element : undefined;
    const listed = element?.kind === "text" && named.has(element.text) ? print(element.text).same : undefined;
    const resultName = output === undefined ? "unknown" : (listed ?? print(output.name).same);
    const result = listed ? `${listed}[]` : resultName;
    const doc = summary(tool.node.title ?? tool.node.annotations?.title ?? tool.node.description ?? tool.node.name);
    const declaration = `/** ${doc} */\n${propKey(tool.node.name)}(args: ${argsText}): Promise<${result}>;`;
    const types = [
      ...new Set([...(args?.type?.kind === "object" ? referencesOf(args.type, named) : [tool.inputType]), resultName]),
    ].filter((name) => named.has(name));
    // setOwn: a tool named `__proto__` is a name like any other.
    setOwn(file.tools, tool.node.name, { declaration: escapeInvisible(declaration), types });
    wanted.push(...types);
  }
  // Only types some tool reaches: the file does not carry ToolMap, Handlers or unreachable definitions.
  const seen = new Set<string>();
  for (let next = 0; next < wanted.length; next++) {
    const name = wanted[next];
    if (seen.has(name)) continue;
    seen.add(name);
    const own = named.get(name) as Named;
    const { text, alias } = print(name);
    const types = (own.type === undefined || alias ? referencesIn(text, named) : referencesOf(own.type, named)).filter(
      (other) => other !== name,
    );
    // Invisible characters in string literal types as `\uXXXX` escapes: the same type, visibly.
    setOwn(file.types, name, { declaration: escapeInvisible(`type ${name} = ${text};`), types });
    wanted.push(...types);
  }
  return serialize(file, header(model.specRef).slice(3).trim());
}

/**
 * One entry a line: compact (GitHub's file is about 1 MB as it is), yet a change diffs as the entries it
 * touches. The "//" line marks the file as mcpgen's (output/ownership.ts reads it where no record is).
 */
function serialize(file: CodeApiFile, mark: string): string {
  const section = (entries: CodeApiFile["tools"]) =>
    Object.entries(entries)
      .map(([name, entry]) => `    ${JSON.stringify(name)}: ${JSON.stringify(entry)}`)
      .join(",\n");
  return `{\n  "//": ${JSON.stringify(mark)},\n  "tools": {\n${section(file.tools)}\n  },\n  "types": {\n${section(file.types)}\n  }\n}\n`;
}

type Printed = { text: string; alias: boolean; same: string };

/**
 * How each named type prints: its compact text, or, where that text repeats a type declared before it, a
 * shorter alias: `B = A` (`same` is then A: a result names A directly), `NullableA = A | null` (GitHub
 * spells out a nullable twin of many of its types; Repository's costs 740 tokens).
 */
function printer(named: Map<string, Named>): (name: string) => Printed {
  const texts = new Map<string, string>();
  const firstWith = new Map<string, string>();
  for (const [name, own] of named) {
    if (own.type === undefined) continue;
    const text = compact(own.type, "");
    texts.set(name, text);
    if (!firstWith.has(text)) firstWith.set(text, name);
  }
  return (name) => {
    const own = named.get(name) as Named;
    const text = texts.get(name);
    if (own.type === undefined || text === undefined) return { text: own.text, alias: false, same: name };
    const first = firstWith.get(text);
    // Only where the alias is shorter: `B = string` stays as it is.
    if (first !== undefined && first !== name && first.length < text.length) {
      return { text: first, alias: true, same: first };
    }
    if (own.type.kind === "union") {
      const rest = own.type.types.filter((t) => !(t.kind === "text" && t.text === "null"));
      const other = rest.length === own.type.types.length - 1 && firstWith.get(compact(unionOf(rest), ""));
      if (other && other !== name) return { text: `${other} | null`, alias: true, same: name };
    }
    return { text, alias: false, same: name };
  };
}

const unionOf = (types: TypeNode[]): TypeNode => (types.length === 1 ? types[0] : { kind: "union", types });

/** Every `export type` of src/types.ts by name; one the reader cannot parse is kept as written. */
function namedTypes(typesTs: string): Map<string, Named> {
  const named = new Map<string, Named>();
  // The printer's `// biome-ignore format` lines are not part of the declaration (the reader knows only /* */).
  const code = typesTs.replace(/^\s*\/\/ biome-ignore[^\n]*\n/gm, "");
  for (const chunk of splitDeclarations(code)) {
    const head = /export\s+type\s+([A-Za-z_$][\w$]*)\s*=\s*/.exec(chunk);
    if (!head) continue;
    const text = chunk.slice(head.index + head[0].length).replace(/;\s*$/, "");
    try {
      named.set(head[1], { name: head[1], type: new Parser(chunk).declaration().type, text });
    } catch {
      named.set(head[1], { name: head[1], text });
    }
  }
  return named;
}

/** A type through aliases of other named types (`A = B`, `B = {...}` → B). */
function resolve(named: Map<string, Named>, name: string): Named | undefined {
  let at = named.get(name);
  for (let hops = 0; at?.type?.kind === "text" && named.has(at.type.text) && hops < 20; hops++) {
    at = named.get(at.type.text);
  }
  return at;
}

/** Names of known types a type tree mentions, in order of first mention. */
function referencesOf(type: TypeNode, named: Map<string, Named>): string[] {
  const names = new Set<string>();
  const visit = (t: TypeNode): void => {
    if (t.kind === "text") {
      if (named.has(t.text)) names.add(t.text);
    } else if (t.kind === "array") visit(t.element);
    else if (t.kind === "tuple") for (const e of t.elements) visit(e.type);
    else if (t.kind === "object") for (const m of t.members) visit(m.type);
    else for (const inner of t.types) visit(inner);
  };
  visit(type);
  return [...names];
}

/** Names of known types that `text` (a declaration the reader could not parse) mentions, in order of first mention. String literals are skipped. */
function referencesIn(text: string, named: Map<string, Named>): string[] {
  const bare = text.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\/\*[\s\S]*?\*\//g, '""');
  const names = (bare.match(/[A-Za-z_$][\w$]*/g) ?? []).filter((word) => named.has(word));
  return [...new Set(names)];
}

/** The arguments' object: flat on one line when no argument has a description, else one a line. */
function argsObject(members: Member[]): string {
  if (members.length === 0) return ANY_OBJECT;
  const docs = members.map((m) => (m.comment === undefined ? "" : summary(commentBody(m.comment))));
  const key = (m: Member) => `${m.key}${m.optional ? "?" : ""}: ${compact(m.type, "  ")}`;
  if (docs.every((doc) => doc === "")) return `{ ${members.map(key).join("; ")} }`;
  const lines = members.map((m, i) => `${docs[i] ? `  /** ${docs[i]} */\n` : ""}  ${key(m)};`);
  return `{\n${lines.join("\n")}\n}`;
}

/** Objects one member a line under `indent`, everything else flat; no comments. */
function compact(type: TypeNode, indent: string): string {
  const group = (t: TypeNode, around: TypeNode["kind"][]) =>
    around.includes(t.kind) ? `(${compact(t, indent)})` : compact(t, indent);
  switch (type.kind) {
    case "text":
      return type.text;
    case "array":
      return `${group(type.element, ["union", "intersection"])}[]`;
    case "tuple":
      return `[${type.elements.map((e) => (e.rest ? "..." : "") + compact(e.type, indent)).join(", ")}]`;
    case "union":
      return type.types.map((t) => group(t, ["intersection"])).join(" | ");
    case "intersection":
      return type.types.map((t) => group(t, ["union"])).join(" & ");
    case "object": {
      if (type.members.length === 0) return ANY_OBJECT;
      const inner = `${indent}  `;
      const members = type.members.map((m) => `${inner}${m.key}${m.optional ? "?" : ""}: ${compact(m.type, inner)};`);
      return `{\n${members.join("\n")}\n${indent}}`;
    }
  }
}

/** The words of a `/** ... *\/` block, its stars and line breaks gone. */
function commentBody(comment: string): string {
  return comment
    .replace(/^\/\*\*?|\*\/$/g, "")
    .split("\n")
    .map((line) => line.replace(/^\s*\*\s?/, "").trim())
    .join(" ");
}

/**
 * The first sentence of `text` on one line, cut to DOC_LENGTH, safe inside a comment: it cannot close
 * the comment (`*\/`), break the line, or hide characters (commentText).
 */
function summary(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  // A sentence ends before a capital letter or at the end: "e.g. [...]" goes on.
  const sentence = /^.*?[.!?](?=\s+[A-Z]|$)/.exec(line)?.[0] ?? line;
  const cut = sentence.length > DOC_LENGTH ? `${sentence.slice(0, DOC_LENGTH - 1).trimEnd()}…` : sentence;
  return commentText(cut).replace(/\n/g, " ");
}
