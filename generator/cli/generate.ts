/** `mcpgen generate`: write the package for a spec, or check that it is up to date (CONTRACT §1). */
import { type Diagnostic, summary } from "../diagnostics.ts";
import { type ExitCode, exitCodeOf, generate } from "../index.ts";
import type { Command } from "./command.ts";
import { CONFIG_FILE_FLAG, configuredTargets } from "./config-targets.ts";
import {
  COMMON_FLAGS,
  type CommonFlags,
  commonFlags,
  fail,
  OPENAPI_FLAGS,
  oneScreen,
  printDiagnostics,
} from "./shared.ts";

export const generateCommand: Command = {
  name: "generate",
  synopsis: "[<spec> --out <dir>] [options]",
  summary: "Generate the MCP server, client and docs for a spec into a directory.",
  details: `Without a spec and --out, generates every entry of the config file (mcpgen.config.ts, .mjs, .json or
.yaml in the current directory, or --config-file). Rerunning rewrites only what changed and never
touches your handlers under src/handlers/.`,
  flags: {
    out: { type: "string", value: "<dir>", help: "the package directory (created when missing)" },
    check: { type: "boolean", help: "write nothing; exit 1 and list every file that would change" },
    ...COMMON_FLAGS,
    ...OPENAPI_FLAGS,
    ...CONFIG_FILE_FLAG,
  },
  async run({ values, positionals }) {
    const common = commonFlags(values, generateCommand);
    const check = values.check === true;
    if (positionals.length === 0 && values.out === undefined) {
      const targets = await configuredTargets(values, common, generateCommand);
      // Every entry's diagnostics are printed together: one JSON array for --format json.
      const diagnostics: Diagnostic[] = [];
      const collect = (found: Diagnostic[]) => diagnostics.push(...found);
      let exitCode = targets.exitCode;
      for (const target of targets.list) {
        const options = { ...target.options, format: common.format };
        exitCode = Math.max(
          exitCode,
          await runGenerate(target.input, target.output, options, check, collect),
        ) as ExitCode;
      }
      if (targets.list.length > 0) printDiagnostics(diagnostics, common.format);
      process.exit(exitCode);
    }
    if (typeof values["config-file"] === "string")
      fail("--config-file is for runs without a spec argument", generateCommand);
    if (positionals.length !== 1) fail("generate takes exactly one spec file", generateCommand);
    const out = values.out;
    if (typeof out !== "string" || out === "") fail("generate needs --out <dir>", generateCommand);
    process.exit(await runGenerate(positionals[0], out, common, check));
  },
};

async function runGenerate(
  spec: string,
  out: string,
  common: CommonFlags,
  check: boolean,
  print = (diagnostics: Diagnostic[]) => printDiagnostics(diagnostics, common.format),
): Promise<ExitCode> {
  const result = await generate(spec, out, { ...common, check });
  print(result.diagnostics);
  const exitCode = exitCodeOf(result.diagnostics);
  const outcome = result.outcome;
  if (!outcome) {
    process.stderr.write(`nothing generated: ${summary(result.diagnostics)}\n`);
    return exitCode || 1;
  }
  const drift = [...outcome.changed, ...outcome.created, ...outcome.removed];
  const log = (line: string) => process.stderr.write(`${line}\n`);
  if (check) {
    if (drift.length === 0) {
      log(`${out} is up to date with ${spec}`);
      return exitCode;
    }
    log(`${out} is out of date with ${spec}; these files would change:`);
    // The file list is the check's result, so it goes to stdout (unless stdout carries JSON diagnostics).
    const list = common.format === "json" ? log : (line: string) => process.stdout.write(`${line}\n`);
    for (const path of outcome.changed) list(`changed ${path}`);
    for (const path of outcome.created) list(`created ${path}`);
    for (const path of outcome.removed) list(`removed ${path}`);
    if (result.surface.length > 0) {
      log("MCP surface changes:");
      for (const line of oneScreen(result.surface)) log(`  ${line}`);
    }
    log(`run: mcpgen generate ${spec} --out ${out}`);
    return 1;
  }
  log(`${out}: ${outcome.changed.length} written, ${outcome.unchanged} unchanged, ${outcome.removed.length} removed`);
  for (const path of outcome.created) log(`  new handler to write: ${path}`);
  for (const line of oneScreen(result.surface)) log(`  ${line}`);
  return exitCode;
}
