/**
 * src/app.ts wires the definition, validators and user handlers into a server (importable by tests and
 * by other programs); src/server.ts is the entry point that serves it over stdio or HTTP.
 */

import { absentFeatures, featureFlagSets } from "../normalize/features.ts";
import type { HandlerRef, Model } from "../normalize/normalize.ts";
import { forwardsUpstream } from "./credentials-hook.ts";
import { ANY_OBJECT } from "./format-types.ts";
import { header } from "./ts.ts";
import { dataLiteral } from "./ts-data-literal.ts";
import { argumentList, fits, importLine, objectKey, propKey, sortImports, str } from "./ts-style.ts";
import { chunkOfTool } from "./validators.ts";

/** `./handlers/...` import path of a handler file, relative to src/. */
const importPath = (ref: HandlerRef) => `./${ref.file.replace(/^src\//, "")}`;

/** `key: value,` at `indent`, or the value on the next line when the pair is too long for one. */
const property = (indent: string, key: string, value: string) => {
  const line = `${indent}${key}: ${value},`;
  return fits(line) ? line : `${indent}${key}:\n${indent}  ${value},`;
};

export function renderApp(model: Model): string {
  const refs = [
    ...model.tools.map((t) => t.handler),
    ...model.resources.map((r) => r.handler),
    ...model.templates.map((t) => t.handler),
    ...model.prompts.map((p) => p.handler),
  ].filter((ref): ref is HandlerRef => ref !== undefined);

  const table = (entries: Array<[string, HandlerRef | undefined]>) => {
    const lines = entries
      .filter((entry): entry is [string, HandlerRef] => entry[1] !== undefined)
      .map(([name, ref]) => property("    ", objectKey(name), ref.importName));
    return lines.length ? `{\n${lines.join("\n")}\n  }` : "{}";
  };
  const validators = model.tools.map((t, index) => {
    const chunk = String(chunkOfTool(index));
    const fields = [["input", t.validateInput], ...(t.validateOutput ? [["output", t.validateOutput]] : [])];
    const key = objectKey(t.node.name);
    const flat = `    ${key}: { ${fields.map(([k, v]) => `${k}: validator(${chunk}, ${str(v)})`).join(", ")} },`;
    if (fits(flat)) return flat;
    const lines = fields.map(([k, v]) => argumentList(`${k}: validator`, [chunk, str(v)], ",", "      "));
    return `    ${key}: {\n${lines.join("\n")}\n    },`;
  });

  const upstream = forwardsUpstream(model);
  const features = model.features;
  const imports = sortImports([
    ...features.map((feature) => ({
      source: `../runtime/features/${feature.file}`,
      text: `import { ${feature.exportName} } from "../runtime/features/${feature.file}";`,
    })),
    { source: "../runtime/package/feature.ts", text: 'import type { Feature } from "../runtime/package/feature.ts";' },
    { source: "../runtime/server/server.ts", text: 'import type { McpServer } from "../runtime/server/server.ts";' },
    {
      source: "../runtime/package/spec-server.ts",
      text: importLine(
        ["createSpecServer", "type SpecServerOptions", "type ToolValidators"],
        "../runtime/package/spec-server.ts",
      ),
    },
    ...refs.map((ref) => ({ source: importPath(ref), text: `import ${ref.importName} from ${str(importPath(ref))};` })),
    ...(upstream ? [{ source: "./credentials.ts", text: 'import credentials from "./credentials.ts";' }] : []),
    { source: "./definition.ts", text: 'import { definition } from "./definition.ts";' },
    { source: "./types.ts", text: 'import type { Handlers } from "./types.ts";' },
    ...(validators.length > 0
      ? [{ source: "./validators.ts", text: 'import { validator } from "./validators.ts";' }]
      : []),
  ]);

  return [
    header(model.specRef),
    ...imports,
    "",
    "/** Your handlers, typed per tool, resource and prompt: a wrong signature fails to compile here. */",
    "export const handlers: Handlers = {",
    `  tools: ${table(model.tools.map((t) => [t.node.name, t.handler]))},`,
    `  resources: ${table(model.resources.map((r) => [r.node.uri, r.handler]))},`,
    `  resourceTemplates: ${table(model.templates.map((t) => [t.node.uriTemplate, t.handler]))},`,
    `  prompts: ${table(model.prompts.map((p) => [p.node.name, p.handler]))},`,
    "};",
    "",
    "/**",
    " * Precompiled input and output validators by tool name. Made when the catalog is first read, not at",
    " * start-up, and each loads its chunk of compiled code on its first call.",
    " */",
    "export function toolValidators(): ToolValidators {",
    validators.length > 0 ? `  return {\n${validators.join("\n")}\n  };` : "  return {};",
    "}",
    "",
    "/** The runtime features this package was generated with (modes, HTTP parts). */",
    featureList(features.map((feature) => feature.exportName)),
    "",
    upstream ? "export { credentials, definition };" : "export { definition };",
    "",
    "/** The server, ready for a transport (serveStdio or serveHttp from the runtime). */",
    'export function createAppServer(options: Omit<SpecServerOptions, "handlers" | "validators"> = {}): McpServer {',
    upstream
      ? "  return createSpecServer(definition, { credentials, features, ...options, handlers, validators: toolValidators });"
      : "  return createSpecServer(definition, { features, ...options, handlers, validators: toolValidators });",
    "}",
    "",
  ].join("\n");
}

export function renderServerEntry(model: Model): string {
  // A package that forwards upstream passes its credentials hook (src/credentials.ts, the user's file).
  const upstream = forwardsUpstream(model);
  const absent = absentFeatures(model.features);
  const options = ["handlers", "validators: toolValidators", ...(upstream ? ["credentials"] : []), "features"];
  return [
    header(model.specRef),
    "// Serves MCP over stdio, or Streamable HTTP with --http --port <n> [--host <addr>]; --base-url <url> retargets the upstream.",
    importLine(["FlagSet"], "../runtime/package/server-flags.ts", true),
    importLine(["type AbsentFeature", "runSpecServer"], "../runtime/package/spec-main.ts"),
    importLine(
      [...(upstream ? ["credentials"] : []), "definition", "features", "handlers", "toolValidators"],
      "./app.ts",
    ),
    "",
    "/** The flags of the core and of this package's features: its command line, --help, and the docs that name them. */",
    `const flagSets: FlagSet[] = ${dataLiteral(featureFlagSets(model.features), "", 28, ";")};`,
    "",
    "/** The features this package was generated without: a flag or env twin of one exits 2 naming it. */",
    `const absentFeatures: AbsentFeature[] = ${dataLiteral(absent, "", 40, ";")};`,
    "",
    runCall([...options, "flagSets", "absentFeatures"]),
    "",
  ].join("\n");
}

/** `await runSpecServer(definition, { ... })`, its options one a line when they do not fit on one (Biome's layout). */
function runCall(options: string[]): string {
  const flat = `await runSpecServer(definition, { ${options.join(", ")} });`;
  return fits(flat) ? flat : `await runSpecServer(definition, {\n${options.map((o) => `  ${o},`).join("\n")}\n});`;
}

/** `Name<A, B>` on one line at `indent`, or its type arguments one a line (no trailing comma) when too long. */
function generic(indent: string, head: string, name: string, args: string[]): string {
  const flat = `${indent}${head}${name}<${args.join(", ")}>;`;
  if (fits(flat)) return flat;
  return `${indent}${head}${name}<\n${args.map((a) => `${indent}  ${a}`).join(",\n")}\n${indent}>;`;
}

/** The `Handlers` type, appended to src/types.ts: one typed slot per entry that a user handler serves. */
export function renderHandlersType(model: Model): string {
  const slots = (lines: string[]) => (lines.length ? `{\n${lines.join("\n")}\n  }` : "Record<string, never>");
  const tools = model.tools
    .filter((t) => t.handler)
    .map((t) => generic("    ", `${propKey(t.node.name)}: `, "ToolHandler", [t.inputType, t.outputType ?? ANY_OBJECT]));
  const resources = model.resources.filter((r) => r.handler).map((r) => `    ${propKey(r.node.uri)}: ResourceHandler;`);
  const templates = model.templates
    .filter((t) => t.handler)
    .map((t) => `    ${propKey(t.node.uriTemplate)}: TemplateHandler;`);
  const prompts = model.prompts
    .filter((p) => p.handler)
    .map((p) => generic("    ", `${propKey(p.node.name)}: `, "PromptHandler", [p.argsType]));
  return [
    "/** The handler each tool, resource, template and prompt without a built-in source needs. */",
    "export type Handlers = {",
    `  tools: ${slots(tools)};`,
    `  resources: ${slots(resources)};`,
    `  resourceTemplates: ${slots(templates)};`,
    `  prompts: ${slots(prompts)};`,
    "};",
    "",
  ].join("\n");
}

/** `export const features = [...]` on one line when it fits, else one feature a line. */
function featureList(names: string[]): string {
  const head = "export const features: readonly Feature[] = [";
  const flat = `${head}${names.join(", ")}];`;
  return fits(flat) ? flat : `${head}\n${names.map((name) => `  ${name},`).join("\n")}\n];`;
}
