/**
 * src/types.ts: argument and result types for every tool (from its JSON Schemas, through
 * json-schema-to-typescript) and for every prompt, plus the name-to-types maps that type the client's
 * callTool and the server's handler table. All schemas compile in ONE call: json-schema-to-typescript
 * is fast once and very slow per schema with shared definitions.
 */
import { setOwn } from "../../runtime/protocol/codec.ts";
import { collectGarbage } from "../heap-growth.ts";
import type { JsonSchema } from "../ir.ts";
import type { Model } from "../normalize/normalize.ts";
import type { ToolSchemas } from "../normalize/tool-schemas.ts";
import { jsonParts, rememberedAsync } from "../output/content-cache.ts";
import { walkSchema } from "../schema/walk.ts";
import { ANY_OBJECT, formatTypeDeclarations } from "./format-types.ts";
import { header } from "./ts.ts";
import { fits, propKey } from "./ts-style.ts";
import { splitCyclicIntersections } from "./type-cycles.ts";
import { findCulprit } from "./types-culprit.ts";

export async function renderTypes(model: Model): Promise<string> {
  // The result types of list answers (typeOnly) only serve code mode's declarations: a schema there the
  // type generator cannot take (a cycle through a list's items, say) leaves them out, not the package.
  // Only the last attempt looks for the schema to blame (a search that compiles again and again).
  const kept = withoutResultTypes(model.toolSchemas);
  let schemaTypes: string;
  try {
    schemaTypes = await compileSchemas(model.toolSchemas, kept === undefined);
  } catch (error) {
    if (kept === undefined) throw error;
    schemaTypes = await compileSchemas(kept, true);
  }
  // The type generator's model of every type is garbage now (heap-growth.ts).
  collectGarbage();

  const prompts = model.prompts.map(({ node, argsType }) => {
    const fields = node.arguments.map((a) => `  ${propKey(a.name)}${a.required ? "" : "?"}: string;`);
    return fields.length > 0
      ? `export type ${argsType} = {\n${fields.join("\n")}\n};`
      : `export type ${argsType} = Record<string, never>;`;
  });
  const toolMap = model.tools.map((t) => {
    const [name, result] = [propKey(t.node.name), t.outputType ?? ANY_OBJECT];
    const line = `  ${name}: { args: ${t.inputType}; result: ${result} };`;
    return fits(line) ? line : `  ${name}: {\n    args: ${t.inputType};\n    result: ${result};\n  };`;
  });
  const promptMap = model.prompts.map((p) => `  ${propKey(p.node.name)}: ${p.argsType};`);
  // An empty map is `Record<never, never>`: no name is accepted (`{}` would be Biome's banned type).
  const map = (lines: string[]) => (lines.length > 0 ? `{\n${lines.join("\n")}\n}` : "Record<never, never>");

  return [
    header(model.specRef),
    'import type { PromptHandler, ResourceHandler, TemplateHandler, ToolHandler } from "../runtime/package/spec-server.ts";',
    "",
    formatTypeDeclarations(unshieldPrototypeNames(tidy(schemaTypes.trim())), rootTypes(model)),
    "",
    prompts.join("\n\n"),
    "",
    "/** Every tool by name: its arguments and its structured result. */",
    `export type ToolMap = ${map(toolMap)};`,
    "",
    "/** Every prompt by name: its arguments. */",
    `export type PromptMap = ${map(promptMap)};`,
    "",
  ].join("\n");
}

/**
 * Every schema's types in one compile. On failure, with `blame`, an error naming the schema that broke it
 * (RENDER_FAILED points there); without, the type generator's own error.
 */
async function compileSchemas(toolSchemas: ToolSchemas, blame: boolean): Promise<string> {
  try {
    return await cachedTypes(combinedDocument(toolSchemas).combined);
  } catch (error) {
    if (!blame) throw error;
    // The failed compile used its document up (cachedTypes): the search starts from a fresh one.
    const { defs, sources } = combinedDocument(toolSchemas);
    const culprit = await findCulprit(defs, (root) => compileTypes(root, false));
    const message = error instanceof Error ? error.message : String(error);
    const where = culprit === undefined ? "" : ` (type ${(defs[culprit].title as string) ?? culprit})`;
    throw Object.assign(new Error(`${message.split("\n")[0]}${where}`), {
      pointer: culprit === undefined ? undefined : sources.get(culprit)?.(),
    });
  }
}

/** The one document every type is compiled from: each schema under `$defs` (typeDefinitions), made ready for the library. */
function combinedDocument(toolSchemas: ToolSchemas): {
  combined: JsonSchema;
  defs: Record<string, JsonSchema>;
  sources: Sources;
} {
  const { defs, sources } = typeDefinitions(toolSchemas);
  shieldPrototypeNames(defs);
  const combined: JsonSchema = { title: "SchemaTypes", type: "object", $defs: defs };
  splitCyclicIntersections(combined);
  return { combined, defs, sources };
}

/** The schemas without the result types and the shared definitions only they use; undefined when there are none. */
function withoutResultTypes({ schemas, shared }: ToolSchemas): ToolSchemas | undefined {
  if (!schemas.some((schema) => schema.typeOnly)) return undefined;
  const kept = schemas.filter((schema) => !schema.typeOnly);
  const used = new Set(kept.flatMap((schema) => schema.uses));
  return { schemas: kept, shared: shared.filter((def) => used.has(def.id)) };
}

/** The names of the tools' own argument and result types. */
function rootTypes(model: Model): Set<string> {
  return new Set(
    model.tools.flatMap((t) => [
      t.inputType,
      ...(t.outputType ? [t.outputType] : []),
      ...(t.resultType ? [t.resultType] : []),
    ]),
  );
}

/**
 * The types of the combined document, from the cache when an earlier run compiled the same one (the
 * slowest step of rendering). The document is used up: compiled in place, not copied first.
 */
function cachedTypes(root: JsonSchema): Promise<string> {
  return rememberedAsync(
    "types",
    // In parts: Graph's is 100+ MB of JSON.
    () => jsonParts(root, 3),
    () => compileTypes(root, true, true),
  );
}

/**
 * json-schema-to-typescript (with lodash and prettier, 0.2 s to load) loads only when there are types to
 * compile. `usedUp`: `root` is not needed afterwards, so the library may change it instead of copying it
 * (types-in-place.ts); the culprit search compiles the same definitions again and again, so it may not.
 */
async function compileTypes(root: JsonSchema, unreachableDefinitions: boolean, usedUp = false): Promise<string> {
  const options = {
    bannerComment: "",
    format: false,
    additionalProperties: false,
    unreachableDefinitions,
    strictIndexSignatures: true,
    unknownAny: true,
    // Every $ref is local by now (validate rejects unresolvable ones); never reach out to files or the network.
    $refOptions: { resolve: { file: false, http: false } } as never,
  };
  if (usedUp) {
    const { compileInPlace } = await import("./types-in-place.ts");
    return compileInPlace(root as never, "SchemaTypes", options);
  }
  const { compile } = await import("json-schema-to-typescript");
  return compile(root as never, "SchemaTypes", options);
}

/** Each type's key → the spec pointer of the schema it comes from; asked only when rendering fails. */
type Sources = Map<string, () => string | undefined>;

/**
 * The combined document's `$defs`: every shared definition under its id, then every tool schema under
 * its type name (the order json-schema-to-typescript declares them in).
 */
function typeDefinitions({ schemas, shared }: ToolSchemas): {
  defs: Record<string, JsonSchema>;
  sources: Sources;
} {
  const local = new Map(shared.map((def) => [def.uri, `#/$defs/${def.id}`]));
  const defs: Record<string, JsonSchema> = {};
  const sources: Sources = new Map();
  for (const def of shared) {
    defs[def.id] = prepare(def.schema, def.id, def.typeName, {}, local);
    sources.set(def.id, def.source);
  }
  for (const schema of schemas) {
    defs[schema.typeName] = prepare(schema.schema, schema.typeName, schema.typeName, schema.ownTypeNames, local);
    sources.set(schema.typeName, () => schema.source);
  }
  return { defs, sources };
}

/**
 * A copy of a schema ready to sit under the combined document's $defs at `at`: titled with our type
 * name, nested titles dropped (they would mint type names that could clash with ours), its own
 * definitions titled with the names normalize gave them (`ownTypeNames`), local `$ref`s rewritten to point into its new place, and
 * references to shared definitions (`shared`: URI → local ref) to theirs.
 */
function prepare(
  schema: JsonSchema,
  at: string,
  typeName: string,
  ownTypeNames: { [definition: string]: string },
  shared: Map<string, string>,
): JsonSchema {
  const copy = structuredClone(schema) as JsonSchema;
  const base = `#/$defs/${at}`;
  walkSchema(copy, (node, chain) => {
    if (chain.length > 0) delete node.title;
    // json-schema-to-typescript pastes `tsType` into the output verbatim: from a spec, that is code injection.
    delete node.tsType;
    delete node.tsEnumNames;
    const last = chain.at(-1);
    if (last && (last[0] === "$defs" || last[0] === "definitions") && chain.length === 1) {
      const name = last[1] ?? "";
      if (Object.hasOwn(ownTypeNames, name)) node.title = ownTypeNames[name];
    }
    if (typeof node.$ref === "string") {
      if (node.$ref.startsWith("#")) node.$ref = base + node.$ref.slice(1);
      else node.$ref = shared.get(node.$ref) ?? node.$ref;
    }
    delete node.$id;
  });
  delete copy.$schema;
  copy.title = typeName;
  return copy;
}

/** Drops json-schema-to-typescript's "referenced by" comments: noise on every declaration. */
function tidy(code: string): string {
  return code.replace(
    /\/\*\*\n \* This interface was referenced by [^\n]*\n \* via the `definition` [^\n]*\n \*\/\n/g,
    "",
  );
}

/**
 * json-schema-to-typescript calls `schema.hasOwnProperty(...)` on every object it walks, so a property
 * *named* `hasOwnProperty` (any prototype method name, to be safe) makes it throw. Such property names
 * go in as a placeholder and come back out of the generated code under their own name.
 */
const SHIELDED = Object.getOwnPropertyNames(Object.prototype);
const PLACEHOLDER = "McpgenPrototypeName_";

function shieldPrototypeNames(defs: Record<string, JsonSchema>): void {
  for (const def of Object.values(defs)) {
    walkSchema(def, (node) => {
      for (const keyword of Object.keys(node)) {
        // A keyword spelled like a prototype method is no JSON Schema keyword: it only trips the library.
        if (SHIELDED.includes(keyword)) delete node[keyword];
      }
      const properties = node.properties;
      if (properties && typeof properties === "object" && !Array.isArray(properties)) {
        const renamed: JsonSchema = {};
        for (const [name, sub] of Object.entries(properties)) {
          setOwn(renamed, SHIELDED.includes(name) ? PLACEHOLDER + name : name, sub);
        }
        node.properties = renamed;
      }
      if (Array.isArray(node.required)) {
        node.required = node.required.map((name) => (SHIELDED.includes(name) ? PLACEHOLDER + name : name));
      }
    });
  }
}

function unshieldPrototypeNames(code: string): string {
  return code.replace(new RegExp(`\\b${PLACEHOLDER}(\\w+)\\b`, "g"), (_, name: string) => name);
}
