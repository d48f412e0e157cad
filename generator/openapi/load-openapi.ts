/**
 * The OpenAPI front end: an OpenAPI 3.0/3.1 or Swagger 2.0 document becomes the same IR as the spec
 * language. Stages: version check → `$ref` bundling (bundle.ts) → Swagger 2.0 reshaped as 3.0
 * (swagger2.ts) → operations selected (select.ts), named (names.ts) and mapped (operation.ts).
 */
import { dirname, resolve } from "node:path";
import { ownValue, setOwn } from "../../runtime/protocol/codec.ts";
import type { DiagnosticBag, Report } from "../diagnostics/diagnostic.ts";
import type {
  ResourceTemplateNode,
  ServerNode,
  ServerVariable,
  SharedParameterNode,
  SourceLoc,
  ToolNode,
  UpstreamNode,
} from "../ir.ts";
import { toolsetName } from "../normalize/toolset-names.ts";
import { DEFAULT_MAX_BYTES, type SourceDoc } from "../source/read-source.ts";
import { bundleSync } from "./bundle.ts";
import { deref, isJson, type Json, METHODS, scanRefs, token } from "./document.ts";
import { type NameRequest, toolNames } from "./names.ts";
import { type MapContext, type OperationInput, templateFrom, toolFrom } from "./operation.ts";
import { mappingConfig, type OpenApiOptions } from "./options.ts";
import { DEFAULT_REF_TIMEOUT_MS, type RefPolicy } from "./ref-access.ts";
import { repairDocument } from "./repair.ts";
import { infoRepairs } from "./repair-info.ts";
import { mergedParameters } from "./request.ts";
import { ConvertedDefs, DefNames, type SchemaDialect } from "./schema.ts";
import { envName, requirements, securitySchemes } from "./security.ts";
import { selected } from "./select.ts";
import { parameterPointer, type SharedOperation, sharedParameters } from "./shared-parameters.ts";
import { fromSwagger2 } from "./swagger2.ts";
import { documentOperations } from "./task-detect.ts";

export function loadOpenApi(
  source: SourceDoc,
  bag: DiagnosticBag,
  options: OpenApiOptions = {},
): ServerNode | undefined {
  const { report } = source;
  const top = source.value as Json;
  const dialect = dialectOf(top);
  if (!dialect) {
    const key = Object.hasOwn(top, "openapi") ? "openapi" : "swagger";
    report(
      "OPENAPI_VERSION_UNSUPPORTED",
      `/${key}`,
      `${key}: ${JSON.stringify(top[key])} is not OpenAPI 3.0, 3.1 or Swagger 2.0`,
    );
    return undefined;
  }
  const config = mappingConfig(options, bag);
  const refs = scanRefs(top);
  for (const { pointer, ref } of refs.missing) {
    report("OPENAPI_REF_UNRESOLVED", pointer, `$ref '${ref}' points at nothing in ${source.file}`);
  }
  if (refs.missing.length > 0) return undefined;
  // Refs into other files (or URLs) need the parser; a self-contained document is used as it is.
  const bundled = refs.external
    ? bundleSync(source.file, top, refPolicy(source.file, options, config.allowRemoteRefs), source.size ?? 0)
    : { ok: true as const, document: top };
  if (!bundled.ok) {
    for (const error of bundled.errors) {
      const code = error.code ?? "OPENAPI_REF_UNRESOLVED";
      report(code, error.pointer ?? "", error.message, error.hint ? { hint: error.hint } : {});
    }
    return undefined;
  }
  // Vendor defects a safe repair handles are fixed here, once, at the document's own pointers.
  const repairs = [
    ...infoRepairs(bundled.document as Json, source.file),
    ...repairDocument(bundled.document as Json, dialect.swagger),
  ];
  for (const repair of repairs) report(repair.code, repair.pointer, repair.message);
  const root = dialect.swagger ? fromSwagger2(bundled.document as Json) : (bundled.document as Json);

  const info = root.info as Json;
  const title = info.title as string;
  const name = serverName(title);
  const loc = (pointer: string): SourceLoc => ({ file: source.file, pointer, ...source.locate(pointer) });

  const schemes = securitySchemes(root, name, report);
  const uriScheme = name.replace(/[^a-z0-9+.-]/g, "").replace(/^[^a-z]+/, "") || "api";
  const ctx: MapContext = {
    dialect: dialect.schemas,
    names: new DefNames(),
    converted: new ConvertedDefs(),
    config,
    report,
    loc,
    operations: once(() => documentOperations(root)),
  };

  type Pending = { request: NameRequest; input: Omit<OperationInput, "name">; asTemplate: boolean };
  const pending: Pending[] = [];
  const operations: SharedOperation[] = [];
  for (const [path, rawItem] of Object.entries(isJson(root.paths) ? root.paths : {})) {
    const item = deref(root, rawItem);
    if (!item) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isJson(op)) continue;
      const pointer = `/paths/${token(path)}/${method}`;
      const ext = isJson(op["x-mcp"]) ? op["x-mcp"] : {};
      const operationId = typeof op.operationId === "string" ? op.operationId : undefined;
      const tags = Array.isArray(op.tags) ? op.tags.map(String) : [];
      if (ext.exclude === true || !selected({ operationId, method, path, tags }, config.include, config.exclude))
        continue;
      const input = {
        root,
        op,
        method,
        path,
        parameters: mergedParameters(root, item.parameters, op.parameters),
        loc: loc(pointer),
        security: requirements(op, root, schemes),
        ...ownServer(op, item),
        uriScheme,
      };
      operations.push({
        method,
        path,
        parameters: input.parameters,
        pointerOf: parameterPointer(root, path, method, item, op),
      });
      pending.push({
        request: {
          key: `${method.toUpperCase()} ${path}`,
          method,
          path,
          ...(operationId ? { operationId } : {}),
          ...(typeof ext.name === "string" ? { wanted: ext.name } : {}),
        },
        input,
        asTemplate: method === "get" && (ext.resourceTemplate === true || isJson(ext.resourceTemplate)),
      });
    }
  }
  if (pending.length === 0)
    report("OPENAPI_NO_OPERATIONS", "/paths", "no operation is left to become a tool", { at: "key" });
  // Past a few thousand tools no client can choose among them, and generation would only burn memory.
  if (pending.length > config.maxTools) {
    report(
      "OPENAPI_TOO_MANY_TOOLS",
      "/paths",
      `${pending.length} operations would become tools; the limit is ${config.maxTools}`,
      { at: "key" },
    );
    return undefined;
  }
  const names = toolNames(
    pending.map((p) => p.request),
    config.maxNameLength,
  );
  // Said once, as configuration, instead of in every tool (shared-parameters.ts).
  const shared = sharedParameters(root, operations, name, config, report);
  const built = pending.map(({ request, input, asTemplate }) => {
    const own = { ...input, parameters: input.parameters.filter((p) => !shared.keys.has(`${p.in}:${p.name}`)) };
    const named = { ...own, name: names.get(request.key) ?? request.key };
    return asTemplate ? templateFrom(named, ctx) : toolFrom(named, ctx);
  });

  return {
    kind: "server",
    loc: loc(""),
    origin: "openapi",
    ...(refs.external ? { externalRefs: true as const } : {}),
    name,
    version: info.version as string,
    ...(repairs.length > 0 ? { repairs: repairs.map(({ pointer, message }) => ({ pointer, message })) } : {}),
    sourceOf: narrowable(sourceLookup(bundled.document, ctx.converted), ctx.converted.definitionPointers),
    maxDescriptionLength: config.maxDescriptionLength,
    title,
    ...(typeof info.description === "string" ? { description: info.description } : {}),
    ...registryNameOf(info, report),
    upstream: { ...upstreamOf(root, name, schemes, config, loc, report), ...sharedField(shared.shared) },
    tools: built.filter((n): n is ToolNode => n.kind === "tool"),
    ...toolsetDescriptionsOf(root),
    resources: [],
    resourceTemplates: built.filter((n): n is ResourceTemplateNode => n.kind === "resourceTemplate"),
    prompts: [],
  };
}

function sharedField(shared: SharedParameterNode[]): { sharedParameters?: SharedParameterNode[] } {
  return shared.length > 0 ? { sharedParameters: shared } : {};
}

/** `make`'s value, made on the first call: most documents never need it. */
function once<T>(make: () => T): () => T {
  let value: { made: T } | undefined;
  return () => {
    value ??= { made: make() };
    return value.made;
  };
}

/** The top-level tags' descriptions by toolset name; the first tag of a name wins when several fold into one. */
function toolsetDescriptionsOf(root: Json): { toolsetDescriptions?: Record<string, string> } {
  const descriptions: Record<string, string> = {};
  for (const tag of Array.isArray(root.tags) ? root.tags : []) {
    if (!isJson(tag) || typeof tag.name !== "string" || typeof tag.description !== "string") continue;
    const description = tag.description.trim();
    const name = toolsetName(tag.name);
    if (description !== "" && ownValue(descriptions, name) === undefined) setOwn(descriptions, name, description);
  }
  return Object.keys(descriptions).length > 0 ? { toolsetDescriptions: descriptions } : {};
}

/** What `$ref`s may read (ref-access.ts): the document's directory and --allow-ref-root, within --max-size. */
function refPolicy(file: string, options: OpenApiOptions, allowRemote: boolean): RefPolicy {
  return {
    roots: [dirname(resolve(file)), ...(options.refRoots ?? []).map((root) => resolve(root))],
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
    allowRemote,
    allowInsecure: options.allowInsecureRefs === true,
    timeoutMs: options.refTimeoutMs ?? DEFAULT_REF_TIMEOUT_MS,
  };
}

/** What each server's sourceOf becomes when the document is let go (releaseDocument). */
const narrowed = new WeakMap<object, (schema: object) => string | undefined>();

function narrowable(
  sourceOf: (schema: object) => string | undefined,
  pointers: WeakMap<object, string>,
): (schema: object) => string | undefined {
  narrowed.set(sourceOf, (schema) => pointers.get(schema));
  return sourceOf;
}

/**
 * Lets the document go once the rules are done (they point at any of its schemas): `sourceOf` then
 * knows the converted definitions alone, all that a later stage asks about (a render failure's culprit,
 * normalize/tool-schemas.ts). Microsoft Graph's document and its conversions: 26 MB held to the end.
 */
export function releaseDocument(server: ServerNode): void {
  const narrow = server.sourceOf && narrowed.get(server.sourceOf);
  if (narrow) server.sourceOf = narrow;
}

/**
 * Where a converted schema came from in the document. Asked only when a schema has a defect, so the
 * index of the document's objects is built on the first question, not for every document.
 */
function sourceLookup(document: unknown, converted: ConvertedDefs): (schema: object) => string | undefined {
  let index: WeakMap<object, string> | undefined;
  return (schema) => {
    const original = converted.origins.get(schema);
    if (!original) return undefined;
    index ??= pointerIndex(document);
    return index.get(original);
  };
}

function pointerIndex(document: unknown): WeakMap<object, string> {
  const index = new WeakMap<object, string>();
  const stack: Array<[unknown, string]> = [[document, ""]];
  while (stack.length > 0) {
    const [node, pointer] = stack.pop()!;
    if (typeof node !== "object" || node === null || index.has(node)) continue;
    index.set(node, pointer);
    for (const [key, value] of Object.entries(node)) stack.push([value, `${pointer}/${token(key)}`]);
  }
  return index;
}

type Dialect = { schemas: SchemaDialect; swagger: boolean };

function dialectOf(top: Json): Dialect | undefined {
  if (top.swagger === "2.0") return { schemas: "3.0", swagger: true };
  const version = String(top.openapi ?? "");
  if (/^3\.0\.\d+$/.test(version)) return { schemas: "3.0", swagger: false };
  if (/^3\.[12]\.\d+$/.test(version)) return { schemas: "3.1", swagger: false };
  return undefined;
}

/** "Swagger Petstore - OpenAPI 3.0" → "swagger-petstore-openapi-3.0": a lower-case, dash-separated name. */
function serverName(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9.]+/g, "-")
      .replace(/^[-.]+|[-.]+$/g, "")
      .slice(0, 64) || "api"
  );
}

function upstreamOf(
  root: Json,
  name: string,
  securitySchemes: UpstreamNode["securitySchemes"] & object,
  config: ReturnType<typeof mappingConfig>,
  loc: (pointer: string) => SourceLoc,
  report: SourceDoc["report"],
): UpstreamNode {
  const server = Array.isArray(root.servers) && isJson(root.servers[0]) ? root.servers[0] : {};
  const template = typeof server.url === "string" ? server.url : "/";
  const variables: Record<string, ServerVariable> = {};
  for (const [variable, spec] of Object.entries(isJson(server.variables) ? server.variables : {})) {
    if (!isJson(spec)) continue;
    setOwn(variables, variable, {
      default: String(spec.default ?? ""),
      env: envName(name, "SERVER", variable),
      ...(Array.isArray(spec.enum) ? { enum: spec.enum.map(String) } : {}),
    });
  }
  const filled = template.replace(/\{([^{}]+)\}/g, (_, v: string) => ownValue(variables, v)?.default ?? "");
  let baseUrl = filled;
  if (!/^https?:\/\//i.test(filled)) {
    // A relative server URL is relative to where the document is served; mcpgen cannot know that.
    baseUrl = `http://localhost${filled.startsWith("/") ? "" : "/"}${filled}`.replace(/\/$/, "");
    report("OPENAPI_SERVER_RELATIVE", "/servers", `the server URL '${template}' is relative; using ${baseUrl}`);
  }
  return {
    kind: "upstream",
    loc: loc("/servers"),
    baseUrl,
    ...(Object.keys(variables).length > 0 ? { baseUrlTemplate: template, variables } : {}),
    ...(securitySchemes.length > 0 ? { securitySchemes } : {}),
    timeoutMs: config.timeoutMs ?? 30_000,
    retry: { attempts: config.retryAttempts, maxDelayMs: 30_000 },
    ...(config.requestIdHeader ? { requestIdHeader: config.requestIdHeader } : {}),
    ...(config.mcpScopes ? { mcpScopes: config.mcpScopes } : {}),
  };
}

/** An operation-level (else path-level) absolute server URL with its variables' defaults filled in. */
function ownServer(op: Json, item: Json): { baseUrl?: string } {
  const list = Array.isArray(op.servers) ? op.servers : Array.isArray(item.servers) ? item.servers : [];
  const server = isJson(list[0]) ? list[0] : undefined;
  if (!server || typeof server.url !== "string") return {};
  const variables = isJson(server.variables) ? server.variables : {};
  const url = server.url.replace(/\{([^{}]+)\}/g, (_, v: string) => {
    const spec = ownValue(variables, v);
    return isJson(spec) ? String(spec.default ?? "") : "";
  });
  return /^https?:\/\//i.test(url) ? { baseUrl: url } : {};
}

/** `info.x-mcp-registry-name`, held to the MCP Registry schema's name pattern (the spec language's schema has it too). */
function registryNameOf(info: Json, report: Report): { registryName?: string } {
  const name = info["x-mcp-registry-name"];
  if (name === undefined) return {};
  if (typeof name === "string" && name.length <= 200 && /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(name))
    return { registryName: name };
  report(
    "OPENAPI_REGISTRY_NAME_INVALID",
    "/info/x-mcp-registry-name",
    `x-mcp-registry-name ${JSON.stringify(name)} is not a reverse-DNS server name such as io.github.alice/weather`,
  );
  return {};
}
