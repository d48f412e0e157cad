/**
 * json-schema-to-typescript's declarations, reprinted in the house style (ts-style.ts) and tidied:
 * `type` instead of `interface`, no empty `{}` (Biome's noBannedTypes, noEmptyInterface), no root
 * `SchemaTypes` declaration, and a type spelled out again becomes an alias of the shared type that spells
 * it first (petstore's `NewPet & { id: number }` was written four times). The layout is Biome's (which is
 * Prettier's): objects expanded, unions flat when they fit and one member a line when not, tuples likewise.
 * No formatter runs: GitHub's 1.5 MB of declarations print in a few hundred milliseconds. The rare
 * declaration whose layout is not reproduced here (an intersection whose union member spans lines, say)
 * is printed plainly under a `biome-ignore format` comment, so `biome check` stays clean and says why.
 */
import {
  type Declaration,
  type Member,
  Parser,
  type SetType,
  splitDeclarations,
  type TypeNode,
} from "./format-types-parse.ts";
import { LINE_WIDTH, textWidth } from "./ts-style.ts";

/** What an object type without members stands for: any object (JSON Schema's default). */
export const ANY_OBJECT = "{ [key: string]: unknown }";

/** Thrown where Biome's layout is not one this printer makes. */
class UnknownLayout extends Error {}

const IGNORE = "// biome-ignore format: a layout mcpgen does not reproduce; objects expanded, the rest flat\n";

/**
 * `roots` are the tools' own argument and result types: one that spells out a shared type again becomes an
 * alias of it. Shared types stay as they are (two identical components are still two concepts), and a
 * root never stands for another (that would read as if the tools were related).
 */
export function formatTypeDeclarations(code: string, roots: ReadonlySet<string>): string {
  const printed: string[] = [];
  const firstNameOf = new Map<string, string>();
  for (const chunk of splitDeclarations(code)) {
    let declaration: Declaration;
    try {
      declaration = new Parser(chunk).declaration();
    } catch {
      // Something the reader does not know (an `extends` clause, say): as the library wrote it.
      printed.push(`${IGNORE}${chunk}`);
      continue;
    }
    const { name, type } = declaration;
    if (name === "SchemaTypes" && type.kind === "object" && type.members.length === 0) continue;
    const shape = type.kind === "text" ? undefined : flat(type);
    const alias = shape === undefined || !roots.has(name) ? undefined : firstNameOf.get(shape);
    if (shape !== undefined && alias === undefined && !roots.has(name)) firstNameOf.set(shape, name);
    const comment = printComment(declaration.comment, "");
    const head = `export type ${name} =`;
    try {
      const right = alias ?? (type.kind === "text" ? type.text : undefined);
      // A name too long for the line moves to the next one: Biome breaks after `=`.
      const text =
        right === undefined
          ? assigned(type, "", head.length)
          : fitsAt(head.length + 1, right)
            ? ` ${right}`
            : `\n  ${right}`;
      printed.push(`${comment}${head}${text};`);
    } catch (error) {
      if (!(error instanceof UnknownLayout)) throw error;
      printed.push(`${comment}${IGNORE}${head} ${expanded(type, "")};`);
    }
  }
  return printed.join("\n\n");
}

const isMultiline = (type: TypeNode): boolean =>
  (type.kind === "object" && type.members.length > 0) ||
  (type.kind === "array" && isMultiline(type.element)) ||
  ((type.kind === "union" || type.kind === "intersection") && type.types.some(isMultiline)) ||
  (type.kind === "tuple" && type.elements.some((e) => isMultiline(e.type)));

/** Characters of a line as Biome counts them (a non-ASCII character may be two columns wide). */
const width = textWidth;

/** The type on one line, objects included (`{ a: string; b?: number }`): a shape to compare, or text to fit. */
function flat(type: TypeNode): string {
  switch (type.kind) {
    case "text":
      return type.text;
    case "array":
      return type.element.kind === "union" || type.element.kind === "intersection"
        ? `(${flat(type.element)})[]`
        : `${flat(type.element)}[]`;
    case "tuple":
      return `[${type.elements.map((e) => (e.rest ? `...${flat(e.type)}` : flat(e.type))).join(", ")}]`;
    case "union":
      return type.types.map((t) => (t.kind === "intersection" ? `(${flat(t)})` : flat(t))).join(" | ");
    case "intersection":
      return type.types.map((t) => (t.kind === "union" ? `(${flat(t)})` : flat(t))).join(" & ");
    case "object":
      if (type.members.length === 0) return ANY_OBJECT;
      return `{ ${type.members.map((m) => `${m.key}${m.optional ? "?" : ""}: ${flat(m.type)};`).join(" ")} }`;
  }
}

/** Objects one member a line with their comments, the rest flat: for a declaration Biome is told to leave. */
function expanded(type: TypeNode, indent: string): string {
  const inner = `${indent}  `;
  switch (type.kind) {
    case "text":
      return type.text;
    case "array": {
      const element = expanded(type.element, indent);
      return type.element.kind === "union" || type.element.kind === "intersection" ? `(${element})[]` : `${element}[]`;
    }
    case "tuple":
      return `[${type.elements.map((e) => (e.rest ? "..." : "") + expanded(e.type, indent)).join(", ")}]`;
    case "union":
      return type.types
        .map((t) => (t.kind === "intersection" ? `(${expanded(t, indent)})` : expanded(t, indent)))
        .join(" | ");
    case "intersection":
      return type.types.map((t) => (t.kind === "union" ? `(${expanded(t, indent)})` : expanded(t, indent))).join(" & ");
    case "object": {
      if (type.members.length === 0) return ANY_OBJECT;
      const members = type.members.map(
        (m) => `${printComment(m.comment, inner)}${inner}${m.key}${m.optional ? "?" : ""}: ${expanded(m.type, inner)};`,
      );
      return `{\n${members.join("\n")}\n${indent}}`;
    }
  }
}

/**
 * The text after `x =` or `key:` (its first character a space, or a line break for a union one member a
 * line), where `column` is where that text starts and a `;` follows it.
 */
function assigned(type: TypeNode, indent: string, column: number): string {
  if (type.kind === "union" && !hugs(type) && (isMultiline(type) || !fitsAt(column + 1, flat(type)))) {
    return brokenUnion(type, indent);
  }
  return ` ${print(type, indent, column + 1)}`;
}

/** `| a` one a line under `indent` plus two; objects in it indented two further (Prettier's align(2)). */
function brokenUnion(type: SetType, indent: string): string {
  const inner = `${indent}  `;
  return type.types
    .map((t) => {
      const member =
        t.kind === "intersection"
          ? `(${print(t, `${inner}  `, inner.length + 3)})`
          : print(t, `${inner}  `, inner.length + 2);
      return `\n${inner}| ${member}`;
    })
    .join("");
}

/** `{ ... } | null` keeps the object's own lines (Prettier's "hug"). */
function hugs(type: SetType): boolean {
  const objects = type.types.filter((t) => t.kind === "object" && t.members.length > 0);
  return objects.length === 1 && type.types.every((t) => t === objects[0] || (t.kind === "text" && t.text === "null"));
}

const fitsAt = (column: number, text: string) => column + width(text) + 1 <= LINE_WIDTH;

/** A type that is not broken at its start, beginning at `column` of a line indented by `indent`. */
function print(type: TypeNode, indent: string, column: number): string {
  switch (type.kind) {
    case "text":
      return type.text;
    case "object":
      if (type.members.length === 0) return ANY_OBJECT;
      return `{\n${type.members.map((m) => printMember(m, `${indent}  `)).join("\n")}\n${indent}}`;
    case "array":
      if (type.element.kind === "object" || type.element.kind === "text") {
        return `${print(type.element, indent, column)}[]`;
      }
      // `(A & {` ... `})[]`: the intersection keeps its object's lines inside the parentheses.
      if (type.element.kind === "intersection" && isMultiline(type.element)) {
        return `(${print(type.element, indent, column + 1)})[]`;
      }
      // `(` and `)[]` around a union one member a line, when it does not fit on its line or has objects.
      if (type.element.kind === "union" && !hugs(type.element)) {
        if (!isMultiline(type.element) && fitsAt(column, flat(type))) return flat(type);
        return `(${brokenUnion(type.element, indent)}\n${indent})[]`;
      }
      return checked(type, column);
    case "union":
      if (hugs(type)) return type.types.map((t) => print(t, indent, column)).join(" | ");
      return checked(type, column);
    case "intersection": {
      // Two members with an object among them print `A & {`, `} & B` or `} & {`; other shapes are left flat.
      if (!isMultiline(type)) return checked(type, column);
      if (type.types.length !== 2 || !type.types.every((t) => t.kind === "text" || t.kind === "object")) {
        throw new UnknownLayout();
      }
      return type.types.map((t) => print(t, indent, column)).join(" & ");
    }
    case "tuple": {
      // Too long for its line, or holding objects: one element a line with a trailing comma.
      if (!isMultiline(type) && fitsAt(column, flat(type))) return flat(type);
      const inner = `${indent}  `;
      const lines = type.elements.map((e) =>
        e.rest
          ? `${inner}...${print(e.type, inner, inner.length + 3)},`
          : `${inner}${print(e.type, inner, inner.length)},`,
      );
      return `[\n${lines.join("\n")}\n${indent}]`;
    }
  }
}

/** The flat text of a type that must fit on its line (after `...` when `rest`), else it is left flat under `biome-ignore`. */
function checked(type: TypeNode, column: number, rest = false): string {
  const text = (rest ? "..." : "") + flat(type);
  if (isMultiline(type) || !fitsAt(column, text)) throw new UnknownLayout();
  return text;
}

function printMember(member: Member, indent: string): string {
  const head = `${indent}${member.key}${member.optional ? "?" : ""}:`;
  return `${printComment(member.comment, indent)}${head}${assigned(member.type, indent, width(head))};`;
}

/** A JSDoc block re-indented as Prettier does: each continuation line trimmed, one space in. */
function printComment(comment: string | undefined, indent: string): string {
  if (comment === undefined) return "";
  const lines = dropReferencedBy(comment.split("\n"));
  if (lines.length <= 2 && lines.join("").replace(/[/*\s]/g, "") === "") return "";
  if (!lines.slice(1).every((line) => line.trim().startsWith("*"))) return `${indent}${comment}\n`;
  const body = lines.map((line, i) =>
    i === 0 ? line.trimEnd() : ` ${i < lines.length - 1 ? line.trim() : line.trimStart()}`,
  );
  return `${indent}${body.join(`\n${indent}`)}\n`;
}

/**
 * The library's "This interface was referenced by `SchemaTypes`'s JSON-Schema via the `definition` ..."
 * lines (and the blank line before them): they name the combined root, which is not in the file.
 */
function dropReferencedBy(lines: string[]): string[] {
  const at = lines.findIndex((line) => line.trim().startsWith("* This interface was referenced by `SchemaTypes`"));
  if (at < 0 || !lines[at + 1]?.trim().startsWith("* via the `definition`")) return lines;
  const from = lines[at - 1]?.trim() === "*" ? at - 1 : at;
  return [...lines.slice(0, from), ...lines.slice(at + 2)];
}
