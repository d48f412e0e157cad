/** package.json and tsconfig.json of a generated package: standalone after `npm install`. */
import { readFileSync } from "node:fs";
import type { Model } from "../normalize.ts";
import { header } from "./ts.ts";

const ROOT_PACKAGE = new URL("../../package.json", import.meta.url);

/** The exact versions mcpgen itself is built and tested with, so a generated package runs as tested. */
function pinned(): Record<string, string> {
  const pkg = JSON.parse(readFileSync(ROOT_PACKAGE, "utf8"));
  return { ...pkg.dependencies, ...pkg.devDependencies };
}

export function renderPackageJson(model: Model): string {
  const versions = pinned();
  const pick = (names: string[]) => Object.fromEntries(names.map((name) => [name, versions[name]]));
  const pkg = {
    "//": header(model.specRef).slice(3).trim(),
    name: model.packageName,
    version: /^\d+\.\d+\.\d+/.test(model.server.version) ? model.server.version : "0.0.0",
    private: true,
    description: model.server.description ?? `MCP server ${model.server.name}`,
    type: "module",
    engines: { node: ">=20" },
    scripts: {
      start: "tsx src/server.ts",
      "start:http": "tsx src/server.ts --http --port 3000",
      // tsc neither checks nor copies the validator chunks (allowJs would make it type-check megabytes
      // of generated JavaScript), so the build copies them beside the emitted code.
      build: "tsc && node -e \"require('fs').cpSync('src/validators', 'dist/src/validators', { recursive: true })\"",
      typecheck: "tsc --noEmit",
    },
    dependencies: pick(["ajv", "ajv-formats", "tsx"]),
    devDependencies: pick(["@types/node", "typescript"]),
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

export function renderTsconfig(model: Model): string {
  const config = {
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      skipLibCheck: true,
      verbatimModuleSyntax: true,
      rewriteRelativeImportExtensions: true,
      outDir: "dist",
      types: ["node"],
    },
    include: ["src", "runtime"],
  };
  return `${header(model.specRef)}${JSON.stringify(config, null, 2)}\n`;
}
