// `_fields` (declared by generator/normalize/fields-argument.ts): only the named fields of a JSON answer, by dotted
// paths from the root; arrays are transparent (`user.login` on a list of issues keeps each issue's `user.login`).
import { ownValue, setOwn } from "../protocol/codec.ts";
import type { JsonObject, Validator } from "../protocol/types.ts";
import type { ToolHandlerResult } from "../server/types.ts";
import type { ToolAnswer } from "../upstream/response.ts";

/** A tool with a real argument of this name keeps its own and gets no selection. */
export const FIELDS_ARGUMENT = "_fields";
/** Where results say why they are partial (a `_meta` key with our own prefix, as the spec's key rules ask). */
export const RESPONSE_META = "dev.mcpgen/response";
export const OUTPUT_MISMATCH_META = "dev.mcpgen/outputMismatch"; // why an answer is an error result (code-mode.ts)
type FieldTree = { [key: string]: FieldTree | true };

/** Dotted paths as a tree; a path that names a whole field wins over longer paths inside it. */
function fieldTree(paths: readonly string[]): FieldTree {
  const tree: FieldTree = {};
  for (const path of paths) {
    const keys = path.split(".").filter((key) => key !== "");
    let node = tree;
    for (const [index, key] of keys.entries()) {
      const existing = ownValue(node, key);
      if (existing === true) break; // the whole field is selected already
      const child = index === keys.length - 1 ? true : (existing ?? {});
      setOwn(node, key, child);
      if (child !== true) node = child;
    }
  }
  return tree;
}

function select(value: unknown, tree: FieldTree): unknown {
  if (Array.isArray(value)) return value.map((item) => select(item, tree));
  if (value === null || typeof value !== "object") return value; // `user.login` where user is null: null
  const picked: Record<string, unknown> = {};
  // In the answer's own order, own keys only (a field named `__proto__` is data, not a prototype).
  for (const key of Object.keys(value)) {
    const wanted = ownValue(tree, key);
    if (wanted === undefined) continue;
    const field = (value as Record<string, unknown>)[key];
    setOwn(picked, key, wanted === true ? field : select(field, wanted));
  }
  return picked;
}

export function selectFields(value: unknown, paths: readonly string[]): unknown {
  return select(value, fieldTree(paths));
}

/** Splits `_fields` off the arguments: it is for this server, never sent upstream. */
export function takeFields(args: Record<string, unknown>): { args: Record<string, unknown>; fields?: string[] } {
  if (!Object.hasOwn(args, FIELDS_ARGUMENT)) return { args };
  const { [FIELDS_ARGUMENT]: fields, ...rest } = args;
  const paths = Array.isArray(fields) ? fields.filter((f): f is string => typeof f === "string") : [];
  return paths.length > 0 ? { args: rest, fields: paths } : { args: rest };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The answer with `_fields` applied (`_meta` names them); `note`, appended after any cut, says the answer was not
 * JSON; `json`: the answer's JSON as the result now holds it. */
export function selectAnswer(
  answer: ToolAnswer,
  fields: string[] | undefined,
  validateOutput: Validator | undefined,
): { result: ToolHandlerResult; json?: unknown; note?: string } {
  const { result, json } = answer;
  if (!fields || result.isError) return { result, json };
  if (json === undefined) return { result, note: "(_fields was not applied: the answer is not JSON.)" };
  const value = selectFields(json, fields);
  const { structuredContent: _whole, ...rest } = result;
  const selected: ToolHandlerResult = {
    ...rest,
    content: [{ type: "text", text: JSON.stringify(value) }],
    ...(isObject(value) ? { structuredContent: value } : {}),
    _meta: { ...result._meta, [RESPONSE_META]: { fields } as JsonObject },
  };
  if (validateOutput && isObject(value) && !validateOutput(value)) {
    // A selection the served outputSchema does not allow (rare: see fields-argument.ts) cannot be
    // structuredContent; an error result still carries it, so the model sees the data and why.
    const why = "The selected or shortened answer does not match this tool's outputSchema; it follows as text.";
    const { structuredContent: _dropped, ...text } = selected;
    return { result: { ...text, isError: true, content: [{ type: "text", text: why }, ...(text.content ?? [])] } };
  }
  return { result: selected, json: value };
}
