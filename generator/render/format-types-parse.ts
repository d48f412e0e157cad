/**
 * A reader of json-schema-to-typescript's output, a small and regular language: `export interface` and
 * `export type` declarations made of names, literals, unions, intersections, arrays, tuples, object types
 * and JSDoc comments. It throws on anything else (the caller then prints that declaration as the library wrote it).
 */
import { printNumber, propKey, requote } from "./ts-style.ts";

export type TypeNode =
  | { kind: "text"; text: string }
  | SetType
  | { kind: "array"; element: TypeNode }
  | { kind: "tuple"; elements: Array<{ type: TypeNode; rest: boolean }> }
  | { kind: "object"; members: Member[] };
export type SetType = { kind: "union" | "intersection"; types: TypeNode[] };
export type Member = { comment?: string; key: string; optional: boolean; type: TypeNode };
export type Declaration = { comment?: string; name: string; type: TypeNode };

const TOKEN = /\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\.)*"|-?\d[\d.]*(?:[eE][+-]?\d+)?|[\w$]+|\.\.\.|\S/g;

/** The text of each top-level declaration, its leading comments included. */
export function splitDeclarations(code: string): string[] {
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
export class Parser {
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
    if (types.length === 1) return types[0];
    // `(A | B) | C` is `A | B | C`: one list, which Biome lays out like any other.
    return { kind, types: types.flatMap((t) => (t.kind === kind ? t.types : [t])) };
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
