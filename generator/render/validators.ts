/**
 * src/validators.js: every tool's input and output schema compiled ahead of time into ajv standalone
 * code, so the server compiles no schema at start-up. ajv emits `require` even for ES modules, so the
 * module makes its own `require` with createRequire.
 */
import standaloneModule from "ajv/dist/standalone/index.js";
import { Ajv2020, AjvDraft07, type AnyAjv, addFormats } from "../ajv.ts";
import type { JsonSchema } from "../ir.ts";
import type { Model } from "../normalize.ts";
import { shareDefs } from "../openapi/shared-defs.ts";
import { dialectOf } from "../schema-dialect.ts";
import { header } from "./ts.ts";

const SHARED_BASE = "https://mcpgen.invalid/defs/";

type Standalone = (ajv: AnyAjv, refs: Record<string, string>) => string;
const standaloneCode: Standalone =
  (standaloneModule as unknown as { default?: Standalone }).default ?? (standaloneModule as unknown as Standalone);

export function renderValidators(model: Model): { js: string; dts: string } {
  const options = {
    code: { source: true, esm: true, lines: true },
    allErrors: true,
    strict: false,
    logger: false,
    // Shared OpenAPI components stay one function each instead of being pasted into every caller.
    inlineRefs: model.server.origin !== "openapi",
  } as const;
  const byDialect = { "2020-12": addFormats(new Ajv2020(options)), "draft-07": addFormats(new AjvDraft07(options)) };
  const exports: Record<"2020-12" | "draft-07", Record<string, string>> = { "2020-12": {}, "draft-07": {} };
  const add = (schema: JsonSchema, name: string) => {
    const dialect = dialectOf(schema);
    const which = typeof dialect === "string" ? dialect : "2020-12";
    // Keyed by our validator name, so a user's $id can never make two tools share a validator.
    const { $id: _ignored, ...withoutId } = schema;
    byDialect[which].addSchema(withoutId, name);
    exports[which][name] = name;
  };
  const entries: Array<[string, JsonSchema]> = [];
  for (const tool of model.tools) {
    entries.push([tool.validateInput, tool.node.inputSchema]);
    if (tool.validateOutput && tool.node.outputSchema) entries.push([tool.validateOutput, tool.node.outputSchema]);
  }
  if (model.server.origin === "openapi") {
    // OpenAPI tools share component schemas: compile each once and let the tools refer to it, instead
    // of a copy per tool (tens of megabytes of validator code for a GitHub-sized API).
    const { roots, defs } = shareDefs(
      entries.map(([, schema]) => schema),
      (id) => `${SHARED_BASE}${id}`,
    );
    for (const def of defs) byDialect["2020-12"].addSchema({ ...def.schema, $id: `${SHARED_BASE}${def.id}` });
    entries.forEach(([name], i) => {
      add(roots[i], name);
    });
  } else for (const [name, schema] of entries) add(schema, name);

  // Each dialect's code declares the same internal names (validate10, schema11...), so each lives in
  // its own function scope and the module re-exports what those scopes return.
  const parts: string[] = [];
  const names: string[] = [];
  for (const dialect of ["2020-12", "draft-07"] as const) {
    const exported = Object.keys(exports[dialect]);
    if (exported.length === 0) continue;
    const code = standaloneCode(byDialect[dialect], exports[dialect])
      .replace(/^"use strict";/, "")
      .replace(/export const (\w+) = /g, "const $1 = ");
    const scope = dialect === "2020-12" ? "dialect202012" : "dialectDraft07";
    parts.push(`const ${scope} = (() => {\n${code}\nreturn { ${exported.join(", ")} };\n})();`);
    parts.push(...exported.map((name) => `export const ${name} = ${scope}.${name};`));
    names.push(...exported);
  }
  const js = [
    header(model.specRef),
    'import { createRequire } from "node:module";',
    "const require = createRequire(import.meta.url);",
    ...parts,
    "",
  ].join("\n");
  const dts = [
    header(model.specRef),
    "type Validator = ((data: unknown) => boolean) & { errors?: Array<{ instancePath?: string; message?: string }> | null };",
    ...names.map((name) => `export declare const ${name}: Validator;`),
    // A spec without tools has no validators; the file must still be a module for app.ts to import.
    ...(names.length === 0 ? ["export {};"] : []),
    "",
  ].join("\n");
  return { js, dts };
}
