/** The packages a run without a spec argument generates or validates: the entries of the config file. */

import { CONFIG_FILES, findConfig, loadConfig, type Target } from "../config/load-config.ts";
import { DiagnosticBag } from "../diagnostics/diagnostic.ts";
import { type ExitCode, exitCodeOf } from "../index.ts";
import type { Command, Flags, Parsed } from "./command.ts";
import { type CommonFlags, fail, printDiagnostics } from "./shared.ts";

export const CONFIG_FILE_FLAG: Flags = {
  "config-file": {
    type: "string",
    value: "<file>",
    help: "the mcpgen config to run when no spec is given (default: mcpgen.config.{ts,mjs,json,yaml} here)",
  },
  "allow-paths-outside-config": {
    type: "boolean",
    help: "let a JSON or YAML config name input, output and mappingFile outside its own folder (default: refused)",
  },
};

export async function configuredTargets(
  values: Parsed["values"],
  common: CommonFlags,
  command: Command,
): Promise<{ exitCode: ExitCode; list: Target[] }> {
  const given = values["config-file"];
  const file = typeof given === "string" ? given : findConfig(".");
  if (file === undefined) {
    const names = CONFIG_FILES.filter((name) => !/\.(mts|js|yml)$/.test(name)).join(", ");
    fail(`no spec given and no config file here (${names}); 'mcpgen init' writes a starter`, command);
  }
  const bag = new DiagnosticBag();
  const targets = await loadConfig(file, bag, values["allow-paths-outside-config"] === true);
  if (!targets) {
    const diagnostics = bag.sorted();
    printDiagnostics(diagnostics, common);
    process.stderr.write(`${file}: no package ${command.name === "generate" ? "generated" : "checked"}\n`);
    return { exitCode: exitCodeOf(diagnostics) || 1, list: [] };
  }
  // Flags on the command line add to each entry's settings: more selectors, a size limit, remote refs.
  const list = targets.map((target) => {
    const fromConfig = target.options.openapi ?? {};
    const flags = common.openapi ?? {};
    const include = [...(fromConfig.include ?? []), ...(flags.include ?? [])];
    const exclude = [...(fromConfig.exclude ?? []), ...(flags.exclude ?? [])];
    const config = flags.config ?? fromConfig.config;
    const openapi = {
      ...fromConfig,
      ...(include.length > 0 ? { include } : {}),
      ...(exclude.length > 0 ? { exclude } : {}),
      ...(config ? { config } : {}),
      ...(flags.allowRemoteRefs ? { allowRemoteRefs: true } : {}),
      ...(flags.allowInsecureRefs ? { allowInsecureRefs: true } : {}),
      ...(flags.refRoots ? { refRoots: [...(fromConfig.refRoots ?? []), ...flags.refRoots] } : {}),
      ...(flags.refTimeoutMs ? { refTimeoutMs: flags.refTimeoutMs } : {}),
    };
    const maxBytes = common.maxBytes ?? target.options.maxBytes;
    const features = common.features ?? target.options.features;
    return {
      ...target,
      options: {
        ...target.options,
        ...(maxBytes ? { maxBytes } : {}),
        openapi,
        ...(features ? { features } : {}),
      },
    };
  });
  return { exitCode: 0, list };
}
