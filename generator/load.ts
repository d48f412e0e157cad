/** The load stage: a file on disk becomes IR, through the front end its top-level keys call for. */
import type { DiagnosticBag, Report } from "./diagnostics.ts";
import type { ServerNode } from "./ir.ts";
import { loadSpec } from "./load-spec.ts";
import { loadOpenApi } from "./openapi/load-openapi.ts";
import type { OpenApiOptions } from "./openapi/options.ts";
import { type ReadOptions, readSource } from "./read-source.ts";

export type LoadOptions = ReadOptions & { openapi?: OpenApiOptions };
/** The IR plus a reporter that points into the file it came from, for the stages that follow. */
export type Loaded = { server: ServerNode; report: Report };

export function load(file: string, bag: DiagnosticBag, options: LoadOptions = {}): Loaded | undefined {
  const source = readSource(file, bag, options);
  if (!source) return undefined;
  const top = source.value as { [key: string]: unknown };
  // CONTRACT §1: a file is OpenAPI when its top level has `openapi:` or `swagger:`.
  if (Object.hasOwn(top, "openapi") || Object.hasOwn(top, "swagger")) {
    const openapi = { ...options.openapi, ...(options.maxBytes ? { maxBytes: options.maxBytes } : {}) };
    const server = loadOpenApi(source, bag, openapi);
    return server ? { server, report: source.report } : undefined;
  }
  const server = loadSpec(source);
  return server ? { server, report: source.report } : undefined;
}
