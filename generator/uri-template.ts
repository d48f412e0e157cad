/**
 * An RFC 6570 URI template parser, just enough to validate a template and list its variables.
 * Errors carry the character offset so the diagnostic can quote the faulty expression.
 */
export type TemplateParse = { variables: string[]; error?: { offset: number; message: string; unnamed?: boolean } };

const OPERATORS = new Set(["+", "#", ".", "/", ";", "?", "&"]);
const RESERVED_OPERATORS = new Set(["=", ",", "!", "@", "|"]);
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
// RFC 6570 §2.1: literals exclude CTL, SP, DQUOTE, "'", "<", ">", "\", "^", "`", "{", "|", "}" (and bare "%").
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are not allowed in literals
const BAD_LITERAL = /[\u0000-\u0020\u007f"'<>\\^`{|}]/;

export function parseUriTemplate(template: string): TemplateParse {
  const variables: string[] = [];
  let i = 0;
  while (i < template.length) {
    const c = template[i];
    if (c === "{") {
      const end = template.indexOf("}", i);
      if (end < 0) return { variables, error: { offset: i, message: "expression '{' is never closed" } };
      const error = parseExpression(template.slice(i + 1, end), i, variables);
      if (error) return { variables, error };
      i = end + 1;
    } else if (c === "}") {
      return { variables, error: { offset: i, message: "'}' without a matching '{'" } };
    } else if (c === "%") {
      if (!/^%[0-9A-Fa-f]{2}/.test(template.slice(i)))
        return { variables, error: { offset: i, message: "'%' is not followed by two hex digits" } };
      i += 3;
    } else if (BAD_LITERAL.test(c)) {
      return {
        variables,
        error: { offset: i, message: `character ${JSON.stringify(c)} is not allowed outside an expression` },
      };
    } else i++;
  }
  return { variables };
}

function parseExpression(body: string, offset: number, variables: string[]): TemplateParse["error"] {
  let list = body;
  if (RESERVED_OPERATORS.has(list[0])) return { offset, message: `operator '${list[0]}' is reserved for future use` };
  if (OPERATORS.has(list[0])) list = list.slice(1);
  if (list === "") return { offset, message: `expression '{${body}}' names no variable`, unnamed: true };
  for (const spec of list.split(",")) {
    if (spec === "") return { offset, message: `expression '{${body}}' has an empty variable name`, unnamed: true };
    const match = /^(.*?)(\*|:(\d+))?$/.exec(spec)!;
    const [, name, , prefix] = match;
    if (name === "")
      return { offset, message: `expression '{${body}}' has a modifier but no variable name`, unnamed: true };
    if (!VARNAME.test(name)) return { offset, message: `'${name}' in '{${body}}' is not a valid variable name` };
    if (prefix !== undefined && (Number(prefix) < 1 || Number(prefix) > 9999 || prefix.length > 4)) {
      return { offset, message: `prefix length ':${prefix}' in '{${body}}' must be 1 to 9999` };
    }
    variables.push(name);
  }
  return undefined;
}
