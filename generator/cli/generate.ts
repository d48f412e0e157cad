/** `mcpgen generate`: write the package for a spec, or check that it is up to date (docs/command-line.md). */
import { writeFileSync } from "node:fs";
import { type ExitCode, generate } from "../index.ts";
import { progress, startProgress } from "../progress.ts";
import { CLIENT_TOOL_LIMIT } from "../rules/tool-count.ts";
import type { Command } from "./command.ts";
import { CONFIG_FILE_FLAG, configuredTargets } from "./config-targets.ts";
import { generateReport, type Report, surfaceMarkdown } from "./generate-report.ts";
import { COMMON_FLAGS, type CommonFlags, commonFlags, fail, OPENAPI_FLAGS } from "./shared.ts";

export const generateCommand: Command = {
  name: "generate",
  synopsis: "[<spec> --out <dir>] [options]",
  summary: "Generate the MCP server, client and docs for a spec into a directory.",
  details: `Without a spec and --out, generates every entry of the config file (mcpgen.config.ts, .mjs, .json or
.yaml in the current directory, or --config-file). Rerunning rewrites only what changed and never
touches your handlers under src/handlers/. A directory holding files mcpgen did not write is refused
unless --force; mcpgen removes only files it wrote. With --format json, stdout is one JSON object (an
array of them for a config file with several entries).`,
  flags: {
    out: { type: "string", value: "<dir>", help: "the package directory (created when missing)" },
    check: {
      type: "boolean",
      help: "write nothing; exit 1 and list every file that would change, or a handler that no longer type-checks",
    },
    force: { type: "boolean", help: "overwrite files in --out that mcpgen did not write (they become mcpgen's)" },
    "summary-md": { type: "string", value: "<file>", help: "also write the MCP surface change as Markdown" },
    watch: {
      type: "boolean",
      help: "regenerate on every change of the spec, its --config file or a local $ref'd file",
    },
    serve: { type: "boolean", help: "with --watch: (re)start the generated server over HTTP after each good run" },
    port: { type: "string", value: "<n>", help: "with --serve: the HTTP port (default 3000; 0 picks a free one)" },
    features: {
      type: "string",
      value: "<a,b>",
      help: `the runtime features beside the core: dynamic, code, budget, oauth, token-exchange, redis, metrics, otel, tasks, apps, upstream-oauth; all, or none (wins over the spec's and the config's features; default: the core, dynamic over ${CLIENT_TOOL_LIMIT} tools, tasks when a tool starts a long-running job, apps when a tool asks for a view, upstream-oauth for an OpenAPI authorizationCode flow)`,
    },
    ...COMMON_FLAGS,
    ...OPENAPI_FLAGS,
    ...CONFIG_FILE_FLAG,
  },
  async run({ values, positionals }, args) {
    const common = commonFlags(values, generateCommand);
    if (values.watch === true) {
      const { parseWatchArgs, watchGenerate } = await import("./watch.ts");
      const flags = parseWatchArgs(args);
      if (typeof flags === "string") fail(flags, generateCommand);
      process.exit(await watchGenerate(flags));
    }
    if (values.serve === true || values.port !== undefined) fail("--serve and --port need --watch", generateCommand);
    const options = {
      check: values.check === true,
      force: values.force === true,
      summaryMd: values["summary-md"],
      quiet: values.quiet === true,
    };
    if (positionals.length === 0 && values.out === undefined) {
      const targets = await configuredTargets(values, common, generateCommand);
      // With --format json, one array holds every entry's report, so stdout stays one JSON document.
      const reports: Report[] = [];
      let exitCode = targets.exitCode;
      for (const target of targets.list) {
        const report = await runGenerate(
          target.input,
          target.output,
          { ...target.options, format: common.format, ...(common.verbose ? { verbose: true } : {}) },
          options,
        );
        reports.push(report);
        exitCode = Math.max(exitCode, report.exitCode) as ExitCode;
      }
      if (common.format === "json" && reports.length > 0)
        process.stdout.write(`[${reports.map((r) => r.stdout.trimEnd()).join(",\n")}]\n`);
      else for (const report of reports) process.stdout.write(report.stdout);
      process.exit(exitCode);
    }
    if (typeof values["config-file"] === "string")
      fail("--config-file is for runs without a spec argument", generateCommand);
    if (positionals.length !== 1) fail("generate takes exactly one spec file", generateCommand);
    const out = values.out;
    if (typeof out !== "string" || out === "") fail("generate needs --out <dir>", generateCommand);
    const report = await runGenerate(positionals[0], out, common, options);
    process.stdout.write(report.stdout);
    process.exit(report.exitCode);
  },
};

type RunOptions = { check: boolean; force: boolean; summaryMd: unknown; quiet: boolean };

/** Generates one package; returns its report with stdout still to print (stderr is written at once). */
async function runGenerate(spec: string, out: string, common: CommonFlags, options: RunOptions): Promise<Report> {
  const { check, force, summaryMd, quiet } = options;
  startProgress([spec], quiet);
  const result = await generate(spec, out, { ...common, check, force });
  progress.end();
  const context = { spec, out, check, format: common.format, verbose: common.verbose === true };
  const report = generateReport(result, context);
  if (typeof summaryMd === "string") {
    try {
      writeFileSync(summaryMd, surfaceMarkdown(result, context));
    } catch (error) {
      fail(`cannot write --summary-md ${summaryMd}: ${(error as Error).message}`, generateCommand);
    }
  }
  process.stderr.write(report.stderr);
  return report;
}
