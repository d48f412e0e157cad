/**
 * How an OpenAPI document becomes an MCP surface: flags from the command line merged over an optional
 * config file (`--config mcpgen.openapi.yaml`). The file is read like a spec, so its mistakes are
 * diagnostics with file:line:col too.
 */
import { setOwn } from "../../runtime/protocol/codec.ts";
import type { DiagnosticBag, Locator } from "../diagnostics/diagnostic.ts";
import type { ToolAnnotations } from "../ir.ts";
import { readSource } from "../source/read-source.ts";
import { isJson, token } from "./document.ts";
import { DEFAULT_MAX_NAME, MAX_NAME } from "./names.ts";
import { parseSelector, type Selector } from "./select.ts";

export type OpenApiOptions = {
  /** Lets `$ref`s fetch https URLs; off by default (no SSRF from a spec). */
  allowRemoteRefs?: boolean;
  /** With allowRemoteRefs, lets them fetch plain http too; off by default. */
  allowInsecureRefs?: boolean;
  /** Directories `$ref`s may read besides the document's own (--allow-ref-root). */
  refRoots?: string[];
  /** How long one remote `$ref` may take (--ref-timeout); 30 s by default. */
  refTimeoutMs?: number;
  /** The byte budget of the document and every file its `$ref`s read (--max-size); set by load(). */
  maxBytes?: number;
  include?: string[];
  exclude?: string[];
  /** A YAML or JSON file with the fields below plus include/exclude. */
  config?: string;
  /** The same fields from the `openapi:` part of an mcpgen config file, with where they are in it. */
  settings?: { file: string; value: Record<string, unknown>; locate: Locator; pointer: string };
};

export type MappingConfig = {
  allowRemoteRefs: boolean;
  include: Selector[];
  exclude: Selector[];
  maxNameLength: number;
  maxDescriptionLength: number;
  /** operationId → parameter name → header name: parameters mirrored as x-mcp-header. */
  headers: Record<string, Record<string, string>>;
  /** operationId → annotations that override the method's defaults. */
  annotations: Record<string, ToolAnnotations>;
  timeoutMs?: number;
  /** Header carrying each HTTP request's id to the API (issue 18); absent: none is sent. */
  requestIdHeader?: string;
  /** `document`: the document's oauth2 scopes bind MCP tokens too (normalize/upstream-scopes.ts). */
  mcpScopes?: "document";
  retryAttempts: number;
  maxTools: number;
  /** An outputSchema larger than this (JSON bytes, $defs included) is left out: see OPENAPI_OUTPUT_SCHEMA_DROPPED. */
  maxOutputSchemaBytes: number;
  /** Parameters every operation takes are moved to configuration (shared-parameters.ts) but those in `keep`;
   * `false`: none is. */
  sharedParameters: false | { keep: string[] };
};

export const DEFAULT_MAX_DESCRIPTION = 1024;
export const DEFAULT_MAX_TOOLS = 5000;
/** 128 KiB: GitHub's largest response schema is 38 KB; Stripe's, which pull in most of its object graph, are ~600 KB each. */
export const DEFAULT_MAX_OUTPUT_SCHEMA_BYTES = 128 * 1024;

/** The keys of a mapping options file (docs/reference/config.md lists them from OpenApiConfig; a test keeps the two equal). */
export const MAPPING_KEYS = new Set([
  "include",
  "exclude",
  "maxNameLength",
  "maxDescriptionLength",
  "headers",
  "annotations",
  "timeoutMs",
  "requestIdHeader",
  "mcpScopes",
  "retryAttempts",
  "maxTools",
  "maxOutputSchemaBytes",
  "allowRemoteRefs",
  "sharedParameters",
]);

export function mappingConfig(options: OpenApiOptions, bag: DiagnosticBag): MappingConfig {
  const config: MappingConfig = {
    allowRemoteRefs: options.allowRemoteRefs === true,
    include: [],
    exclude: [],
    maxNameLength: DEFAULT_MAX_NAME,
    maxDescriptionLength: DEFAULT_MAX_DESCRIPTION,
    headers: {},
    annotations: {},
    retryAttempts: 3,
    maxTools: DEFAULT_MAX_TOOLS,
    maxOutputSchemaBytes: DEFAULT_MAX_OUTPUT_SCHEMA_BYTES,
    sharedParameters: { keep: [] },
  };
  const flagReport = bag.reporter("<command line>", () => ({ line: 1, col: 1 }));
  const addSelectors = (list: unknown[], into: Selector[], fail: (at: string, text: string) => void, at: string) => {
    list.forEach((text, index) => {
      const selector = typeof text === "string" ? parseSelector(text) : undefined;
      if (selector) into.push(selector);
      else fail(`${at}/${index}`, String(text));
    });
  };
  if (options.config && isConfigFile(options.config)) {
    flagReport(
      "CONFIG_FLAG_MIXUP",
      "",
      `--config takes the OpenAPI mapping file (YAML or JSON); '${options.config}' looks like an mcpgen config file, which --config-file reads in a run without a spec argument: mcpgen generate --config-file ${options.config}`,
    );
  } else if (options.config) {
    const source = readSource(options.config, bag);
    if (source) {
      const bad = (pointer: string, message: string) => source.report("OPENAPI_CONFIG_INVALID", pointer, message);
      readFields(source.value as Record<string, unknown>, config, bad, addSelectors);
    }
  }
  // The `openapi:` part of an mcpgen config file: the same fields, reported at their place in that file.
  const settings = options.settings;
  if (settings) {
    const report = bag.reporter(settings.file, settings.locate);
    const bad = (pointer: string, message: string) =>
      report("OPENAPI_CONFIG_INVALID", settings.pointer + pointer, message, { at: "key" });
    readFields(settings.value, config, bad, addSelectors);
  }
  const flagFail = (_: string, text: string) =>
    flagReport("OPENAPI_CONFIG_INVALID", "", `'${text}' is not a selector (tag:, op:, path:, method:)`);
  addSelectors(options.include ?? [], config.include, flagFail, "");
  addSelectors(options.exclude ?? [], config.exclude, flagFail, "");
  return config;
}

type AddSelectors = (list: unknown[], into: Selector[], fail: (at: string, text: string) => void, at: string) => void;

/** The mapping fields of a config value (the --config file, or `openapi:` in mcpgen.config.*), into `config`. */
function readFields(
  value: Record<string, unknown>,
  config: MappingConfig,
  bad: (pointer: string, message: string) => void,
  addSelectors: AddSelectors,
): void {
  for (const [key, field] of Object.entries(value)) {
    const at = `/${token(key)}`;
    if (!MAPPING_KEYS.has(key)) bad(at, `unknown key '${key}' in the OpenAPI config`);
    else if (key === "include" || key === "exclude") {
      if (!Array.isArray(field)) bad(at, `${key} must be a list of selectors such as 'tag:pets'`);
      else
        addSelectors(
          field,
          config[key],
          (p, text) => bad(p, `'${text}' is not a selector (tag:, op:, path:, method:)`),
          at,
        );
    } else if (
      key === "maxNameLength" ||
      key === "maxDescriptionLength" ||
      key === "timeoutMs" ||
      key === "retryAttempts" ||
      key === "maxTools" ||
      key === "maxOutputSchemaBytes"
    ) {
      const max = key === "maxNameLength" ? MAX_NAME : Number.MAX_SAFE_INTEGER;
      const min = key === "retryAttempts" ? 1 : key === "maxNameLength" ? 16 : 1;
      if (typeof field !== "number" || !Number.isInteger(field) || field < min || field > max)
        bad(at, `${key} must be an integer from ${min} to ${max}`);
      else config[key] = field;
    } else if (key === "requestIdHeader") {
      if (typeof field !== "string" || !/^[A-Za-z][A-Za-z0-9-]{0,63}$/.test(field))
        bad(at, "requestIdHeader must be an HTTP header name such as X-Request-Id (letters, digits, '-')");
      else config.requestIdHeader = field;
    } else if (key === "mcpScopes") {
      if (field !== "document" && field !== "upstream")
        bad(at, "mcpScopes must be 'document' (MCP tokens need the document's scopes too) or 'upstream' (the default)");
      else if (field === "document") config.mcpScopes = field;
    } else if (key === "allowRemoteRefs") {
      // A file can come from elsewhere (a cloned repository): whether $refs may fetch URLs is decided on
      // the command line only (--allow-remote-refs). `false`, the default, is accepted as it changes nothing.
      if (field !== false)
        bad(at, "allowRemoteRefs is a command-line decision: remove it and pass --allow-remote-refs");
    } else if (key === "sharedParameters") readShared(field, config, (p, m) => bad(`${at}${p}`, m));
    else if (key === "headers") readHeaders(field, config, (p, m) => bad(`${at}${p}`, m));
    else if (key === "annotations") readAnnotations(field, config, (p, m) => bad(`${at}${p}`, m));
  }
}

function readHeaders(field: unknown, config: MappingConfig, bad: (pointer: string, message: string) => void): void {
  if (!isJson(field)) {
    bad("", "headers maps an operationId to { parameter: Header-Name }");
    return;
  }
  for (const [op, params] of Object.entries(field)) {
    if (!isJson(params)) {
      bad(`/${token(op)}`, `headers.${op} must map parameter names to header names`);
      continue;
    }
    const headers: Record<string, string> = {};
    setOwn(config.headers, op, headers);
    for (const [param, header] of Object.entries(params)) {
      if (typeof header === "string") setOwn(headers, param, header);
      else bad(`/${token(op)}/${token(param)}`, `the header name for '${param}' must be a string`);
    }
  }
}

/** `sharedParameters`: true (the default), false, or { keep: [parameter names that stay on each tool] }. */
function readShared(field: unknown, config: MappingConfig, bad: (pointer: string, message: string) => void): void {
  if (typeof field === "boolean") config.sharedParameters = field ? { keep: [] } : false;
  else if (isJson(field) && Object.keys(field).every((k) => k === "keep") && Array.isArray(field.keep)) {
    if (field.keep.every((name) => typeof name === "string")) config.sharedParameters = { keep: field.keep };
    else bad("/keep", "sharedParameters.keep must be a list of parameter names such as [fields, alt]");
  } else bad("", "sharedParameters must be true, false or { keep: [parameter names] } (names that stay on each tool)");
}

const HINTS = new Set(["title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]);

function readAnnotations(field: unknown, config: MappingConfig, bad: (pointer: string, message: string) => void): void {
  if (!isJson(field)) {
    bad("", "annotations maps an operationId to MCP tool annotations");
    return;
  }
  for (const [op, hints] of Object.entries(field)) {
    const ok =
      isJson(hints) &&
      Object.entries(hints).every(
        ([k, v]) => HINTS.has(k) && (k === "title" ? typeof v === "string" : typeof v === "boolean"),
      );
    if (ok) setOwn(config.annotations, op, hints as ToolAnnotations);
    else bad(`/${token(op)}`, `annotations.${op} may hold only title and the boolean *Hint fields`);
  }
}

/** A TypeScript/JavaScript file, or one named mcpgen.config.*: the config file, given to the mapping file's flag. */
function isConfigFile(path: string): boolean {
  return /\.[cm]?[jt]s$/i.test(path) || /(?:^|[\\/])mcpgen\.config\.[^\\/]+$/.test(path);
}
