/**
 * The mcpgen command line (CONTRACT §1). The only module that writes to the terminal or exits; every
 * failure below it arrives here as diagnostics.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { catalog, isCode } from "./catalog.ts";
import { formatJson, formatText, summary } from "./diagnostics.ts";
import { validateFiles } from "./index.ts";

const USAGE = `usage:
  mcpgen validate <spec> [<spec>...] [--format text|json] [--max-size <MiB>]
  mcpgen explain <CODE>
  mcpgen --version | --help

A spec is an mcpgen spec (YAML or JSON). Exit codes: 0 no errors, 1 errors found, 2 usage error or unreadable file.`;

function fail(message: string): never {
  process.stderr.write(`mcpgen: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function validateCommand(args: string[]): never {
  let parsed: ReturnType<typeof parseValidateArgs>;
  try {
    parsed = parseValidateArgs(args);
  } catch (error) {
    fail((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length === 0) fail("validate needs at least one spec file");
  const format = values.format ?? "text";
  if (format !== "text" && format !== "json") fail(`--format must be text or json, not '${format}'`);
  const maxSize = values["max-size"] === undefined ? undefined : Number(values["max-size"]);
  if (maxSize !== undefined && !(maxSize > 0))
    fail(`--max-size must be a positive number of MiB, not '${values["max-size"]}'`);

  const result = validateFiles(positionals, maxSize ? { maxBytes: maxSize * 1024 * 1024 } : {});
  if (format === "json") process.stdout.write(`${formatJson(result.diagnostics)}\n`);
  else {
    if (result.diagnostics.length > 0) process.stdout.write(`${formatText(result.diagnostics)}\n`);
    process.stderr.write(
      `${positionals.length} file${positionals.length > 1 ? "s" : ""} checked: ${summary(result.diagnostics)}\n`,
    );
  }
  process.exit(result.exitCode);
}

function parseValidateArgs(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: { format: { type: "string" }, "max-size": { type: "string" } },
  });
}

function explainCommand(args: string[]): never {
  const code = args[0];
  if (!code || args.length > 1) fail("explain takes one diagnostic code");
  if (!isCode(code)) fail(`unknown diagnostic code '${code}'; the README lists them all`);
  const entry = catalog[code];
  process.stdout.write(`${code} (${entry.severity}): ${entry.title}\n\nWhy: ${entry.cause}\nFix: ${entry.fix}\n`);
  process.exit(0);
}

function main(argv: string[]): never {
  const [command, ...rest] = argv;
  switch (command) {
    case "validate":
      return validateCommand(rest);
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

main(process.argv.slice(2));
