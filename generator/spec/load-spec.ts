/**
 * The spec-language front end: a parsed document becomes IR. The structural check runs first and
 * reports every shape error; the IR is then built leniently from whatever is well-shaped, so the MCP
 * rules can still report on the rest of the file in the same run.
 */
import { setOwn } from "../../runtime/protocol/codec.ts";
import type {
  HttpBindingNode,
  Icon,
  JsonSchema,
  PromptArgumentNode,
  PromptMessageNode,
  PromptNode,
  ResourceContent,
  ResourceNode,
  ResourceTemplateNode,
  SecuritySchemeNode,
  ServerNode,
  SourceLoc,
  TaskNode,
  ToolAnnotations,
  ToolNode,
  UpstreamNode,
} from "../ir.ts";
import { childPointer } from "../source/json-pointer.ts";
import type { SourceDoc } from "../source/read-source.ts";
import { readTask } from "../tasks/read-task.ts";
import { checkStructure } from "./check-structure.ts";

type Obj = { [key: string]: unknown };

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (o: Obj, key: string): string | undefined => (typeof o[key] === "string" ? (o[key] as string) : undefined);
/** `scopes:` of a tool, resource or template: its strings, each once. */
const scopeList = (o: Obj): string[] | undefined =>
  Array.isArray(o.scopes) ? [...new Set(o.scopes.filter((s): s is string => typeof s === "string"))] : undefined;
const list = (o: Obj, key: string): unknown[] => (Array.isArray(o[key]) ? (o[key] as unknown[]) : []);

/** Copies the optional string fields that exist, so absent fields stay absent (not `undefined`). */
function strings<K extends string>(o: Obj, keys: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const key of keys) if (typeof o[key] === "string") out[key] = o[key] as string;
  return out;
}

export function loadSpec(source: SourceDoc): ServerNode | undefined {
  checkStructure(source.value, source.report);
  const root = source.value as Obj;
  // Positions are found only when read (a diagnostic, a duplicate name): for a large YAML file each
  // one may parse part of the file again, so 100,000 tools must not ask for 100,000 of them up front.
  const loc = (pointer: string): SourceLoc => {
    let at: { line: number; col: number } | undefined;
    const where = () => {
      at ??= source.locate(pointer);
      return at;
    };
    return {
      file: source.file,
      pointer,
      get line() {
        return where().line;
      },
      get col() {
        return where().col;
      },
    };
  };
  const server = isObj(root.server) ? root.server : {};
  // A missing or mistyped name or version is already reported; keep going so the rules see the rest.
  const name = str(server, "name") ?? "";
  const version = str(server, "version") ?? "";

  /** Maps each well-shaped entry of a top-level list to a node, skipping the rest (already reported). */
  const each = <T>(key: string, build: (o: Obj, pointer: string) => T | undefined): T[] =>
    list(root, key).flatMap((entry, index) => {
      const node = isObj(entry) ? build(entry, childPointer(`/${key}`, index)) : undefined;
      return node ? [node] : [];
    });

  const upstreamNode = upstream(root.upstream, loc);
  // `upstream.auth` is a scheme every binding requires, as OpenAPI's top-level `security` would say.
  const security = upstreamNode?.securitySchemes && [[SPEC_AUTH_ID]];
  const http = (o: Obj, pointer: string): HttpBindingNode | undefined => {
    const binding = o.http;
    if (!isObj(binding) || typeof binding.method !== "string" || typeof binding.path !== "string") return undefined;
    return {
      kind: "httpBinding",
      loc: loc(`${pointer}/http`),
      method: binding.method,
      path: binding.path,
      ...optional("security", security),
      ...optional("task", task(binding.task, `${pointer}/http/task`)),
    };
  };
  // The schema allows `task:` on a tool's binding only and has reported every mistyped field (SPEC_*): the loader
  // goes on after those for the rules' sake, so reading the binding reports nothing a second time.
  const task = (value: unknown, pointer: string): TaskNode | undefined => {
    const written = value === undefined ? undefined : readTask(value, pointer, () => {});
    if (!written?.poll) return undefined;
    const { cancel, poll, ...rest } = written;
    return {
      kind: "task",
      loc: loc(pointer),
      source: "written",
      style: written.status ? "status" : "location",
      poll,
      ...rest,
      ...(cancel?.method ? { cancel: { ...cancel, method: cancel.method } } : {}),
    };
  };
  const icons = (o: Obj): { icons?: Icon[] } => (Array.isArray(o.icons) ? { icons: o.icons as Icon[] } : {});
  const optional = <T>(key: string, value: T | undefined): Record<string, T> =>
    value === undefined ? {} : { [key]: value };

  const tools = each<ToolNode>("tools", (o, pointer) => {
    const toolName = str(o, "name");
    if (toolName === undefined || !isObj(o.inputSchema)) return undefined;
    return {
      kind: "tool",
      loc: loc(pointer),
      name: toolName,
      ...strings(o, ["title", "description"] as const),
      inputSchema: o.inputSchema as JsonSchema,
      ...optional("outputSchema", isObj(o.outputSchema) ? (o.outputSchema as JsonSchema) : undefined),
      ...optional("annotations", isObj(o.annotations) ? (o.annotations as ToolAnnotations) : undefined),
      ...icons(o),
      ...optional("http", http(o, pointer)),
      ...optional("toolset", str(o, "toolset")),
      ...optional("scopes", scopeList(o)),
      ...optional("renamedFrom", str(o, "renamedFrom")),
      ...(o.task === true ? { task: true as const } : {}),
      ...(o.ui !== undefined ? { ui: { kind: "ui" as const, loc: loc(`${pointer}/ui`), value: o.ui } } : {}),
    };
  });

  const resources = each<ResourceNode>("resources", (o, pointer) => {
    const uri = str(o, "uri");
    const resourceName = str(o, "name");
    if (uri === undefined || resourceName === undefined) return undefined;
    const sources = ["text", "blob", "http"].filter((key) => o[key] !== undefined);
    if (sources.length > 1) {
      source.report("RESOURCE_SOURCE_CONFLICT", pointer, `resource '${uri}' has ${sources.join(" and ")}`);
    }
    const content: ResourceContent | undefined =
      typeof o.text === "string"
        ? { type: "text", text: o.text }
        : typeof o.blob === "string"
          ? { type: "blob", blob: o.blob }
          : undefined;
    return {
      kind: "resource",
      loc: loc(pointer),
      uri,
      name: resourceName,
      ...strings(o, ["title", "description", "mimeType"] as const),
      ...optional("size", typeof o.size === "number" ? o.size : undefined),
      ...icons(o),
      ...optional("content", content),
      ...optional("http", content ? undefined : http(o, pointer)),
      ...optional("scopes", scopeList(o)),
    };
  });

  const resourceTemplates = each<ResourceTemplateNode>("resourceTemplates", (o, pointer) => {
    const uriTemplate = str(o, "uriTemplate");
    const templateName = str(o, "name");
    if (uriTemplate === undefined || templateName === undefined) return undefined;
    return {
      kind: "resourceTemplate",
      loc: loc(pointer),
      uriTemplate,
      name: templateName,
      ...strings(o, ["title", "description", "mimeType"] as const),
      ...icons(o),
      ...optional("http", http(o, pointer)),
      ...optional("completions", isObj(o.completions) ? stringLists(o.completions) : undefined),
      ...optional("scopes", scopeList(o)),
    };
  });

  const prompts = each<PromptNode>("prompts", (o, pointer) => {
    const promptName = str(o, "name");
    if (promptName === undefined) return undefined;
    const args = list(o, "arguments").flatMap((a, i): PromptArgumentNode[] => {
      if (!isObj(a) || typeof a.name !== "string") return [];
      const p = childPointer(`${pointer}/arguments`, i);
      return [
        {
          kind: "promptArgument",
          loc: loc(p),
          name: a.name,
          ...strings(a, ["title", "description"] as const),
          required: a.required === true,
          ...optional(
            "completions",
            Array.isArray(a.completions) ? a.completions.filter((v) => typeof v === "string") : undefined,
          ),
        },
      ];
    });
    const messages = Array.isArray(o.messages)
      ? o.messages.flatMap((m, i): PromptMessageNode[] => {
          if (!isObj(m) || typeof m.role !== "string" || !isObj(m.content)) return [];
          return [
            {
              kind: "promptMessage",
              loc: loc(childPointer(`${pointer}/messages`, i)),
              role: m.role,
              content: m.content,
            },
          ];
        })
      : undefined;
    return {
      kind: "prompt",
      loc: loc(pointer),
      name: promptName,
      ...strings(o, ["title", "description"] as const),
      ...icons(o),
      arguments: args,
      ...optional("messages", messages),
    };
  });

  return {
    kind: "server",
    loc: loc("/server"),
    origin: "spec",
    name,
    version,
    ...strings(server, ["title", "description", "instructions", "websiteUrl"] as const),
    ...strings(server, ["registryName"] as const),
    ...icons(server),
    ...optional("upstream", upstreamNode),
    ...(isObj(root.package) && root.package.private === true ? { packagePrivate: true as const } : {}),
    ...(Array.isArray(root.features)
      ? { features: root.features.filter((f): f is string => typeof f === "string") }
      : {}),
    tools,
    resources,
    resourceTemplates,
    prompts,
  };
}

function stringLists(value: Obj): { [key: string]: string[] } {
  const out: { [key: string]: string[] } = {};
  for (const [key, list] of Object.entries(value)) {
    if (Array.isArray(list))
      setOwn(
        out,
        key,
        list.filter((v): v is string => typeof v === "string"),
      );
  }
  return out;
}

function upstream(value: unknown, loc: (pointer: string) => SourceLoc): UpstreamNode | undefined {
  if (!isObj(value) || typeof value.baseUrl !== "string") return undefined;
  const node: UpstreamNode = { kind: "upstream", loc: loc("/upstream"), baseUrl: value.baseUrl };
  if (typeof value.timeoutMs === "number") node.timeoutMs = value.timeoutMs;
  if (typeof value.requestIdHeader === "string") node.requestIdHeader = value.requestIdHeader;
  const scheme = authScheme(value.auth, loc("/upstream/auth"));
  if (scheme) node.securitySchemes = [scheme];
  return node;
}

/** The id `upstream.auth` gets as a security scheme: it names where the spec sets it (shown in the README). */
const SPEC_AUTH_ID = "upstream.auth";

/** `upstream.auth` in OpenAPI's form: one security scheme (the structure check has reported other shapes). */
function authScheme(auth: unknown, loc: SourceLoc): SecuritySchemeNode | undefined {
  if (!isObj(auth) || typeof auth.env !== "string") return undefined;
  if (auth.type === "bearer" || auth.type === "basic") return { id: SPEC_AUTH_ID, type: auth.type, env: auth.env, loc };
  if (auth.type === "apiKey" && (auth.in === "header" || auth.in === "query") && typeof auth.name === "string")
    return { id: SPEC_AUTH_ID, type: "apiKey", in: auth.in, name: auth.name, env: auth.env, loc };
  return undefined;
}
