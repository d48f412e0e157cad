/**
 * json-schema-to-typescript's declarations, reprinted in the house style (ts-style.ts) and tidied:
 * `type` instead of `interface`, no empty `{}` (Biome's noBannedTypes, noEmptyInterface), no root
 * `SchemaTypes` declaration, and a type spelled out twice becomes an alias of its first name (petstore's
 * `NewPet & { id: number }` was written four times). The library's output is a small, regular language
 * (names, literals, unions, intersections, arrays, tuples, object types, JSDoc comments); a declaration
 * whose layout needs line breaking this printer does not do (a union too long for one line, an object
 * inside a union) goes to Prettier, which lays it out as Biome does. Printing most declarations here is
 * what keeps GitHub's 1.7 MB of types at tens of milliseconds instead of seconds.
 */
import { format } from "json-schema-to-typescript/dist/src/formatter.js";
import { fits, printNumber, propKey, requote } from "./ts-style.ts";

type TypeNode =
  | { kind: "text"; text: string }
  | { kind: "union" | "intersection"; types: TypeNode[] }
  | { kind: "array"; element: TypeNode }
  | { kind: "tuple"; elements: Array<{ type: TypeNode; rest: boolean }> }
  | { kind: "object"; members: Member[] };
type Member = { comment?: string; key: string; optional: boolean; type: TypeNode };
type Declaration = { comment?: string; name: string; type: TypeNode };

/** What an object type without members stands for: any object (JSON Schema's default). */
export const ANY_OBJECT = "{ [key: string]: unknown }";

/**
 * `roots` are the tools' own argument and result types: they may become aliases of a shared type, never
 * the other way round (one tool's type standing for another's would read as if the tools were related).
 */
export async function formatTypeDeclarations(code: string, roots: ReadonlySet<string>): Promise<string> {
  const printed: string[] = [];
  const hard: Array<{ index: number; text: string }> = [];
  const firstNameOf = new Map<string, string>();
  for (const chunk of splitDeclarations(code)) {
    let declaration: Declaration;
    try {
      declaration = new Parser(chunk).declaration();
    } catch {
      // Something this printer does not know (an `extends` clause, say): Prettier formats it as written.
      hard.push({ index: printed.push("") - 1, text: chunk });
      continue;
    }
    if (declaration.name === "SchemaTypes" && isEmptyObject(declaration.type)) continue;
    const right = printType(declaration.type, "");
    const alias = isNamed(declaration.type) ? undefined : firstNameOf.get(right);
    if (!alias && !isNamed(declaration.type) && !roots.has(declaration.name)) firstNameOf.set(right, declaration.name);
    const text = `${printComment(declaration.comment, "")}export type ${declaration.name} = ${alias ?? right};`;
    if (alias === undefined && needsLayout(declaration.type, text)) hard.push({ index: printed.push("") - 1, text });
    else printed.push(text);
  }
  if (hard.length > 0) {
    // One Prettier run for all of them; a line comment keeps them apart.
    const SPLIT = "// mcpgen:split";
    const formatted = await prettierFormat(hard.map((h) => h.text).join(`\n${SPLIT}\n`), "types.d.ts");
    formatted
      .trimEnd()
      .split(`\n${SPLIT}\n`)
      .forEach((text, i) => {
        printed[hard[i].index] = text;
      });
  }
  return printed.join("\n\n");
}

const isNamed = (type: TypeNode) => type.kind === "text";
const isEmptyObject = (type: TypeNode) => type.kind === "object" && type.members.length === 0;
const isMultiline = (type: TypeNode): boolean =>
  (type.kind === "object" && type.members.length > 0) ||
  (type.kind === "array" && isMultiline(type.element)) ||
  ((type.kind === "union" || type.kind === "intersection") && type.types.some(isMultiline)) ||
  (type.kind === "tuple" && type.elements.some((e) => isMultiline(e.type)));

/** True when Biome would lay this declaration out otherwise than flat unions and expanded objects. */
function needsLayout(type: TypeNode, text: string): boolean {
  // Comments are never wrapped: only the code lines must fit.
  const code = text
    .split("\n")
    .filter((line) => !/^\s*(\/\*|\*)/.test(line))
    .join("\n");
  return !fits(code) || hasHardNode(type);
}

function hasHardNode(type: TypeNode): boolean {
  switch (type.kind) {
    case "text":
      return false;
    case "array":
      // `{ ... }[]` keeps the object's lines; any other multi-line element type is laid out by Prettier.
      return (isMultiline(type.element) && type.element.kind !== "object") || hasHardNode(type.element);
    case "object":
      return type.members.some((m) => hasHardNode(m.type));
    case "tuple":
      return type.elements.some((e) => isMultiline(e.type) || hasHardNode(e.type));
    case "union": {
      // `{ ... } | null` stays on the object's lines; any other multi-line member breaks the union.
      const nested = type.types.some((t) => t.kind === "union");
      const objects = type.types.filter(isMultiline);
      const hug =
        objects.length === 1 &&
        objects[0].kind === "object" &&
        type.types.every((t) => t === objects[0] || (t.kind === "text" && t.text === "null"));
      return nested || (objects.length > 0 && !hug) || type.types.some(hasHardNode);
    }
    case "intersection": {
      const nested = type.types.some((t) => t.kind === "intersection");
      // Two members with an object among them print `A & {` / `} & B` / `} & {`; longer ones break.
      const multiline = type.types.some(isMultiline);
      const simple = type.types.length === 2 && type.types.every((t) => t.kind === "text" || t.kind === "object");
      return nested || (multiline && !simple) || type.types.some(hasHardNode);
    }
  }
}

function printType(type: TypeNode, indent: string): string {
  switch (type.kind) {
    case "text":
      return type.text;
    case "array": {
      const element = printType(type.element, indent);
      const wrap = type.element.kind === "union" || type.element.kind === "intersection";
      return wrap ? `(${element})[]` : `${element}[]`;
    }
    case "tuple":
      return `[${type.elements
        .map((e) => {
          const printed = printType(e.type, indent);
          return e.rest ? `...${printed}` : printed;
        })
        .join(", ")}]`;
    case "union":
      return type.types.map((t) => printType(t, indent)).join(" | ");
    case "intersection":
      return type.types
        .map((t) => (t.kind === "union" ? `(${printType(t, indent)})` : printType(t, indent)))
        .join(" & ");
    case "object": {
      if (type.members.length === 0) return ANY_OBJECT;
      const inner = `${indent}  `;
      const lines = type.members.map(
        (m) =>
          `${printComment(m.comment, inner)}${inner}${m.key}${m.optional ? "?" : ""}: ${printType(m.type, inner)};`,
      );
      return `{\n${lines.join("\n")}\n${indent}}`;
    }
  }
}

/** A JSDoc block re-indented as Prettier does: each continuation line trimmed, one space in. */
function printComment(comment: string | undefined, indent: string): string {
  if (comment === undefined) return "";
  const lines = comment.split("\n");
  if (!lines.slice(1).every((line) => line.trim().startsWith("*"))) return `${indent}${comment}\n`;
  const body = lines.map((line, i) =>
    i === 0 ? line.trimEnd() : ` ${i < lines.length - 1 ? line.trim() : line.trimStart()}`,
  );
  return `${indent}${body.join(`\n${indent}`)}\n`;
}

const TOKEN = /\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\.)*"|-?\d[\d.]*(?:[eE][+-]?\d+)?|[\w$]+|\.\.\.|\S/g;

/** The text of each top-level declaration, its leading comments included. */
function splitDeclarations(code: string): string[] {
  const starts: number[] = [];
  let depth = 0;
  let commentStart: number | undefined;
  for (const match of code.matchAll(TOKEN)) {
    const token = match[0];
    if (token.startsWith("/*")) {
      if (depth === 0) commentStart ??= match.index;
      continue;
    }
    if (depth === 0 && token === "export") starts.push(commentStart ?? match.index);
    commentStart = undefined;
    if ("{([".includes(token)) depth++;
    else if ("})]".includes(token)) depth--;
  }
  return starts.map((start, i) => code.slice(start, starts[i + 1] ?? code.length).trim());
}

/** A recursive-descent reader of json-schema-to-typescript's output; throws on anything else. */
class Parser {
  private tokens: string[];
  private at = 0;
  constructor(source: string) {
    this.tokens = source.match(TOKEN) ?? [];
  }
  private peek = () => this.tokens[this.at];
  private next = () => this.tokens[this.at++];
  private expect(token: string): void {
    if (this.next() !== token) throw new Error(`expected ${token}`);
  }
  private comment(): string | undefined {
    return this.peek()?.startsWith("/*") ? this.next() : undefined;
  }

  declaration(): Declaration {
    const comment = this.comment();
    this.expect("export");
    const keyword = this.next();
    const name = this.next();
    if (!/^[A-Za-z_$][\w$]*$/.test(name)) throw new Error("name");
    let type: TypeNode;
    if (keyword === "interface") type = this.object();
    else if (keyword === "type") {
      this.expect("=");
      type = this.type();
    } else throw new Error("declaration");
    if (this.peek() === ";") this.next();
    if (this.at !== this.tokens.length) throw new Error("trailing text");
    return { comment, name, type };
  }

  private type(): TypeNode {
    return this.list("|", "union", () => this.list("&", "intersection", () => this.postfix()));
  }

  private list(separator: string, kind: "union" | "intersection", item: () => TypeNode): TypeNode {
    if (this.peek() === separator) this.next();
    const types = [item()];
    while (this.peek() === separator) {
      this.next();
      types.push(item());
    }
    return types.length === 1 ? types[0] : { kind, types };
  }

  private postfix(): TypeNode {
    let type = this.primary();
    while (this.peek() === "[" && this.tokens[this.at + 1] === "]") {
      this.at += 2;
      type = { kind: "array", element: type };
    }
    return type;
  }

  private primary(): TypeNode {
    const token = this.next();
    if (token === "(") {
      const inner = this.type();
      this.expect(")");
      return inner;
    }
    if (token === "{") return this.object(true);
    if (token === "[") return this.tuple();
    if (token?.startsWith('"')) return { kind: "text", text: requote(token) };
    if (token !== undefined && /^-?\d/.test(token)) {
      return { kind: "text", text: (token.startsWith("-") ? "-" : "") + printNumber(token.replace(/^-/, "")) };
    }
    if (token !== undefined && /^[A-Za-z_$][\w$]*$/.test(token) && this.peek() !== "<")
      return { kind: "text", text: token };
    throw new Error(`unexpected ${token}`);
  }

  private tuple(): TypeNode {
    const elements: Array<{ type: TypeNode; rest: boolean }> = [];
    while (this.peek() !== "]") {
      const rest = this.peek() === "...";
      if (rest) this.next();
      elements.push({ type: this.type(), rest });
      if (this.peek() === "?") throw new Error("optional element");
      if (this.peek() === ",") this.next();
      else if (this.peek() !== "]") throw new Error("tuple");
    }
    this.next();
    return { kind: "tuple", elements };
  }

  private object(opened = false): TypeNode {
    if (!opened) this.expect("{");
    const members: Member[] = [];
    while (this.peek() !== "}") {
      const comment = this.comment();
      const token = this.next();
      let key: string;
      if (token === "[") {
        const name = this.next();
        this.expect(":");
        const index = this.next();
        this.expect("]");
        key = `[${name}: ${index}]`;
      } else if (token?.startsWith('"')) key = propKey(JSON.parse(token) as string);
      else if (token !== undefined && /^[A-Za-z_$][\w$]*$/.test(token)) key = token;
      else throw new Error(`member ${token}`);
      const optional = this.peek() === "?";
      if (optional) this.next();
      this.expect(":");
      members.push({ comment, key, optional, type: this.type() });
      if (this.peek() === ";" || this.peek() === ",") this.next();
    }
    this.next();
    return { kind: "object", members };
  }
}

/**
 * Prettier, as json-schema-to-typescript (a dependency) brings and calls it, with the options that make
 * its output Biome's under biome.json. Only for small or rare text: it takes seconds on megabytes.
 */
export async function prettierFormat(code: string, filepath: string): Promise<string> {
  const style = { filepath, printWidth: 120, tabWidth: 2, semi: true, singleQuote: false, trailingComma: "all" };
  return format(code, { format: true, style } as never);
}
