/** `mcpgen explain <CODE>`: what a diagnostic means, why it happens, how to fix it (from the catalog). */
import { catalog, isCode } from "../diagnostics/catalog.ts";
import { closest } from "../diagnostics/spelling.ts";
import type { Command } from "./command.ts";
import { fail } from "./shared.ts";

export const explainCommand: Command = {
  name: "explain",
  synopsis: "<CODE>",
  summary: "Say what a diagnostic code means, why it happens and how to fix it.",
  details: "The code is matched without regard to case (header_type and HEADER_TYPE are the same).",
  flags: {},
  run({ positionals }) {
    if (positionals.length !== 1) fail("explain takes one diagnostic code", explainCommand);
    const code = positionals[0].trim().toUpperCase().replaceAll("-", "_");
    if (!isCode(code)) {
      const guess = closest(code, Object.keys(catalog));
      const hint = guess ? `; did you mean ${guess}?` : "; the README lists them all";
      fail(`unknown diagnostic code '${positionals[0]}'${hint}`, explainCommand);
    }
    const entry = catalog[code];
    process.stdout.write(`${code} (${entry.severity}): ${entry.title}\n\nWhy: ${entry.cause}\nFix: ${entry.fix}\n`);
    process.exit(0);
  },
};
