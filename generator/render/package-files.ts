/** package.json and tsconfig.json of a generated package: standalone after `npm install`. */
import { readFileSync } from "node:fs";
import type { Model } from "../normalize/normalize.ts";
import { registryName } from "./registry-name.ts";
import { header } from "./ts.ts";

const ROOT_PACKAGE = new URL("../../package.json", import.meta.url);

/** The exact versions mcpgen itself is built and tested with, so a generated package runs as tested. */
function pinned(): Record<string, string> {
  const pkg = JSON.parse(readFileSync(ROOT_PACKAGE, "utf8"));
  return { ...pkg.dependencies, ...pkg.devDependencies };
}

/**
 * Copies src/manifest.json, src/search-index.json, src/code-api.json and src/validators/ (the last three
 * absent without tools) into dist/src.
 */
const COPY_DATA = [
  "const fs = require('fs');",
  "for (const p of ['manifest.json', 'search-index.json', 'code-api.json', 'validators'])",
  "if (fs.existsSync('src/' + p)) fs.cpSync('src/' + p, 'dist/src/' + p, { recursive: true });",
].join(" ");

/** package.json needs a semver version; an API's own ("2015-04-01", "v2") leaves the package at 0.0.0. */
export function packageVersion(model: Model): string {
  return /^\d+\.\d+\.\d+/.test(model.server.version) ? model.server.version : "0.0.0";
}

/**
 * `search`: the package's runtime holds tool search (runtime/package/search-*.ts, which import minisearch
 * and stemmer), or the package has tools to search.
 */
export function renderPackageJson(model: Model, search = model.tools.length > 0): string {
  const versions = pinned();
  const pick = (names: string[]) => Object.fromEntries(names.map((name) => [name, versions[name]]));
  const pkg = {
    "//": header(model.specRef).slice(3).trim(),
    name: model.packageName,
    version: packageVersion(model),
    private: true,
    description: model.server.description ?? `MCP server ${model.server.name}`,
    // The MCP Registry checks that the npm package names the server it lists (server.json's name).
    mcpName: registryName(model),
    type: "module",
    engines: { node: ">=20" },
    scripts: {
      start: "tsx src/server.ts",
      "start:http": "tsx src/server.ts --http --port 3000",
      // tsc neither checks nor copies the validator chunks (allowJs would make it type-check megabytes
      // of generated JavaScript) or the catalog (manifest.json), so the build copies them beside the
      // emitted code.
      build: `tsc && node -e "${COPY_DATA}"`,
      typecheck: "tsc --noEmit",
      // <name>.mcpb for Claude Desktop: manifest.json (MCPB), the compiled code, node_modules.
      bundle: "npm run build && node scripts/mcpb-bundle.mjs",
    },
    // minisearch and stemmer: dynamic mode's tool search (runtime/package/tool-search.ts); gpt-tokenizer:
    // the response budget (--max-response-tokens), loaded only for an answer over it; quickjs-emscripten:
    // code mode's sandbox (runtime/package/code-sandbox.ts), loaded on the first execute.
    dependencies: pick([
      "ajv",
      "ajv-formats",
      "gpt-tokenizer",
      ...(search ? ["minisearch", "quickjs-emscripten", "stemmer"] : []),
      "tsx",
    ]),
    devDependencies: pick(["@types/node", "typescript"]),
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

export function renderTsconfig(model: Model): string {
  const config = {
    compilerOptions: {
      target: "ES2022",
      // Node, not a browser: without the DOM library (the default for a target) tsc reads 1 MB less.
      lib: ["ES2022"],
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      skipLibCheck: true,
      verbatimModuleSyntax: true,
      rewriteRelativeImportExtensions: true,
      outDir: "dist",
      types: ["node"],
    },
    // runtime/ holds only the modules src/ imports (render/runtime-files.ts).
    include: ["src", "runtime"],
  };
  return `${header(model.specRef)}${JSON.stringify(config, null, 2)}\n`;
}
