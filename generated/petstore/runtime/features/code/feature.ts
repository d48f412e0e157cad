// The `code` feature: --mode code, search_docs and execute, which runs the agent's program in a
// WebAssembly sandbox (quickjs-emscripten) calling the API's tools (runtime/features/code/code-mode.ts).

import type { Feature } from "../../package/feature.ts";
import { registerCodeTools } from "./code-mode.ts";
import { CODE_LIMIT_DEFAULTS } from "./code-sandbox-types.ts";
import { CODE_TOOLS } from "./code-tools.ts";

export const codeFeature: Feature = {
  name: "code",
  mode: {
    name: "code",
    tools: CODE_TOOLS,
    register: (server, catalog, settings) =>
      registerCodeTools(server, catalog, {
        limits: { ...CODE_LIMIT_DEFAULTS, ...settings.limits },
        allowDestructive: settings.allowDestructive,
        ...(settings.concurrency !== undefined ? { concurrency: settings.concurrency } : {}),
        maxTokens: settings.maxTokens,
      }),
  },
};
