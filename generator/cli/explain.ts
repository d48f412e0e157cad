/** `mcpgen explain <CODE>`: what a diagnostic means, why it happens, how to fix it (from the catalog). */
import { catalog, isCode } from "../diagnostics/catalog.ts";
import { closest } from "../diagnostics/spelling.ts";
import { FEATURE_MODULES } from "../normalize/features.ts";
import { CLIENT_TOOL_LIMIT } from "../rules/tool-count.ts";
import type { Command } from "./command.ts";
import { fail } from "./shared.ts";

export const explainCommand: Command = {
  name: "explain",
  synopsis: "<CODE> | features",
  summary: "Say what a diagnostic code means, why it happens and how to fix it; or list the runtime features.",
  details:
    "The code is matched without regard to case (header_type and HEADER_TYPE are the same). `explain features` lists what `generate --features` takes.",
  flags: {},
  run({ positionals }) {
    if (positionals.length !== 1) fail("explain takes one diagnostic code, or 'features'", explainCommand);
    if (positionals[0].trim().toLowerCase() === "features") {
      process.stdout.write(featuresText());
      process.exit(0);
    }
    const code = positionals[0].trim().toUpperCase().replaceAll("-", "_");
    if (!isCode(code)) {
      const guess = closest(code, Object.keys(catalog));
      const hint = guess ? `; did you mean ${guess}?` : "; docs/reference/diagnostic-codes.md lists them all";
      fail(`unknown diagnostic code '${positionals[0]}'${hint}`, explainCommand);
    }
    const entry = catalog[code];
    process.stdout.write(`${code} (${entry.severity}): ${entry.title}\n\nWhy: ${entry.cause}\nFix: ${entry.fix}\n`);
    process.exit(0);
  },
};

/** The runtime features, one a line, as `generate --features` and the spec's `features:` take them. */
function featuresText(): string {
  const width = Math.max(...FEATURE_MODULES.map((feature) => feature.name.length));
  const lines = FEATURE_MODULES.map((feature) => `  ${feature.name.padEnd(width)}  ${feature.summary}`);
  return `Runtime features beside the core (generate --features a,b; all; none):\n${lines.join("\n")}\nWithout a choice a package gets the core, dynamic when it has more than ${CLIENT_TOOL_LIMIT} tools, tasks when a tool starts a long-running job, and apps when a tool asks for a view (ui:, x-mcp-ui).\n`;
}
