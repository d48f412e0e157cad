/**
 * The mcpgen command line (CONTRACT §1). The only module that writes to the terminal or exits; every
 * failure below it arrives here as diagnostics.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { catalog, isCode } from "./catalog.ts";
import type { Diagnostic } from "./diagnostics.ts";
import { formatJson, formatText, summary } from "./diagnostics.ts";
import { exitCodeOf, generate, validateFiles } from "./index.ts";
import type { OpenApiOptions } from "./openapi/options.ts";
import { progress, startProgress } from "./progress.ts";

const USAGE = `usage:
  mcpgen validate <spec> [<spec>...] [--format text|json] [--max-size <MiB>] [--quiet]
  mcpgen generate <spec> --out <dir> [--check] [--format text|json] [--max-size <MiB>] [--quiet]
  mcpgen generate <spec> --out <dir> --watch [--serve [--port <n>]]   (regenerate on every change)
Progress shows on a terminal for big specs; --quiet (or CI=true) hides it.
OpenAPI input also takes [--include <selector>]... [--exclude <selector>]... [--config <file>] [--allow-remote-refs],
with selectors tag:<glob>, op:<glob>, path:<glob>, method:<METHOD>.
  mcpgen explain <CODE>
  mcpgen --version | --help

A spec is an mcpgen spec (YAML or JSON). Exit codes: 0 no errors, 1 errors found, 2 usage error or unreadable file.`;

function fail(message: string): never {
  process.stderr.write(`mcpgen: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

type CommonFlags = { format: "text" | "json"; maxBytes?: number; openapi?: OpenApiOptions };

function parseCommand(args: string[], extra: Record<string, { type: "string" | "boolean" }> = {}) {
  let parsed: { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        format: { type: "string" },
        "max-size": { type: "string" },
        quiet: { type: "boolean" },
        ...OPENAPI_FLAGS,
        ...extra,
      },
    });
  } catch (error) {
    fail((error as Error).message);
  }
  const { values, positionals } = parsed;
  const format = values.format ?? "text";
  if (format !== "text" && format !== "json") fail(`--format must be text or json, not '${format}'`);
  const maxSize = values["max-size"] === undefined ? undefined : Number(values["max-size"]);
  if (maxSize !== undefined && !(maxSize > 0))
    fail(`--max-size must be a positive number of MiB, not '${values["max-size"]}'`);
  const common: CommonFlags = {
    format,
    ...(maxSize ? { maxBytes: maxSize * 1024 * 1024 } : {}),
    openapi: openApiOptions(values),
  };
  return { values, positionals, common };
}

// How an OpenAPI document maps to tools (README "Mapping rules"); ignored for spec-language files.
const OPENAPI_FLAGS = {
  include: { type: "string", multiple: true },
  exclude: { type: "string", multiple: true },
  config: { type: "string" },
  "allow-remote-refs": { type: "boolean" },
} as const;

function openApiOptions(values: Record<string, unknown>): OpenApiOptions {
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  return {
    include: list(values.include),
    exclude: list(values.exclude),
    ...(typeof values.config === "string" ? { config: values.config } : {}),
    ...(values["allow-remote-refs"] === true ? { allowRemoteRefs: true } : {}),
  };
}

function printDiagnostics(diagnostics: Diagnostic[], format: "text" | "json"): void {
  if (format === "json") process.stdout.write(`${formatJson(diagnostics)}\n`);
  else if (diagnostics.length > 0) process.stdout.write(`${formatText(diagnostics)}\n`);
}

function validateCommand(args: string[]): never {
  const { values, positionals, common } = parseCommand(args);
  if (positionals.length === 0) fail("validate needs at least one spec file");
  startProgress(positionals, values.quiet === true);
  const result = validateFiles(positionals, common);
  progress.end();
  printDiagnostics(result.diagnostics, common.format);
  process.stderr.write(
    `${positionals.length} file${positionals.length > 1 ? "s" : ""} checked: ${summary(result.diagnostics)}\n`,
  );
  process.exit(result.exitCode);
}

async function generateCommand(args: string[]): Promise<never> {
  const { values, positionals, common } = parseCommand(args, { out: { type: "string" }, check: { type: "boolean" } });
  if (positionals.length !== 1) fail("generate takes exactly one spec file");
  const out = values.out;
  if (typeof out !== "string" || out === "") fail("generate needs --out <dir>");
  const check = values.check === true;
  startProgress(positionals, values.quiet === true);
  const result = await generate(positionals[0], out, { ...common, check });
  progress.end();
  printDiagnostics(result.diagnostics, common.format);
  const exitCode = exitCodeOf(result.diagnostics);
  const outcome = result.outcome;
  if (!outcome) {
    process.stderr.write(`nothing generated: ${summary(result.diagnostics)}\n`);
    process.exit(exitCode || 1);
  }
  const drift = [...outcome.changed, ...outcome.created, ...outcome.removed];
  const log = (line: string) => process.stderr.write(`${line}\n`);
  if (check) {
    if (drift.length === 0) {
      log(`${out} is up to date with ${positionals[0]}`);
      process.exit(exitCode);
    }
    log(`${out} is out of date with ${positionals[0]}; these files would change:`);
    // The file list is the check's result, so it goes to stdout (unless stdout carries JSON diagnostics).
    const list = common.format === "json" ? log : (line: string) => process.stdout.write(`${line}\n`);
    for (const path of outcome.changed) list(`changed ${path}`);
    for (const path of outcome.created) list(`created ${path}`);
    for (const path of outcome.removed) list(`removed ${path}`);
    if (result.surface.length > 0) {
      log("MCP surface changes:");
      for (const line of oneScreen(result.surface)) log(`  ${line}`);
    }
    log(`run: mcpgen generate ${positionals[0]} --out ${out}`);
    process.exit(1);
  }
  log(`${out}: ${outcome.changed.length} written, ${outcome.unchanged} unchanged, ${outcome.removed.length} removed`);
  for (const path of outcome.created) log(`  new handler to write: ${path}`);
  for (const line of oneScreen(result.surface)) log(`  ${line}`);
  process.exit(exitCode);
}

/** The MCP surface summary fits one screen: a 1,000-tool API lists its first lines and a count. */
function oneScreen(lines: string[], max = 20): string[] {
  if (lines.length <= max) return lines;
  const counts = ["+", "~", "-"].map((sign) => `${lines.filter((l) => l.startsWith(sign)).length} ${sign}`).join(", ");
  return [...lines.slice(0, max - 1), `... ${lines.length - max + 1} more (${counts} in all)`];
}

function explainCommand(args: string[]): never {
  const code = args[0];
  if (!code || args.length > 1) fail("explain takes one diagnostic code");
  if (!isCode(code)) fail(`unknown diagnostic code '${code}'; the README lists them all`);
  const entry = catalog[code];
  process.stdout.write(`${code} (${entry.severity}): ${entry.title}\n\nWhy: ${entry.cause}\nFix: ${entry.fix}\n`);
  process.exit(0);
}

async function main(argv: string[]): Promise<never> {
  const [command, ...rest] = argv;
  switch (command) {
    case "validate":
      return validateCommand(rest);
    case "generate":
      if (rest.includes("--watch")) {
        const { parseWatchArgs, watchGenerate } = await import("./watch.ts");
        const flags = parseWatchArgs(rest);
        process.exit(typeof flags === "string" ? fail(flags) : await watchGenerate(flags));
      }
      return generateCommand(rest);
    case "explain":
      return explainCommand(rest);
    case "--version":
    case "-v": {
      const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
      process.stdout.write(`${pkg.version}\n`);
      process.exit(0);
      break;
    }
    case "--help":
    case "-h":
    case "help":
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
      break;
    case undefined:
      fail("no command given");
      break;
    default:
      fail(`unknown command '${command}'`);
  }
}

await main(process.argv.slice(2));
