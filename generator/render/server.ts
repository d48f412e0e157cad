/**
 * src/app.ts wires the manifest, validators and user handlers into a server (importable by tests and
 * by other programs); src/server.ts is the entry point that serves it over stdio or HTTP.
 */
import type { HandlerRef, Model } from "../normalize.ts";
import { header, lit, valueKey } from "./ts.ts";
import { chunkOfTool } from "./validators.ts";

/** `./handlers/...` import path of a handler file, relative to src/. */
const importPath = (ref: HandlerRef) => `./${ref.file.replace(/^src\//, "")}`;

export function renderApp(model: Model): string {
  const refs = [
    ...model.tools.map((t) => t.handler),
    ...model.resources.map((r) => r.handler),
    ...model.templates.map((t) => t.handler),
    ...model.prompts.map((p) => p.handler),
  ].filter((ref): ref is HandlerRef => ref !== undefined);

  const table = (entries: Array<[string, HandlerRef | undefined]>) => {
    const lines = entries.filter(([, ref]) => ref).map(([name, ref]) => `    ${valueKey(name)}: ${ref!.importName},`);
    return lines.length ? `{\n${lines.join("\n")}\n  }` : "{}";
  };
  const validators = model.tools.map((t, index) => {
    const chunk = chunkOfTool(index);
    const output = t.validateOutput ? `, output: validator(${chunk}, ${lit(t.validateOutput)})` : "";
    return `    ${valueKey(t.node.name)}: { input: validator(${chunk}, ${lit(t.validateInput)})${output} },`;
  });

  return [
    header(model.specRef),
    'import type { McpServer } from "../runtime/index.ts";',
    "import {",
    "  createSpecServer,",
    "  type SpecHandlers,",
    "  type SpecServerOptions,",
    "  type ToolValidators,",
    '} from "../runtime/spec-server.ts";',
    ...refs.map((ref) => `import ${ref.importName} from ${lit(importPath(ref))};`),
    'import { manifest } from "./manifest.ts";',
    'import type { Handlers } from "./types.ts";',
    ...(validators.length > 0 ? ['import { validator } from "./validators.ts";'] : []),
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
    `  return {\n${validators.join("\n")}\n  };`,
    "}",
    "",
    "export { manifest };",
    "",
    "/** The server, ready for a transport (serveStdio or serveHttp from the runtime). */",
    'export function createAppServer(options: Omit<SpecServerOptions, "handlers" | "validators"> = {}): McpServer {',
    "  return createSpecServer(manifest, { ...options, handlers: handlers as SpecHandlers, validators: toolValidators });",
    "}",
    "",
  ].join("\n");
}

export function renderServerEntry(model: Model): string {
  return [
    header(model.specRef),
    "// Serves MCP over stdio, or Streamable HTTP with --http --port <n> [--host <addr>]; --base-url <url> retargets the upstream.",
    'import { runSpecServer } from "../runtime/spec-main.ts";',
    'import type { SpecHandlers } from "../runtime/spec-server.ts";',
    'import { handlers, manifest, toolValidators } from "./app.ts";',
    "",
    "await runSpecServer(manifest, { handlers: handlers as SpecHandlers, validators: toolValidators });",
    "",
  ].join("\n");
}

/** The `Handlers` type, appended to src/types.ts: one typed slot per entry that a user handler serves. */
export function renderHandlersType(model: Model): string {
  const slots = (lines: string[]) => (lines.length ? `{\n${lines.join("\n")}\n  }` : "Record<string, never>");
  const tools = model.tools
    .filter((t) => t.handler)
    .map(
      (t) => `    ${lit(t.node.name)}: ToolHandler<${t.inputType}, ${t.outputType ?? "{ [key: string]: unknown }"}>;`,
    );
  const resources = model.resources.filter((r) => r.handler).map((r) => `    ${lit(r.node.uri)}: ResourceHandler;`);
  const templates = model.templates
    .filter((t) => t.handler)
    .map((t) => `    ${lit(t.node.uriTemplate)}: TemplateHandler;`);
  const prompts = model.prompts
    .filter((p) => p.handler)
    .map((p) => `    ${lit(p.node.name)}: PromptHandler<${p.argsType}>;`);
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
