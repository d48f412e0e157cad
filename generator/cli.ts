/**
 * The mcpgen command line (docs/command-line.md). The only code that writes to the terminal or exits; every
 * failure below it arrives as diagnostics. Each command lives in generator/cli/<name>.ts and is listed in
 * generator/cli/commands.ts; this file dispatches and answers --help and --version.
 */
import { readFileSync } from "node:fs";
import { helpText } from "./cli/command.ts";
import { COMMANDS } from "./cli/commands.ts";
import { fail, parse } from "./cli/shared.ts";
import { closest } from "./diagnostics/spelling.ts";

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`);
  return `usage: mcpgen <command> [options]

commands:
${lines.join("\n")}

  mcpgen <command> --help   every option of a command
  mcpgen --version          the version of mcpgen

A spec is an mcpgen spec (YAML or JSON) or an OpenAPI document (3.0, 3.1, Swagger 2.0).
Exit codes: 0 no errors, 1 errors found, 2 usage error or unreadable file.
`;
}

function version(): string {
  return JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;
}

async function main(argv: string[]): Promise<never> {
  const [name, ...rest] = argv;
  if (name === undefined) fail("no command given");
  if (name === "--version" || name === "-v" || name === "version") {
    process.stdout.write(`${version()}\n`);
    process.exit(0);
  }
  if (name === "--help" || name === "-h" || name === "help") {
    const about = rest[0] === undefined ? undefined : COMMANDS.find((c) => c.name === rest[0]);
    process.stdout.write(about ? helpText(about) : usage());
    process.exit(0);
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    const guess = closest(
      name,
      COMMANDS.map((c) => c.name),
    );
    fail(`unknown command '${name}'${guess ? `; did you mean '${guess}'?` : ""}`);
  }
  // --help wins over everything else on the line, even a flag the parser would refuse.
  const beforeDashes = rest.includes("--") ? rest.slice(0, rest.indexOf("--")) : rest;
  if (beforeDashes.includes("--help") || beforeDashes.includes("-h")) {
    process.stdout.write(helpText(command));
    process.exit(0);
  }
  return command.run(parse(command, rest), rest);
}

await main(process.argv.slice(2));
