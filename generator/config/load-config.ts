/**
 * Finds, loads and checks an mcpgen config file. JSON and YAML are read like a spec (positions from the
 * parser); TypeScript and JavaScript are imported (TypeScript through tsx), with positions found in the
 * source text by key name. Every mistake is a diagnostic with file:line:col; nothing here throws.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import { dirname, extname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parse as parseYaml } from "yaml";
import { DiagnosticBag, type Locator, type Report } from "../diagnostics/diagnostic.ts";
import { jsonLocator } from "../source/json-scan.ts";
import { isJsonFile } from "../source/read-json.ts";
import { readSource } from "../source/read-source.ts";
import { yamlLocator } from "../source/yaml-locator.ts";
import { checkConfig, type Target } from "./check-config.ts";
import { sourceLocator } from "./source-locator.ts";

/** Looked for in this order in the current directory. */
export const CONFIG_FILES = [
  "mcpgen.config.ts",
  "mcpgen.config.mts",
  "mcpgen.config.mjs",
  "mcpgen.config.js",
  "mcpgen.config.json",
  "mcpgen.config.yaml",
  "mcpgen.config.yml",
];

/** The first config file in `dir`, named as the user would type it from there. */
export function findConfig(dir: string): string | undefined {
  return CONFIG_FILES.find((name) => existsSync(join(dir, name)));
}

export type { Target } from "./check-config.ts";

/** `anywhere`: --allow-paths-outside-config, a data config's paths may leave its folder. */
export async function loadConfig(file: string, bag: DiagnosticBag, anywhere = false): Promise<Target[] | undefined> {
  const atStart = bag.reporter(file, () => ({ line: 1, col: 1 }));
  const ext = extname(file).toLowerCase();
  let value: unknown;
  let locate: Locator;
  let report: Report;
  if ([".json", ".yaml", ".yml"].includes(ext)) {
    const source = readData(file, bag);
    if (!source) return undefined;
    ({ value, locate, report } = source);
  } else if ([".ts", ".mts", ".mjs", ".js"].includes(ext)) {
    if (!existsSync(file)) {
      atStart("FILE_NOT_FOUND", "", `no such file: '${file}'`);
      return undefined;
    }
    const loaded = await importConfig(file, bag);
    if (!loaded) return undefined;
    value = loaded.value;
    locate = sourceLocator(loaded.text);
    report = bag.reporter(file, locate);
  } else {
    atStart("CONFIG_INVALID", "", `'${file}' is not a config file: use .ts, .mjs, .json or .yaml`);
    return undefined;
  }
  const confined = !anywhere && [".json", ".yaml", ".yml"].includes(ext);
  return checkConfig(value, { file, dir: dirname(resolve(file)), locate, report, confined });
}

/**
 * A JSON or YAML config, read like a spec (limits, strict JSON, positions), except that its top level may
 * be a list: one entry per package.
 */
function readData(file: string, bag: DiagnosticBag): { value: unknown; locate: Locator; report: Report } | undefined {
  const scratch = new DiagnosticBag();
  const source = readSource(file, scratch);
  if (source) return { value: source.value, locate: source.locate, report: bag.reporter(file, source.locate) };
  const notMapping = scratch.items.length === 1 && scratch.items[0].code === "SPEC_NOT_MAPPING";
  if (notMapping) {
    // The text parsed; only its top level was refused.
    const text = readFileSync(file, "utf8").replace(/^\uFEFF/, "");
    const value: unknown = isJsonFile(file) ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 1000 });
    const locate = isJsonFile(file) ? jsonLocator(text) : yamlLocator(text);
    if (Array.isArray(value)) return { value, locate, report: bag.reporter(file, locate) };
    bag.reporter(file, locate)(
      "CONFIG_INVALID",
      "",
      "the config must be an object with input and output, or a list of them",
    );
    return undefined;
  }
  for (const diagnostic of scratch.items) bag.add(diagnostic);
  return undefined;
}

/** The package's runtime entry, which `import { defineConfig } from "mcpgen"` in a config resolves to. */
const ENTRY = new URL("./define-config.cjs", import.meta.url);
let hooked = false;

/**
 * A config imports "mcpgen" whether or not its project has mcpgen in node_modules (a global install,
 * npx): that one specifier goes to the running mcpgen's entry, from an ES module (a resolve hook) and
 * from CommonJS (tsx compiles a .ts config outside a `"type": "module"` package to CommonJS).
 */
function hookMcpgenSpecifier(): void {
  if (hooked) return;
  hooked = true;
  const hook = `export async function resolve(specifier, context, next) {
    if (specifier === "mcpgen") return { url: ${JSON.stringify(ENTRY.href)}, shortCircuit: true };
    return next(specifier, context);
  }`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
  const cjs = createRequire(import.meta.url)("node:module") as {
    _resolveFilename: (request: string, ...rest: unknown[]) => string;
  };
  const resolveFilename = cjs._resolveFilename;
  const entry = fileURLToPath(ENTRY);
  cjs._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
    return request === "mcpgen" ? entry : resolveFilename.call(this, request, ...rest);
  };
}

async function importConfig(file: string, bag: DiagnosticBag): Promise<{ value: unknown; text: string } | undefined> {
  const text = readFileSync(file, "utf8");
  hookMcpgenSpecifier();
  const url = pathToFileURL(resolve(file)).href;
  try {
    const { tsImport } = await import("tsx/esm/api");
    // A query makes every load fresh, so a process that loads the config twice sees the edits.
    const module = (await tsImport(`${url}?t=${Date.now()}`, import.meta.url)) as { default?: unknown };
    // A config compiled to CommonJS arrives as { default: module.exports }, itself { default: config }.
    let value = module.default;
    const keys = typeof value === "object" && value !== null ? Object.keys(value) : [];
    if (keys.length === 1 && keys[0] === "default") value = (value as { default: unknown }).default;
    // `export default loadSomething()`: a config may compute itself.
    if (value instanceof Promise) value = await value;
    if (value === undefined) {
      bag.reporter(file, () => ({ line: 1, col: 1 }))("CONFIG_INVALID", "", "the config file has no default export", {
        hint: "end it with: export default defineConfig({ input: ..., output: ... })",
      });
      return undefined;
    }
    return { value, text };
  } catch (error) {
    const { message, line, col } = describeFailure(error, url);
    bag.reporter(file, () => ({ line, col }))("CONFIG_LOAD_FAILED", "", `cannot load the config file: ${message}`);
    return undefined;
  }
}

/** The first line of what went wrong, and where: esbuild names file:line:col; a throw has it in its stack. */
function describeFailure(error: unknown, url: string): { message: string; line: number; col: number } {
  const text = error instanceof Error ? error.message : String(error);
  const syntax = /:(\d+):(\d+): ERROR: (.+)/.exec(text);
  if (syntax) return { message: syntax[3], line: Number(syntax[1]), col: Number(syntax[2]) + 1 };
  const stack = error instanceof Error ? (error.stack ?? "") : "";
  const quote = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const at = new RegExp(`(?:${quote(url)}|${quote(fileURLToPath(url))})(?:\\?[^:]*)?:(\\d+):(\\d+)`).exec(stack);
  const first = text.split("\n").find((line) => line.trim() !== "") ?? "unknown error";
  return { message: first.slice(0, 300), line: at ? Number(at[1]) : 1, col: at ? Number(at[2]) : 1 };
}
