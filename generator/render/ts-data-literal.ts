/**
 * JSON data as a TypeScript object literal in Biome's layout: objects one property a line, arrays on one
 * line when they fit and hold no object, else one element a line; keys quoted only where needed (and
 * `__proto__` in the computed form, so it stays an own key); a string too long for its line moves under
 * its key unless the key is shorter than five columns (Prettier's "short key" rule, which Biome follows).
 */
import { dataLit } from "./ts.ts";
import { fits, objectKey, printNumber, str } from "./ts-style.ts";

/** Thrown for a layout not reproduced here (a long array of numbers is filled, several to a line). */
export class UnknownDataLayout extends Error {}

/** `value` printed at a line indented by `indent`, starting at `column`, with `tail` after it. */
export function dataLiteral(value: unknown, indent: string, column: number, tail: string): string {
  if (value === null || typeof value !== "object") return scalar(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((item) => dataLiteral(item, inner, inner.length, ","));
    const flat = `[${items.join(", ")}]`;
    const breaks =
      items.some((item) => item.includes("\n")) ||
      // Two or more objects, or arrays of two or more elements: one a line (Prettier's shouldBreak).
      (value.length > 1 &&
        value.every((item) => typeof item === "object" && item !== null && Object.keys(item).length > 1));
    if (!breaks && fits(`${" ".repeat(column)}${flat}${tail}`)) return flat;
    if (value.every((item) => typeof item === "number")) throw new UnknownDataLayout();
    return `[\n${items.map((item) => `${inner}${item},`).join("\n")}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  const lines = entries.map(([name, item]) => {
    const key = objectKey(name);
    const text = dataLiteral(item, inner, inner.length + key.length + 2, ",");
    const line = `${inner}${key}: ${text},`;
    if (typeof item !== "string" || key.length < 5 || fits(line)) return line;
    return `${inner}${key}:\n${inner}  ${text},`;
  });
  return `{\n${lines.join("\n")}\n${indent}}`;
}

function scalar(value: unknown): string {
  if (typeof value === "string") return str(value);
  if (typeof value === "number") return printNumber(JSON.stringify(value));
  return JSON.stringify(value) ?? "undefined";
}

/**
 * `key: value,` as a property of an object literal at `indent`; a value whose layout is not reproduced
 * is printed as indented JSON under a `biome-ignore format` comment that says so.
 */
export function dataProperty(name: string, value: unknown, indent: string): string {
  const key = objectKey(name);
  try {
    return `${indent}${key}: ${dataLiteral(value, indent, indent.length + key.length + 2, ",")},`;
  } catch (error) {
    if (!(error instanceof UnknownDataLayout)) throw error;
    const json = dataLit(value, 2).replace(/\n/g, `\n${indent}`);
    return `${indent}// biome-ignore format: a layout mcpgen does not reproduce; indented JSON\n${indent}${key}: ${json},`;
  }
}
