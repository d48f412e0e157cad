/**
 * How the tools' JSON Schemas become TypeScript types (src/types.ts) and ajv validators
 * (src/validators/*.cjs), decided once here so both renderers compile the same thing: which schemas
 * share definitions, and the type name of every shared definition.
 *
 * Spec-language schemas are written per tool and stay self-contained: a schema's own `$defs` are part
 * of its type. An OpenAPI tool carries its own copy of every component schema it reaches (MCP wants
 * self-contained schemas in tools/list); compiled per tool, a GitHub-sized API would hand tsc and ajv
 * a thousand copies of the same objects. So each distinct component becomes one shared definition,
 * and every tool schema refers to it by its URI.
 */
import { setOwn } from "../../runtime/protocol/codec.ts";
import type { JsonSchema, ServerNode, ToolNode } from "../ir.ts";
import { type NameAllocator, pascalCase } from "./naming.ts";
import { shareDefs } from "./shared-defs.ts";

/** Where shared definitions live: validators give each this `$id`, types map it into their own `$defs`. */
export const SHARED_DEFINITION_BASE = "https://mcpgen.invalid/defs/";

/** A definition several tool schemas share: one type and one validator function for all of them. */
export type SharedDefinition = {
  /** A content id (same name, same content, same references: same id). */
  id: string;
  /** How tool schemas and other definitions refer to it (`$ref`). */
  uri: string;
  typeName: string;
  schema: JsonSchema;
  /** The document pointer it was converted from; asked only when rendering fails. */
  source: () => string | undefined;
};

/**
 * One tool's input or output schema, as both the types and the validators compile it; or its result
 * schema (`typeOnly`), which only the types compile.
 */
export type ToolSchema = {
  typeOnly?: true;
  /** The tool's index in the model (validators are chunked by tool). */
  tool: number;
  typeName: string;
  validatorName: string;
  /** Shared definitions are referred to by their `uri`; anything left in its own `$defs` is its own. */
  schema: JsonSchema;
  /** The type name of each definition in its own `$defs` (or draft-07 `definitions`): `<Type>_<Name>`. */
  ownTypeNames: { [definition: string]: string };
  /** The id of every shared definition it needs, directly or through other definitions. */
  uses: string[];
  /** The pointer a render failure is reported at. */
  source: string;
};

export type ToolSchemas = { schemas: ToolSchema[]; shared: SharedDefinition[] };

/** The names normalize gave a tool; its schemas are compiled under them. */
export type NamedTool = {
  node: ToolNode;
  inputType: string;
  outputType?: string;
  resultType?: string;
  validateInput: string;
  validateOutput?: string;
};

/** `typeNames` already holds every other type name of the package: shared definitions steer around them. */
export function planToolSchemas(server: ServerNode, tools: NamedTool[], typeNames: NameAllocator): ToolSchemas {
  const schemas = tools.flatMap((tool, index) => {
    const own: ToolSchema[] = [toolSchema(index, tool.inputType, tool.validateInput, tool.node, "inputSchema")];
    if (tool.outputType && tool.validateOutput && tool.node.outputSchema) {
      own.push(toolSchema(index, tool.outputType, tool.validateOutput, tool.node, "outputSchema"));
    }
    return own;
  });
  // Result schemas last: a definition they share with the others is then taken from an input or output
  // schema first, as it was before they existed (shared-defs.ts keeps the first occurrence's examples).
  tools.forEach((tool, index) => {
    if (tool.resultType && tool.node.resultSchema) {
      schemas.push({ ...toolSchema(index, tool.resultType, "", tool.node, "resultSchema"), typeOnly: true });
    }
  });
  return server.origin === "openapi" ? shareComponents(server, tools, schemas, typeNames) : { schemas, shared: [] };
}

function toolSchema(
  tool: number,
  typeName: string,
  validatorName: string,
  node: ToolNode,
  field: "inputSchema" | "outputSchema" | "resultSchema",
): ToolSchema {
  const schema = node[field] as JsonSchema;
  const ownTypeNames = ownTypeNamesOf(schema, typeName);
  return { tool, typeName, validatorName, schema, ownTypeNames, uses: [], source: `${node.loc.pointer}/${field}` };
}

function ownTypeNamesOf(schema: JsonSchema, typeName: string): { [definition: string]: string } {
  const names: { [definition: string]: string } = {};
  for (const keyword of ["$defs", "definitions"]) {
    const defs = schema[keyword];
    if (!defs || typeof defs !== "object" || Array.isArray(defs)) continue;
    for (const name of Object.keys(defs)) setOwn(names, name, `${typeName}_${pascalCase(name)}`);
  }
  return names;
}

function shareComponents(
  server: ServerNode,
  tools: NamedTool[],
  own: ToolSchema[],
  typeNames: NameAllocator,
): ToolSchemas {
  const { roots, defs, uses } = shareDefs(
    own.map((s) => s.schema),
    (id) => `${SHARED_DEFINITION_BASE}${id}`,
  );
  // The first converted object of each $defs name: where a definition comes from in the document.
  const firstDef = new Map<string, JsonSchema>();
  for (const { schema } of own) {
    for (const [name, def] of Object.entries((schema.$defs ?? {}) as Record<string, JsonSchema>)) {
      if (!firstDef.has(name)) firstDef.set(name, def);
    }
  }
  const shared = defs.map((def): SharedDefinition => {
    const original = firstDef.get(def.name);
    return {
      id: def.id,
      uri: `${SHARED_DEFINITION_BASE}${def.id}`,
      typeName: typeNames.take(pascalCase(def.name)),
      schema: def.schema,
      // Read when asked: the lookup is narrowed once the rules are done (openapi/load-openapi.ts).
      source: () => (original ? server.sourceOf?.(original) : undefined),
    };
  });
  // The document has no `inputSchema` of its own: a failure points at the operation.
  const schemas = own.map((s, i) => ({
    ...s,
    schema: roots[i],
    // Its own definitions are shared ones now: none is left to name.
    ownTypeNames: ownTypeNamesOf(roots[i], s.typeName),
    uses: uses[i],
    source: tools[s.tool].node.loc.pointer,
  }));
  return { schemas, shared };
}
