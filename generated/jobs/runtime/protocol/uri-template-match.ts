// Matching URIs against RFC 6570 templates (resources/read): the inverse of expandUriTemplate. An
// expression whose variables are all undefined expands to nothing, so all but {x} and {+x} may be absent.
import { setOwn } from "./codec.ts";
import {
  isQuery,
  matchProblem,
  parseUriTemplate,
  RULES,
  type UriExpression,
  type UriTemplatePart,
  type UriVariable,
} from "./uri-template.ts";
import { scannedPart, scanUri } from "./uri-template-scan.ts";

/** Longest URI matched against templates: matching costs O(length × parts), so this bounds one resources/read. */
export const MAX_TEMPLATE_URI_LENGTH = 65_536;

export type UriTemplateMatcher = { variableNames: string[]; match(uri: string): Record<string, string> | undefined };

// query: the variables of all query expressions, read from one capture; split: what separates them
// there ('&', or also '?' when a later expression is {?...} too, which RFC 6570 expands with '?').
type Capture = { expression: UriExpression; query: UriVariable[]; split: RegExp };

export function compileUriTemplate(template: string): UriTemplateMatcher {
  const parsed = parseUriTemplate(template);
  const problem = parsed.error ?? matchProblem(parsed);
  if (problem)
    throw new TypeError(`uriTemplate '${template}': ${problem.message} (at character ${problem.offset + 1})`);
  // All query expressions share one part: matchProblem keeps them last, and their parameters come in any order.
  const parts: UriTemplatePart[] = [];
  const captures: Array<Capture | undefined> = [];
  for (const part of parsed.parts) {
    const shared = captures.at(-1);
    if (isQuery(part) && shared?.query.length) {
      shared.query.push(...part.variables);
      if (part.operator === "?") shared.split = /[&?]/;
      continue;
    }
    parts.push(part);
    if (typeof part === "string") captures.push(undefined);
    else captures.push({ expression: part, query: isQuery(part) ? [...part.variables] : [], split: /&/ });
  }
  const scanned = parts.map(scannedPart);
  const head = typeof parts[0] === "string" ? parts[0] : "";
  return {
    variableNames: parsed.variables,
    match(uri) {
      if (uri.length > MAX_TEMPLATE_URI_LENGTH) return undefined;
      if (!uri.startsWith(head)) return undefined; // most templates differ in scheme or path head
      const spans = scanUri(scanned, uri);
      if (!spans) return undefined;
      const variables: Record<string, string> = {};
      for (const [index, capture] of captures.entries()) {
        if (!capture) continue;
        const text = uri.slice(...spans[index]);
        if (text === "") continue;
        const { expression, query, split } = capture;
        const values = query.length > 0 ? readQuery(text.slice(1), query, split) : readExpression(expression, text);
        if (!values) return undefined;
        for (const [name, value] of values) {
          if (Object.hasOwn(variables, name) && variables[name] !== value) return undefined;
          setOwn(variables, name, value);
        }
      }
      return variables;
    },
  };
}

function readExpression(expression: UriExpression, text: string): Array<[string, string]> | undefined {
  const rule = RULES[expression.operator];
  const body = text.slice(rule.first.length);
  const pieces = expression.variables.length === 1 && !rule.named ? [body] : body.split(rule.separator);
  if (pieces.length > expression.variables.length) return undefined;
  const values: Array<[string, string]> = [];
  for (const [index, piece] of pieces.entries()) {
    const [name, value] = rule.named ? splitNamed(piece) : [expression.variables[index].name, safeDecode(piece)];
    const { variables } = expression;
    const variable = rule.named ? variables.find((candidate) => candidate.name === name) : variables[index];
    const repeated = rule.named && values.some(([seen]) => seen === name);
    if (!variable || repeated || !fitsPrefix(variable, value)) return undefined;
    values.push([name, value]);
  }
  return values;
}

// Query parameters the template does not name are ignored (a client may add its own); the first
// occurrence of a named one wins, as URLSearchParams.get does.
function readQuery(query: string, variables: UriVariable[], split: RegExp): Array<[string, string]> | undefined {
  const values = new Map<string, string>();
  for (const piece of query.split(split)) {
    const [name, value] = splitNamed(piece);
    const variable = variables.find((candidate) => candidate.name === name);
    if (!variable || values.has(name)) continue;
    if (!fitsPrefix(variable, value)) return undefined;
    values.set(name, value);
  }
  return [...values];
}

function splitNamed(piece: string): [string, string] {
  const equals = piece.indexOf("=");
  return equals < 0 ? [piece, ""] : [piece.slice(0, equals), safeDecode(piece.slice(equals + 1))];
}

function fitsPrefix(variable: UriVariable, value: string): boolean {
  return variable.prefix === undefined || [...value].length <= variable.prefix;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
