/** What the commands share: usage failures, the flags common to validate and generate, output helpers. */
import { parseArgs } from "node:util";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { formatJson, formatText, SHOWN_PER_CODE } from "../diagnostics/diagnostic.ts";
import { featuresProblem } from "../normalize/features.ts";
import type { OpenApiOptions } from "../openapi/options.ts";
import { type Command, type Flags, HELP_FLAG, type Parsed } from "./command.ts";

/** A usage error: the message and how to get help, on stderr, exit 2 (docs/command-line.md). */
export function fail(message: string, command?: Pick<Command, "name" | "synopsis">): never {
  const usage = command ? `usage: mcpgen ${command.name} ${command.synopsis}\n` : "";
  const help = command ? `mcpgen ${command.name} --help` : "mcpgen --help";
  process.stderr.write(`mcpgen: ${message}\n${usage}run '${help}' for every option\n`);
  process.exit(2);
}

export const COMMON_FLAGS: Flags = {
  format: { type: "string", value: "text|json", help: "diagnostics as text lines (default) or a JSON array" },
  "max-size": { type: "string", value: "<MiB>", help: "largest spec file read (default 32)" },
  quiet: { type: "boolean", help: "no progress line (it shows only on a terminal, for specs over 1 MiB, without CI)" },
  verbose: {
    type: "boolean",
    help: `every diagnostic in full (without it, a warning code repeated more than ${SHOWN_PER_CODE} times is counted after its first ${SHOWN_PER_CODE})`,
  },
};

// How an OpenAPI document maps to tools (docs/openapi.md#mapping-rules); an error with a spec-language file.
export const OPENAPI_FLAGS: Flags = {
  include: {
    type: "string",
    multiple: true,
    value: "<selector>",
    help: "OpenAPI: keep operations matching tag:<glob>, op:<glob>, path:<glob> or method:<METHOD>",
  },
  exclude: {
    type: "string",
    multiple: true,
    value: "<selector>",
    help: "OpenAPI: drop operations matching a selector",
  },
  config: {
    type: "string",
    value: "<file>",
    help: "OpenAPI: the mapping options file (YAML or JSON; docs/openapi.md#mapping-rules)",
  },
  "allow-remote-refs": { type: "boolean", help: "OpenAPI: let $refs fetch https URLs (off by default)" },
  "allow-insecure-refs": { type: "boolean", help: "OpenAPI: with --allow-remote-refs, also fetch plain-http URLs" },
  "allow-ref-root": {
    type: "string",
    multiple: true,
    value: "<dir>",
    help: "OpenAPI: a further directory $refs may read from (default: only the document's own directory)",
  },
  "ref-timeout": { type: "string", value: "<seconds>", help: "OpenAPI: time limit of each remote $ref (default 30)" },
};

/** Parses a command's arguments against its flags; a bad flag is a usage error naming the command. */
export function parse(command: Command, args: string[]): Parsed {
  const options = Object.fromEntries(
    Object.entries({ ...command.flags, ...HELP_FLAG }).map(([name, flag]) => [
      name,
      { type: flag.type, ...(flag.multiple ? { multiple: true } : {}), ...(flag.short ? { short: flag.short } : {}) },
    ]),
  );
  try {
    return parseArgs({ args, allowPositionals: true, options }) as Parsed;
  } catch (error) {
    // Node's messages mention its own internals ("To specify a positional argument starting with a '-'...").
    const message = (error as Error).message.split("\n")[0].replace(/\. To specify a positional.*$/, "");
    fail(message, command);
  }
}

export type CommonFlags = {
  format: "text" | "json";
  verbose?: boolean;
  maxBytes?: number;
  openapi?: OpenApiOptions;
  features?: string[];
};

export function commonFlags(values: Parsed["values"], command: Command): CommonFlags {
  const timeout = values["ref-timeout"];
  if (timeout !== undefined && !(Number(timeout) > 0 && Number(timeout) <= 3600))
    fail(`--ref-timeout must be a number of seconds above 0 and at most 3600, not '${timeout}'`, command);
  const format = values.format ?? "text";
  if (format !== "text" && format !== "json") fail(`--format must be text or json, not '${format}'`, command);
  const maxSize = values["max-size"] === undefined ? undefined : Number(values["max-size"]);
  if (maxSize !== undefined && !(maxSize > 0))
    fail(`--max-size must be a positive number of MiB, not '${values["max-size"]}'`, command);
  const features =
    typeof values.features === "string" ? values.features.split(",").map((name) => name.trim()) : undefined;
  const problem = features && featuresProblem(features);
  if (problem) fail(`--features: ${problem}`, command);
  return {
    format,
    ...(values.verbose === true ? { verbose: true } : {}),
    ...(maxSize ? { maxBytes: maxSize * 1024 * 1024 } : {}),
    openapi: openApiOptions(values),
    ...(features ? { features } : {}),
  };
}

function openApiOptions(values: Record<string, unknown>): OpenApiOptions {
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  return {
    include: list(values.include),
    exclude: list(values.exclude),
    ...(typeof values.config === "string" ? { config: values.config } : {}),
    ...(values["allow-remote-refs"] === true ? { allowRemoteRefs: true } : {}),
    ...(values["allow-insecure-refs"] === true ? { allowInsecureRefs: true } : {}),
    ...(Array.isArray(values["allow-ref-root"]) ? { refRoots: list(values["allow-ref-root"]) } : {}),
    ...(values["ref-timeout"] === undefined ? {} : { refTimeoutMs: Number(values["ref-timeout"]) * 1000 }),
  };
}

export function printDiagnostics(diagnostics: Diagnostic[], { format, verbose }: CommonFlags): void {
  if (format === "json") process.stdout.write(`${formatJson(diagnostics)}\n`);
  else if (diagnostics.length > 0) process.stdout.write(`${formatText(diagnostics, { verbose })}\n`);
}
