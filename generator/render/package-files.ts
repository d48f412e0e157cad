/** package.json and tsconfig.json of a generated package: standalone after `npm install`. */
import { readFileSync } from "node:fs";
import type { Model } from "../normalize/normalize.ts";
import { placeholderGuard, registryName } from "./registry-name.ts";
import { header } from "./ts.ts";

const ROOT_PACKAGE = new URL("../../package.json", import.meta.url);

/** The exact versions mcpgen itself is built and tested with, so a generated package runs as tested. */
function pinned(): Record<string, string> {
  const pkg = JSON.parse(readFileSync(ROOT_PACKAGE, "utf8"));
  return { ...pkg.dependencies, ...pkg.devDependencies };
}

/** The files under src/ that dist/ code reads beside itself (both absent without tools): copied, not compiled. */
export const DIST_DATA = ["catalog.json", "search-index.json", "code-api.json", "validators"];

/** The start command's file and the package's bin: dist/ mirrors the package (dist/src, dist/runtime). */
export const DIST_ENTRY = "dist/server.js";
export const DIST_ENTRY_SOURCE = "#!/usr/bin/env node\nimport './src/server.js';\n";

/** After tsc: the data files beside the emitted code, and the entry (tsc emits only dist/src/server.js). */
const COPY_DATA = [
  "const fs = require('fs');",
  `for (const p of ${JSON.stringify(DIST_DATA).replaceAll('"', "'")})`,
  "if (fs.existsSync('src/' + p)) fs.cpSync('src/' + p, 'dist/src/' + p, { recursive: true });",
  `fs.writeFileSync('${DIST_ENTRY}', '${DIST_ENTRY_SOURCE.replaceAll("\n", "\\n").replaceAll("'", "\\'")}', { mode: 0o755 });`,
].join(" ");

/** package.json needs a semver version; an API's own ("2015-04-01", "v2") leaves the package at 0.0.0. */
export function packageVersion(model: Model): string {
  return /^\d+\.\d+\.\d+/.test(model.server.version) ? model.server.version : "0.0.0";
}

/**
 * `imported`: the npm packages the package's files import (runtime-files.ts's importedPackages), each
 * given the exact version mcpgen is tested with; a name mcpgen does not depend on is a defect of the
 * runtime and throws.
 */
export function renderPackageJson(model: Model, imported: readonly string[] = []): string {
  const versions = pinned();
  const pick = (names: readonly string[]) =>
    Object.fromEntries(
      names.map((name) => {
        if (!versions[name]) throw new Error(`the package's code imports '${name}', which mcpgen does not depend on`);
        return [name, versions[name]];
      }),
    );
  const pkg = {
    "//": header(model.specRef).slice(3).trim(),
    name: model.packageName,
    version: packageVersion(model),
    // Publishable unless the spec asks otherwise (`package: { private: true }`).
    ...(model.server.packagePrivate ? { private: true } : {}),
    description: model.server.description ?? `MCP server ${model.server.name}`,
    // The MCP Registry checks that the npm package names the server it lists (server.json's name).
    mcpName: registryName(model),
    type: "module",
    // `npx <package name>` runs the server: the bin has the package's name.
    bin: { [model.packageName]: DIST_ENTRY },
    // What `npm pack` ships: the compiled server and its TypeScript (handlers are the owner's code).
    files: [
      "dist/",
      "src/",
      "runtime/",
      "clients/",
      "scripts/",
      "server.json",
      "manifest.json",
      "tsconfig.json",
      "README.md",
    ],
    // The typed client; its .d.ts files come from `npm run build` (tsc), which `npm pack` runs first.
    exports: {
      ".": { types: "./dist/src/client.d.ts", default: "./dist/src/client.js" },
      "./types": { types: "./dist/src/types.d.ts", default: "./dist/src/types.js" },
      "./package.json": "./package.json",
    },
    engines: { node: ">=20" },
    scripts: {
      start: `node ${DIST_ENTRY}`,
      "start:http": `node ${DIST_ENTRY} --http --port 3000`,
      // tsc neither checks nor copies the validator chunks (allowJs would make it type-check megabytes
      // of generated JavaScript) or the catalog (catalog.json), so the build copies them beside the
      // emitted code. `generate` writes dist/ too (transpiled, not type-checked): after editing a
      // handler, `npm run build` (or generate) brings dist/ up to date.
      build: `tsc && node -e "${COPY_DATA}"`,
      prepack: "npm run build",
      // The advice about a placeholder registry name goes to the command that publishes, not to every generate.
      ...(model.server.registryName === undefined && !model.server.packagePrivate
        ? { prepublishOnly: placeholderGuard(model) }
        : {}),
      typecheck: "tsc --noEmit",
      // <name>.mcpb for Claude Desktop: manifest.json (MCPB), the compiled code, node_modules.
      bundle: "npm run build && node scripts/mcpb-bundle.mjs",
    },
    // Read off the files the package carries: a library comes only with the code that loads it.
    dependencies: pick(imported),
    // No tsx: it brings esbuild, whose install script npm warns about, for a loop `npm run build` covers.
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
      // .d.ts for the client export (package.json "exports"); dist/ mirrors the package from its root.
      declaration: true,
      rootDir: ".",
      outDir: "dist",
      types: ["node"],
    },
    // runtime/ holds only the modules src/ imports (render/runtime-files.ts).
    include: ["src", "runtime"],
  };
  return `${header(model.specRef)}${JSON.stringify(config, null, 2)}\n`;
}

/**
 * The package's .gitignore: what `git add -A` must not take. dist/ is build output (`mcpgen generate` and
 * `npm run build` write it from src/ and runtime/; the Dockerfile builds its own), like any TypeScript
 * package's. mcpgen's while it wrote it; a .gitignore it did not write stays the user's (write.ts).
 */
export function renderGitignore(head: string): string {
  return [
    head,
    "# Your own patterns: .git/info/exclude, or a .gitignore in a subfolder.",
    "# dist/ is build output: `mcpgen generate` or `npm run build` remakes it; npm pack and docker build make their own.",
    "node_modules",
    "dist",
    ".env",
    "*.tgz",
    "*.mcpb",
    "",
  ].join("\n");
}
