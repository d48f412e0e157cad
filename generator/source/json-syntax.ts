/**
 * Where and why a text is not strict JSON (RFC 8259), for a `.json` spec that JSON.parse refused.
 * JSON.parse's own messages differ between Node versions and give an offset at best; this scanner names
 * the usual faults (a comment, a trailing comma, single quotes, an unquoted key, YAML saved as .json) at
 * the exact character. One pass, no recursion, so any nesting depth is fine.
 */
export type JsonFault = { offset: number; message: string };

type Expect = "value" | "value-or-close" | "array-value" | "key" | "key-or-close" | "colon" | "comma-or-close" | "end";

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WORD = /[^\s,:{}[\]"']+/y;
const LITERALS = new Set(["true", "false", "null"]);

export function jsonSyntaxFault(text: string): JsonFault | undefined {
  const stack: string[] = [];
  let expect = "value" as Expect;
  let comma = -1;
  let i = 0;
  const afterValue = () => {
    expect = stack.length > 0 ? "comma-or-close" : "end";
  };
  const word = (at: number) => {
    WORD.lastIndex = at;
    return WORD.exec(text)?.[0] ?? text.charAt(at);
  };
  for (;;) {
    while (i < text.length && " \t\n\r".includes(text.charAt(i))) i++;
    if (i >= text.length) break;
    const c = text.charAt(i);
    if (c === "/" && (text.charAt(i + 1) === "/" || text.charAt(i + 1) === "*"))
      return { offset: i, message: "comments are not allowed in JSON; use YAML (.yaml) for a spec with comments" };
    if (c === "'") return { offset: i, message: "single-quoted string: JSON strings and keys use double quotes" };
    switch (expect) {
      case "end":
        return { offset: i, message: `unexpected '${word(i)}' after the end of the JSON value` };
      case "colon":
        if (c !== ":") return { offset: i, message: `expected ':' after the property name, found '${word(i)}'` };
        i++;
        expect = "value";
        continue;
      case "comma-or-close": {
        const open = stack[stack.length - 1];
        const close = open === "{" ? "}" : "]";
        if (c === ",") {
          comma = i++;
          expect = open === "{" ? "key" : "array-value";
        } else if (c === close) {
          stack.pop();
          i++;
          afterValue();
        } else {
          if (c === '"') return { offset: i, message: "a ',' is missing before this string" };
          const missing =
            c === "}" || c === "]"
              ? `'${close}' to close the ${open === "{" ? "object" : "array"}`
              : `',' or '${close}'`;
          return { offset: i, message: `expected ${missing} after a value, found '${word(i)}'` };
        }
        continue;
      }
      case "key":
      case "key-or-close":
        if (c === "}") {
          if (expect === "key") return { offset: comma, message: "trailing comma before '}': JSON allows none" };
          stack.pop();
          i++;
          afterValue();
          continue;
        }
        if (c !== '"') {
          const name = word(i);
          const detail = /^[A-Za-z_$][\w$-]*$/.test(name)
            ? `property name '${name}' must be a double-quoted string`
            : `expected a double-quoted property name, found '${name}'`;
          return { offset: i, message: detail };
        }
        break;
      case "array-value":
      case "value-or-close":
        if (c === "]") {
          if (expect === "array-value")
            return { offset: comma, message: "trailing comma before ']': JSON allows none" };
          stack.pop();
          i++;
          afterValue();
          continue;
        }
        break;
      default:
        break;
    }
    // A value (or, in an object, a key: both are strings).
    if (c === '"') {
      const end = stringFault(text, i);
      if (typeof end !== "number") return end;
      i = end + 1;
      if (expect === "key" || expect === "key-or-close") expect = "colon";
      else afterValue();
    } else if (c === "{" || c === "[") {
      stack.push(c);
      i++;
      expect = c === "{" ? "key-or-close" : "value-or-close";
    } else if (c === "-" || (c >= "0" && c <= "9")) {
      NUMBER.lastIndex = i;
      const number = NUMBER.exec(text)?.[0];
      const next = word(i);
      if (!number || number.length !== next.length) return { offset: i, message: `'${next}' is not a JSON number` };
      i += number.length;
      afterValue();
    } else {
      const found = word(i);
      if (LITERALS.has(found)) {
        i += found.length;
        afterValue();
        continue;
      }
      const rest = text.slice(i + found.length).trimStart();
      if (stack.length === 0 && (rest.startsWith(":") || found.endsWith(":")))
        return {
          offset: i,
          message: "this is not JSON (it reads like YAML); rename the file to .yaml, or write it as JSON",
        };
      return {
        offset: i,
        message: `unexpected '${found}': JSON values are strings in double quotes, numbers, true, false, null, objects and arrays`,
      };
    }
  }
  if (expect === "end") return undefined;
  if (stack.length === 0) return { offset: text.length, message: "the file holds no JSON value" };
  const open = stack[stack.length - 1];
  return { offset: text.length, message: `unexpected end of the file: ${stack.length} '${open}' not closed` };
}

/** The offset of the quote that closes the string opening at `start`, or what is wrong with it. */
function stringFault(text: string, start: number): number | JsonFault {
  for (let j = start + 1; j < text.length; j++) {
    const code = text.charCodeAt(j);
    if (code === 0x22) return j;
    if (code < 0x20)
      return {
        offset: j,
        message: "control character (a raw line break or tab?) in a string: write it as \\n, \\t or \\u00XX",
      };
    if (code === 0x5c) {
      const escaped = text.charAt(j + 1);
      if (escaped === "u") {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6)))
          return { offset: j, message: "\\u must be followed by four hex digits" };
        j += 5;
      } else if ('"\\/bfnrt'.includes(escaped) && escaped !== "") j++;
      else return { offset: j, message: `invalid escape '\\${escaped}' in a string` };
    }
  }
  return { offset: start, message: "string not closed: a '\"' is missing" };
}
