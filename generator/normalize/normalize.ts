/**
 * The normalize stage: the validated IR plus every decision the rendered package needs (type names,
 * validator names, handler files, which schema definitions are shared), taken once here so all
 * renderers agree and none needs to know which front end (spec language or OpenAPI) the IR came from.
 */

import type { ToolView } from "../../runtime/package/catalog-types.ts";
import type { PromptNode, ResourceNode, ResourceTemplateNode, ServerNode, ToolNode } from "../ir.ts";
import { toolView } from "../views/tool-view.ts";
import { forgetCompactions, PROPERTY_DESCRIPTION_LENGTH } from "./compact-schema.ts";
import { type FeatureModule, packageFeatures } from "./features.ts";
import { withFieldsArgument } from "./fields-argument.ts";
import { type ListedTool, listedTool } from "./listed-tool.ts";
import { handlerFileName, NameAllocator, pascalCase } from "./naming.ts";
import { planToolSchemas, type ToolSchemas } from "./tool-schemas.ts";
import { codeFlowSchemes, signsIn } from "./upstream-scopes.ts";

/** `formerFile`: the handler file of the name a renamed tool had (`renamedFrom`), moved to `file` once. */
export type HandlerRef = { file: string; importName: string; formerFile?: string };

export type ToolModel = {
  node: ToolNode;
  inputType: string;
  outputType?: string;
  /** The type of an answer no outputSchema describes (ToolNode.resultSchema): types only, no validator. */
  resultType?: string;
  validateInput: string;
  validateOutput?: string;
  handler?: HandlerRef;
  /** What tools/list serves where it differs from the node: compacted schemas and the like (listed-tool.ts). */
  listed: ListedTool;
  view?: ToolView; // with the apps feature: how its result is shown (generator/views/tool-view.ts)
};
export type ResourceModel = { node: ResourceNode; handler?: HandlerRef };
export type TemplateModel = { node: ResourceTemplateNode; handler?: HandlerRef };
export type PromptModel = { node: PromptNode; argsType: string; handler?: HandlerRef };

export type Model = {
  server: ServerNode;
  /** The spec's path as the do-not-edit header names it (relative to the output directory). */
  specRef: string;
  packageName: string;
  tools: ToolModel[];
  resources: ResourceModel[];
  templates: TemplateModel[];
  prompts: PromptModel[];
  /** Every tool schema under its type and validator names, and the definitions they share. */
  toolSchemas: ToolSchemas;
  /** The runtime features the package carries, decided once here (the asked ones, else the defaults). */
  features: readonly FeatureModule[];
};

/** Type names the generated files declare themselves; spec-derived names steer around them. */
const RESERVED = ["ToolMap", "PromptMap", "Handlers", "SchemaTypes", "Client", "ToolResult"];

export function normalize(server: ServerNode, specRef: string): Model {
  const types = new NameAllocator(RESERVED);
  const imports = new NameAllocator();

  const descriptionLength = Math.min(PROPERTY_DESCRIPTION_LENGTH, server.maxDescriptionLength ?? Infinity);
  const tools = server.tools.map(withFieldsArgument).map((node): ToolModel => {
    const base = types.take(pascalCase(node.name));
    return {
      node,
      listed: listedTool(node, { descriptionLength }),
      inputType: `${base}Input`,
      ...(node.outputSchema ? { outputType: `${base}Output`, validateOutput: `validate${base}Output` } : {}),
      ...(node.resultSchema ? { resultType: `${base}Result` } : {}),
      validateInput: `validate${base}Input`,
      ...(node.http ? {} : { handler: toolHandler(node, imports) }),
    };
  });
  forgetCompactions();

  const clashing = (nodes: Array<{ name: string }>) => {
    const counts = new Map<string, number>();
    for (const { name } of nodes) counts.set(name, (counts.get(name) ?? 0) + 1);
    return (name: string) => (counts.get(name) ?? 0) > 1;
  };
  const resourceClash = clashing(server.resources);
  const resources = server.resources.map(
    (node): ResourceModel => ({
      node,
      ...(node.content || node.http
        ? {}
        : { handler: handlerRef("resources", node.name, node.uri, resourceClash(node.name), imports) }),
    }),
  );
  const templateClash = clashing(server.resourceTemplates);
  const templates = server.resourceTemplates.map(
    (node): TemplateModel => ({
      node,
      ...(node.http
        ? {}
        : {
            handler: handlerRef("resource-templates", node.name, node.uriTemplate, templateClash(node.name), imports),
          }),
    }),
  );
  const prompts = server.prompts.map(
    (node): PromptModel => ({
      node,
      argsType: `${types.take(pascalCase(node.name))}PromptArgs`,
      ...(node.messages ? {} : { handler: handlerRef("prompts", node.name, node.name, false, imports) }),
    }),
  );

  // A second allocator: shared definitions may take a name a tool's base name holds ("Pet" beside
  // "PetInput"), not one of the type names themselves.
  const typeNames = new NameAllocator([
    ...RESERVED,
    ...tools.flatMap((t) => [t.inputType, t.outputType ?? "", t.resultType ?? ""]),
    ...prompts.map((p) => p.argsType),
  ]);
  const toolSchemas = planToolSchemas(server, tools, typeNames);
  const signInSchemes = codeFlowSchemes(server);
  const features = packageFeatures(server.features, tools.length, {
    tasks: server.tools.some((tool) => tool.http?.task || tool.task),
    views: server.tools.some((tool) => tool.ui && tool.ui.value !== false),
    signIn: [...server.tools, ...server.resources, ...server.resourceTemplates].some((node) =>
      signsIn(node.http, signInSchemes),
    ),
  });
  if (features.some((feature) => feature.name === "apps"))
    for (const tool of tools) {
      const view = toolView(tool.node, server.tools);
      if (view) tool.view = view;
    }
  return {
    server,
    specRef,
    packageName: packageNameOf(server.name),
    tools,
    resources,
    templates,
    prompts,
    toolSchemas,
    features,
  };
}

function toolHandler(node: ToolNode, imports: NameAllocator): HandlerRef {
  const ref = handlerRef("tools", node.name, node.name, false, imports);
  const former = node.renamedFrom;
  return former ? { ...ref, formerFile: `src/handlers/tools/${handlerFileName(former, former, false)}.ts` } : ref;
}

function handlerRef(
  folder: string,
  name: string,
  identity: string,
  clashes: boolean,
  imports: NameAllocator,
): HandlerRef {
  const file = `src/handlers/${folder}/${handlerFileName(name, identity, clashes)}.ts`;
  const importName = imports.take(
    `${folder.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()).replace(/s$/, "")}${pascalCase(name)}`,
  );
  return { file, importName };
}

/** An npm package name from the server name: lower case, URL-safe, at most 214 characters. */
function packageNameOf(name: string): string {
  const cleaned = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[._-]+|[._-]+$/g, "");
  return `${cleaned || "mcp-server"}-mcp`.slice(0, 214);
}
