// RFC 6570 URI templates (levels 1-4), the grammar of both mcpgen's validator and a generated server.
// expandUriTemplate and compileUriTemplate (uri-template-match.ts) are inverses on every template
// matchProblem accepts, for string values (non-empty in {x}, {+x}; without '%', '?', '#' in {+x}, {#x}).

export type UriOperator = "" | "+" | "#" | "." | "/" | ";" | "?" | "&";
export type UriVariable = { name: string; explode: boolean; prefix?: number };
export type UriExpression = { operator: UriOperator; variables: UriVariable[]; offset: number; text: string };
export type UriTemplatePart = string | UriExpression;
export type UriTemplateError = { offset: number; message: string; unnamed?: boolean };
export type ParsedUriTemplate = { parts: UriTemplatePart[]; variables: string[]; error?: UriTemplateError };

// RFC 6570 §3.2.1 table: what starts an expansion, what separates its values, whether values are named.
type OperatorRule = { first: string; separator: string; named: boolean; ifEmpty: string; reserved: boolean };
export const RULES: Record<UriOperator, OperatorRule> = {
  "": { first: "", separator: ",", named: false, ifEmpty: "", reserved: false },
  "+": { first: "", separator: ",", named: false, ifEmpty: "", reserved: true },
  "#": { first: "#", separator: ",", named: false, ifEmpty: "", reserved: true },
  ".": { first: ".", separator: ".", named: false, ifEmpty: "", reserved: false },
  "/": { first: "/", separator: "/", named: false, ifEmpty: "", reserved: false },
  ";": { first: ";", separator: ";", named: true, ifEmpty: "", reserved: false },
  "?": { first: "?", separator: "&", named: true, ifEmpty: "=", reserved: false },
  "&": { first: "&", separator: "&", named: true, ifEmpty: "=", reserved: false },
};
const RESERVED_OPERATORS = new Set(["=", ",", "!", "@", "|"]);
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
// RFC 6570 §2.1: literals exclude CTL, SP, DQUOTE, "'", "<", ">", "\", "^", "`", "{", "|", "}" (and bare "%").
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are not allowed in literals
const BAD_LITERAL = /[\u0000-\u0020\u007f"'<>\\^`{|}]/;

export function parseUriTemplate(template: string): ParsedUriTemplate {
  const parts: UriTemplatePart[] = [];
  const variables: string[] = [];
  const fail = (error: UriTemplateError): ParsedUriTemplate => ({ parts, variables, error });
  let start = 0; // where the literal being read began
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c === "{") {
      const end = template.indexOf("}", i);
      if (end < 0) return fail({ offset: i, message: "expression '{' is never closed" });
      const expression = parseExpression(template.slice(i + 1, end), i);
      if ("message" in expression) return fail(expression);
      if (i > start) parts.push(template.slice(start, i));
      parts.push(expression);
      for (const variable of expression.variables) variables.push(variable.name);
      i = end;
      start = end + 1;
    } else if (c === "}") return fail({ offset: i, message: "'}' without a matching '{'" });
    else if (c === "%" && !/^%[0-9A-Fa-f]{2}$/.test(template.slice(i, i + 3)))
      return fail({ offset: i, message: "'%' is not followed by two hex digits" });
    else if (BAD_LITERAL.test(c))
      return fail({ offset: i, message: `character ${JSON.stringify(c)} is not allowed outside an expression` });
  }
  if (start < template.length) parts.push(template.slice(start));
  return { parts, variables };
}

function parseExpression(body: string, offset: number): UriExpression | UriTemplateError {
  const text = `{${body}}`;
  if (RESERVED_OPERATORS.has(body[0])) return { offset, message: `operator '${body[0]}' is reserved for future use` };
  const operator = (body[0] in RULES && body[0] !== "" ? body[0] : "") as UriOperator;
  const list = body.slice(operator.length);
  if (list === "") return { offset, message: `expression '${text}' names no variable`, unnamed: true };
  const variables: UriVariable[] = [];
  for (const spec of list.split(",")) {
    if (spec === "") return { offset, message: `expression '${text}' has an empty variable name`, unnamed: true };
    const [, name, modifier, prefix] = /^(.*?)(\*|:(\d+))?$/.exec(spec) ?? [];
    if (!name) return { offset, message: `expression '${text}' has a modifier but no variable name`, unnamed: true };
    if (!VARNAME.test(name)) return { offset, message: `'${name}' in '${text}' is not a valid variable name` };
    if (prefix !== undefined && (Number(prefix) < 1 || Number(prefix) > 9999 || prefix.length > 4))
      return { offset, message: `prefix length ':${prefix}' in '${text}' must be 1 to 9999` };
    variables.push({ name, explode: modifier === "*", ...(prefix ? { prefix: Number(prefix) } : {}) });
  }
  return { operator, variables, offset, text };
}

/** Why a valid template cannot be matched back to its variables: a server must recover exactly the values a client expanded. */
export function matchProblem(parsed: ParsedUriTemplate): UriTemplateError | undefined {
  let previous: UriExpression | undefined;
  let inQuery = false;
  for (const part of parsed.parts) {
    if (typeof part === "string") {
      if (inQuery) return queryNotLast(part, parsed);
      previous = undefined;
      continue;
    }
    const { operator, variables, offset, text } = part;
    const exploded = variables.find((variable) => variable.explode);
    if (exploded) {
      const message = `'${text}' explodes '${exploded.name}' with '*', whose list or map shape a URI cannot reveal; drop the '*'`;
      return { offset, message };
    }
    if (variables.length > 1 && (operator === "+" || operator === "#" || operator === ".")) {
      const message = `'${text}' lists several variables, but its separator '${RULES[operator].separator}' may appear inside a value; use one variable per expression with a literal between`;
      return { offset, message };
    }
    if (inQuery && operator !== "?" && operator !== "&" && operator !== "#") return queryNotLast(text, parsed);
    if (previous && !canFollow(previous.operator, operator)) {
      const message = `'${previous.text}${text}' puts two expressions side by side, so a URI cannot show where one value ends; put a literal such as '/' between them`;
      return { offset, message };
    }
    if (operator === "?" || operator === "&") inQuery = true;
    else if (operator === "#") inQuery = false;
    previous = part;
  }
  for (const [index, part] of parsed.parts.entries()) {
    if (typeof part === "string" || isQuery(part)) continue;
    const problem = endProblem(part, parsed.parts.slice(index + 1));
    if (problem) return problem;
  }
  return undefined;
}

const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;
const UNRESERVED_OR_PERCENT = /^[A-Za-z0-9\-._~%]$/;

// Whether `c` may appear in `expression`'s expansion after its first character: unreserved characters
// (for + and #, reserved ones but the '?' and '#' that start a query or fragment), and separators.
function mayContain(expression: UriExpression, c: string): boolean {
  const { operator, variables } = expression;
  if (UNRESERVED_OR_PERCENT.test(c)) return true;
  if (operator === "+" || operator === "#") return RESERVED.test(c) && c !== "?" && c !== "#";
  if (operator === ";" && c === "=") return true;
  return variables.length > 1 && c === RULES[operator].separator;
}

// Why the end of `expression`'s value cannot be read off a URI. It can when what follows starts, at a
// fixed distance, with a character the value never contains, or is a literal that ends the template.
// Optional expressions ({/x}, {;x}, {.x}, {#x}, queries) may be absent, so past one the next thing
// must stop the value at once; a required one ({x}, {+x}) could start anywhere.
function endProblem(expression: UriExpression, rest: UriTemplatePart[]): UriTemplateError | undefined {
  let span = expression.text;
  let separator = "";
  let pastOptional = false;
  for (const part of rest) {
    if (typeof part === "string") {
      span += part;
      const stop = [...part].findIndex((c) => !mayContain(expression, c));
      if (stop === 0 || (stop > 0 && !pastOptional)) return undefined;
      if (pastOptional) return ambiguous(expression, span, part[0]);
      separator ||= part[0];
      continue;
    }
    span += part.text;
    const marker = RULES[part.operator].first;
    if (marker === "" || mayContain(expression, marker)) return ambiguous(expression, span, marker || separator);
    pastOptional = true;
  }
  return undefined;
}

function ambiguous(expression: UriExpression, span: string, c: string): UriTemplateError {
  const stop = ["/", ":", "@", "!"].find((candidate) => !mayContain(expression, candidate));
  const fix = stop
    ? `follow '${expression.text}' with a character its values never contain unencoded, such as '${stop}', or with a literal that ends the template`
    : `put '${expression.text}' last, where only a literal or a {?...} or {#...} expression may follow it`;
  const message = `in '${span}', a '${c}' can end the value of '${expression.text}' but can also be part of it, so a URI cannot show where that value ends; ${fix}`;
  return { offset: expression.offset, message };
}

// Only a marker the first value cannot contain tells two adjacent expressions apart. '?' and '#'
// start the query and fragment of any URI (RFC 3986 §3), so they may follow anything.
function canFollow(before: UriOperator, after: UriOperator): boolean {
  if (after === "?" || after === "&" || after === "#") return true;
  if (after === "/" || after === ";") return !RULES[before].reserved;
  return false;
}

export function isQuery(part: UriTemplatePart): part is UriExpression {
  return typeof part !== "string" && (part.operator === "?" || part.operator === "&");
}

function queryNotLast(what: string, parsed: ParsedUriTemplate): UriTemplateError {
  const query = parsed.parts.find(isQuery);
  const message = `'${what}' follows a query expression; put '{?...}' and '{&...}' at the end of the template`;
  return { offset: query?.offset ?? 0, message };
}
