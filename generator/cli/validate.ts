/** `mcpgen validate`: check specs and print every diagnostic (docs/command-line.md). */
import { summary } from "../diagnostics/diagnostic.ts";
import { validateFiles } from "../index.ts";
import { progress, startProgress } from "../progress.ts";
import type { Command } from "./command.ts";
import { CONFIG_FILE_FLAG, configuredTargets } from "./config-targets.ts";
import { COMMON_FLAGS, commonFlags, fail, OPENAPI_FLAGS, printDiagnostics } from "./shared.ts";

export const validateCommand: Command = {
  name: "validate",
  synopsis: "[<spec>...] [options]",
  summary: "Check each spec (mcpgen spec language or OpenAPI) and print every diagnostic.",
  details: `Without a spec, checks the input of every entry of the config file (mcpgen.config.ts, .mjs, .json or
.yaml in the current directory, or --config-file). Exit 0: no errors (warnings allowed); 1: errors;
2: usage error or unreadable file.`,
  flags: { ...COMMON_FLAGS, ...OPENAPI_FLAGS, ...CONFIG_FILE_FLAG },
  async run({ values, positionals }) {
    const common = commonFlags(values, validateCommand);
    if (positionals.length === 0) {
      const targets = await configuredTargets(values, common, validateCommand);
      if (targets.exitCode !== 0) process.exit(targets.exitCode);
      // One entry at a time (each has its own options), printed as one list: one JSON array for --format json.
      startProgress(
        targets.list.map((target) => target.input),
        values.quiet === true,
      );
      const results = targets.list.map((target) => validateFiles([target.input], target.options));
      progress.end();
      const diagnostics = results.flatMap((result) => result.diagnostics);
      printDiagnostics(diagnostics, common);
      const count = targets.list.length;
      process.stderr.write(`${count} file${count > 1 ? "s" : ""} checked: ${summary(diagnostics)}\n`);
      process.exit(Math.max(...results.map((result) => result.exitCode)));
    }
    if (typeof values["config-file"] === "string")
      fail("--config-file is for runs without a spec argument", validateCommand);
    startProgress(positionals, values.quiet === true);
    const result = validateFiles(positionals, common);
    progress.end();
    printDiagnostics(result.diagnostics, common);
    process.stderr.write(
      `${positionals.length} file${positionals.length > 1 ? "s" : ""} checked: ${summary(result.diagnostics)}\n`,
    );
    process.exit(result.exitCode);
  },
};
