/**
 * `mcpgen init`: asks nothing. Writes a commented starter spec, or with --from-openapi a config file
 * pointing at an OpenAPI document; never overwrites a file; prints the next two commands.
 */
import { existsSync, lstatSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CONFIG_FILES } from "../config/load-config.ts";
import { SPEC_SCHEMA_PATH } from "../spec/check-structure.ts";
import type { Command } from "./command.ts";
import { fail } from "./shared.ts";

export const initCommand: Command = {
  name: "init",
  synopsis: "[<file>] [--from-openapi <document>]",
  summary: "Start a project: write a commented starter spec, or a config for an OpenAPI document.",
  details: `Writes <file> (default spec.yaml), a small valid spec to edit; with --from-openapi, writes
mcpgen.config.ts pointing at the document instead. Never overwrites an existing file.`,
  flags: {
    "from-openapi": { type: "string", value: "<document>", help: "write mcpgen.config.ts for this OpenAPI document" },
  },
  run({ values, positionals }) {
    if (positionals.length > 1) fail("init takes at most one file name", initCommand);
    const openapi = values["from-openapi"];
    if (typeof openapi === "string") return fromOpenApi(openapi, positionals[0]);
    const file = positionals[0] ?? "spec.yaml";
    refuseExisting(file);
    const schema = relative(dirname(resolve(file)), fileURLToPath(SPEC_SCHEMA_PATH))
      .split("\\")
      .join("/");
    writeNew(file, starterSpec(schema));
    const out = `${basename(file, extname(file))}-server`;
    done(file, [`mcpgen generate ${file} --out ${out}`, serve(out)]);
  },
};

function fromOpenApi(document: string, given: string | undefined): never {
  if (!existsSync(document)) fail(`no such file: '${document}'`, initCommand);
  const existing = CONFIG_FILES.find((name) => existsSync(name));
  if (existing) fail(`${existing} already exists; init never overwrites a file`, initCommand);
  const file = given ?? "mcpgen.config.ts";
  if (!/\.(ts|mts)$/.test(file)) fail("the config init writes is TypeScript: name it *.ts", initCommand);
  refuseExisting(file);
  const input = relative(dirname(resolve(file)), resolve(document))
    .split("\\")
    .join("/");
  const output = `${basename(document, extname(document)).replace(/[^A-Za-z0-9_-]+/g, "-")}-mcp`;
  writeNew(file, starterConfig(input, output));
  const run = given ? `mcpgen generate --config-file ${file}` : "mcpgen generate";
  done(file, [run, serve(output)]);
}

/** The generated package stands alone after `npm install` (docs/getting-started.md); start:http serves on port 3000. */
function serve(dir: string): string {
  return `cd ${dir} && npm install && npm run start:http`;
}

/** lstat, not exists: a dangling symbolic link is a file that exists (writing through it would create its target). */
function refuseExisting(file: string): void {
  if (lstatSync(file, { throwIfNoEntry: false }) !== undefined)
    fail(`${file} already exists; init never overwrites a file`, initCommand);
}

/** Created exclusively (O_EXCL: never through a link, nor over a file that appeared since the check). */
function writeNew(file: string, content: string): void {
  try {
    writeFileSync(file, content, { flag: "wx" });
  } catch (error) {
    fail(`cannot write ${file}: ${(error as Error).message}`, initCommand);
  }
}

function done(file: string, next: string[]): never {
  process.stdout.write(`wrote ${file}\n\nnext:\n${next.map((line) => `  ${line}`).join("\n")}\n`);
  process.exit(0);
}

function starterSpec(schema: string): string {
  return `# yaml-language-server: $schema=${schema}
#
# A starter mcpgen spec. Edit it, then generate a typed MCP server from it (the commands that
# 'mcpgen init' printed). Every part of the language is in mcpgen's docs/spec-language.md.
server:
  name: starter                # the server's MCP name
  version: 0.1.0               # semver
  description: What this server offers, in a sentence.
  # To publish it: set registryName (io.github.<your GitHub user>/starter, the name the MCP Registry
  # lists) and remove 'package: { private: true }' below, which keeps npm from publishing it meanwhile.

package: { private: true }

tools:
  # A tool without 'http:' is served by a handler you write: generate scaffolds
  # src/handlers/tools/greet.ts once and never overwrites it.
  - name: greet
    description: Greet someone by name.
    inputSchema:               # JSON Schema 2020-12; the root is always an object
      type: object
      properties:
        name: { type: string, description: "Who to greet, e.g. Ada" }   # quote text with commas
      required: [name]
    annotations: { readOnlyHint: true }

  # A tool can forward to a REST API instead: add 'upstream: { baseUrl: https://... }' at the
  # top level and 'http: { method: GET, path: "/items/{id}" }' here; no handler is needed.

resources:
  - uri: starter://readme      # static content, served as is
    name: readme
    mimeType: text/plain
    text: This server was generated by mcpgen.

prompts:
  - name: introduce
    description: Ask the model to introduce someone.
    arguments: [{ name: name, required: true }]
    messages:
      - { role: user, content: { type: text, text: "Introduce {{name}} in one paragraph." } }
`;
}

function starterConfig(input: string, output: string): string {
  return `// mcpgen config: 'mcpgen generate' (no arguments) generates every package listed here.
// Paths are relative to this file. Every field is in mcpgen's docs/reference/config.md.
import { defineConfig } from "mcpgen";

export default defineConfig({
  input: ${JSON.stringify(input)},
  output: ${JSON.stringify(output)},
  openapi: {
    // Keep only some operations: tag:<glob>, op:<glob> (operationId), path:<glob>, method:<METHOD>.
    // include: ["tag:pets"],
    // exclude: ["method:DELETE"],
    // maxTools: 5000,
  },
});
`;
}
