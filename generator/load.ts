/** The load stage: a file on disk becomes IR, through the front end its top-level keys call for. */
import { applyToolsetMap, type ToolsetMap } from "./config/toolset-map.ts";
import type { DiagnosticBag, Report } from "./diagnostics/diagnostic.ts";
import type { ServerNode } from "./ir.ts";
import { loadOpenApi, releaseDocument } from "./openapi/load-openapi.ts";
import type { OpenApiOptions } from "./openapi/options.ts";
import { type ReadOptions, readSource } from "./source/read-source.ts";
import { loadSpec } from "./spec/load-spec.ts";

/** `toolsets`: the config file's renames and merges of toolsets (config/toolset-map.ts); `features`: the
 * runtime features (generate's --features, else the config's), which win over the spec's own list. */
export type LoadOptions = ReadOptions & { openapi?: OpenApiOptions; toolsets?: ToolsetMap; features?: string[] };
/**
 * The IR plus a reporter that points into the file it came from, for the stages that follow. `release`
 * lets go of what only positions need (SourceDoc), for a caller past the rules: report still works.
 */
export type Loaded = { server: ServerNode; report: Report; release?: () => void };

export function load(file: string, bag: DiagnosticBag, options: LoadOptions = {}): Loaded | undefined {
  const loaded = loadServer(file, bag, options);
  if (loaded && options.features) loaded.server.features = options.features;
  return loaded;
}

function loadServer(file: string, bag: DiagnosticBag, options: LoadOptions): Loaded | undefined {
  const source = readSource(file, bag, options);
  if (!source) return undefined;
  const top = source.value as { [key: string]: unknown };
  // docs/command-line.md: a file is OpenAPI when its top level has `openapi:` or `swagger:`.
  if (Object.hasOwn(top, "openapi") || Object.hasOwn(top, "swagger")) {
    const openapi = { ...options.openapi, ...(options.maxBytes ? { maxBytes: options.maxBytes } : {}) };
    const server = loadOpenApi(source, bag, openapi);
    if (!server) return undefined;
    applyToolsetMap(server, options.toolsets, bag);
    // Not `source` itself: its value is the parsed document, which this would keep alive.
    const releaseSource = source.release;
    const release = () => {
      releaseSource?.();
      releaseDocument(server);
    };
    return { server, report: source.report, release };
  }
  if (!openApiOptionsUnused(file, bag, options.openapi)) return undefined;
  const server = loadSpec(source);
  if (server) applyToolsetMap(server, options.toolsets, bag);
  return server ? { server, report: source.report } : undefined;
}

/** OpenAPI-only options given with a spec-language file would be ignored without a word: refuse them. */
function openApiOptionsUnused(file: string, bag: DiagnosticBag, options: OpenApiOptions = {}): boolean {
  const flags = [
    ...(options.include?.length ? ["--include"] : []),
    ...(options.exclude?.length ? ["--exclude"] : []),
    ...(options.config ? ["--config"] : []),
  ];
  const why = `'${file}' is an mcpgen spec, not an OpenAPI document`;
  if (flags.length > 0) {
    bag.reporter(file, () => ({ line: 1, col: 1 }))(
      "OPENAPI_OPTION_UNUSED",
      "",
      `${flags.join(", ")} ${flags.length > 1 ? "apply" : "applies"} to OpenAPI documents only, and ${why}`,
    );
  }
  // `openapi:` in a config file is reported where it is written.
  const settings = options.settings;
  const inConfig = settings !== undefined && Object.keys(settings.value).length > 0;
  if (inConfig) {
    bag.reporter(settings.file, settings.locate)(
      "OPENAPI_OPTION_UNUSED",
      settings.pointer,
      `openapi: applies to OpenAPI documents only, and ${why}`,
      { at: "key" },
    );
  }
  return flags.length === 0 && !inConfig;
}
