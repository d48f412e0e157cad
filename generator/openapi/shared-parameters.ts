/**
 * Parameters every operation of a document repeats (issue 33 item 9: Google's 12 "standard parameters",
 * `alt`, `fields`, `quotaUser`..., on each of Compute's 758 operations) are said once, as the server's
 * configuration, instead of in every tool's inputSchema.
 *
 * The rule, exactly: a parameter is shared when
 * - every selected operation (tools and resource templates alike) takes it, with the same name, location
 *   and definition (its schema, required, style, explode, allowReserved; descriptions may differ);
 * - it is an optional query parameter or header whose schema is a scalar (string, number, integer, boolean):
 *   an environment variable holds text, which such a parameter sends as it is;
 * - the document has at least MIN_OPERATIONS selected operations, and one of them is not a read
 *   (GET/HEAD/OPTIONS): a parameter even a write or a delete takes is about the request (format, quota,
 *   tracing), not the data asked for, where `limit` on every operation of a read-only API would be;
 * - no operation mirrors it from the client's HTTP request (`x-mcp-header`, the config's `headers`), and the
 *   config does not keep it (`sharedParameters: false`, or its name in `sharedParameters.keep`).
 * A required one is never moved (it has no default to fall back on, and a call without it fails): it stays on
 * each tool and the diagnostic says so. A moved one is sent only when its environment variable is set.
 */
import type { Report } from "../diagnostics/diagnostic.ts";
import type { SharedParameterNode } from "../ir.ts";
import { deref, isJson, type Json, resolvePointer, token } from "./document.ts";
import type { MappingConfig } from "./options.ts";
import type { Parameter } from "./request.ts";
import { envName } from "./security.ts";

/** Below this, little repeats, and a document's few operations may well each want the parameter per call. */
export const MIN_OPERATIONS = 3;
const READS = new Set(["get", "head", "options"]);
const SCALARS = new Set(["string", "number", "integer", "boolean"]);
/** RFC 9110 token characters: a header name the runtime can send as it is. */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
/** Names of parameters that carry a credential (`key`, `access_token`): their values are redacted from answers. */
const SECRET_NAME = /(^|[^a-z])(key|token|secret|password|passwd|credential|signature)s?($|[^a-z])|apikey|accesstoken/i;

export type SharedOperation = {
  method: string;
  path: string;
  parameters: Parameter[];
  /** Where each parameter was written (a component's pointer when it came by `$ref`). */
  pointerOf: (p: Parameter) => string;
};

export type SharedResult = {
  shared: SharedParameterNode[];
  /** `in:name` of every shared parameter, to leave out of each operation's own. */
  keys: Set<string>;
};

export function sharedParameters(
  root: Json,
  operations: SharedOperation[],
  serverName: string,
  config: MappingConfig,
  report: Report,
): SharedResult {
  const none: SharedResult = { shared: [], keys: new Set() };
  if (config.sharedParameters === false || operations.length < MIN_OPERATIONS) return none;
  if (operations.every((op) => READS.has(op.method))) return none;
  const [first, ...rest] = operations;
  // Each operation's parameters by identity, computed once: Compute compares ~15 parameters across 758 operations.
  const others = rest.map((op) => new Set(op.parameters.map(identity)));
  const common = first.parameters.filter(
    (p) => (p.in === "query" || p.in === "header") && others.every((keys) => keys.has(identity(p))),
  );
  const mirrored = new Set(Object.values(config.headers).flatMap((byName) => Object.keys(byName)));
  const shared: SharedParameterNode[] = [];
  const required: Parameter[] = [];
  const envs = new Set<string>();
  for (const p of common) {
    if (p["x-mcp-header"] !== undefined || mirrored.has(p.name) || config.sharedParameters.keep.includes(p.name))
      continue;
    if (p.in === "header" && !HEADER_NAME.test(p.name)) continue;
    if (!isScalar(root, p.schema)) continue;
    if (p.required === true) {
      required.push(p);
      continue;
    }
    const env = envName(serverName, "PARAM", p.name);
    if (envs.has(env)) continue; // `upload_protocol` and `uploadProtocol` would share a variable: the first moves
    envs.add(env);
    shared.push({
      name: p.name,
      in: p.in as "query" | "header",
      env,
      ...(SECRET_NAME.test(p.name) ? { secret: true as const } : {}),
      ...(typeof p.description === "string" ? { description: p.description } : {}),
      ...choices(root, p.schema),
      pointer: first.pointerOf(p),
    });
  }
  if (shared.length > 0) reportShared(shared, required, operations.length, report);
  return { shared, keys: new Set(shared.map((p) => `${p.in}:${p.name}`)) };
}

/** Name, location and definition, but not the words about it: two parameters with the same identity are the same. */
function identity(p: Parameter): string {
  const { name, in: where, schema, required, style, explode, allowReserved, content } = p;
  return JSON.stringify([name, where, schema, required === true, style, explode, allowReserved === true, content]);
}

/** A schema (its `$ref` chain followed) whose type is a scalar, or a scalar or null (OpenAPI 3.1). */
function isScalar(root: Json, schema: unknown): boolean {
  const resolved = deref(root, schema);
  if (!resolved) return false;
  const types = Array.isArray(resolved.type) ? resolved.type : [resolved.type];
  return types.some((t) => SCALARS.has(String(t))) && types.every((t) => SCALARS.has(String(t)) || t === "null");
}

function choices(root: Json, schema: unknown): { enum?: string[] } {
  const values = deref(root, schema)?.enum;
  return Array.isArray(values) ? { enum: values.map(String) } : {};
}

function reportShared(shared: SharedParameterNode[], required: Parameter[], count: number, report: Report): void {
  const list = shared.map((p) => `${p.in === "header" ? "header " : ""}${p.name} (${p.env})`).join(", ");
  const kept =
    required.length > 0
      ? `; required on every operation, so kept on each tool: ${required.map((p) => p.name).join(", ")}`
      : "";
  report(
    "OPENAPI_SHARED_PARAMETERS",
    shared[0].pointer,
    `${shared.length} optional parameter${shared.length === 1 ? " is" : "s are"} on all ${count} operations and left out of every tool's input: ${list}${kept}`,
    {
      at: "key",
      hint: "Set an environment variable above to send its value with every request (the package README lists them). To keep them as tool arguments, set sharedParameters: false (or sharedParameters: { keep: [name] }) in the OpenAPI config.",
    },
  );
}

/** Where parameter `p` of an operation was written: the component a `$ref` names, else its place in the list. */
export function parameterPointer(root: Json, path: string, method: string, item: Json, op: Json) {
  return (p: Parameter): string => {
    const lists: Array<[unknown, string]> = [
      [op.parameters, `/paths/${token(path)}/${method}/parameters`],
      [item.parameters, `/paths/${token(path)}/parameters`],
    ];
    for (const [list, at] of lists) {
      if (!Array.isArray(list)) continue;
      for (const [index, raw] of list.entries()) {
        let current: unknown = raw;
        let pointer = `${at}/${index}`;
        for (let hops = 0; hops < 32 && isJson(current) && typeof current.$ref === "string"; hops++) {
          if (current.$ref.startsWith("#")) pointer = current.$ref.slice(1);
          current = resolvePointer(root, current.$ref);
        }
        if (current === p) return pointer;
      }
    }
    return `/paths/${token(path)}`;
  };
}
