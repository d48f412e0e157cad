// The `code` feature: --mode code, search_docs and execute, which runs the agent's program in a
// WebAssembly sandbox (quickjs-emscripten) calling the API's tools (code-mode.ts).
import type { Feature, FeatureInput, FeatureSetup } from "../../package/feature.ts";
import { optional } from "../../package/flag-parser.ts";
import { registerCodeTools } from "./code-mode.ts";
import { CODE_LIMIT_DEFAULTS } from "./code-sandbox-types.ts";
import { CODE_TOOLS } from "./code-tools.ts";

export const codeFeature: Feature = {
  name: "code",
  configure,
  mode: {
    name: "code",
    tools: CODE_TOOLS,
    register: (server, catalog, settings) =>
      registerCodeTools(server, catalog, {
        limits: { ...CODE_LIMIT_DEFAULTS, ...settings.codeLimits },
        allowDestructive: settings.allowDestructive === true,
        ...(settings.codeConcurrency !== undefined ? { concurrency: settings.codeConcurrency } : {}),
        ...(settings.fitResult ? { fitResult: settings.fitResult } : {}),
        ...(settings.instrument ? { instrument: settings.instrument } : {}),
      }),
  },
};

/** Code mode's flags (or their env twins) as server options. */
function configure({ values }: FeatureInput): FeatureSetup {
  const memoryMb = values["code-memory"] as number | undefined;
  const codeLimits = {
    ...optional("timeoutMs", values["code-timeout"]),
    ...(memoryMb !== undefined ? { memoryBytes: memoryMb * 1024 * 1024 } : {}),
    ...optional("maxCalls", values["code-max-calls"]),
  };
  return {
    server: {
      ...(Object.keys(codeLimits).length > 0 ? { codeLimits } : {}),
      ...(values["allow-destructive"] === true ? { allowDestructive: true } : {}),
      ...optional("codeConcurrency", values["code-concurrency"]),
    },
  };
}
