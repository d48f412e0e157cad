/** Checks the value a config file exports and turns it into targets, reporting each mistake at its key. */

import { isAbsolute, relative, resolve } from "node:path";
import type { Locator, Report } from "../diagnostics/diagnostic.ts";
import { closest } from "../diagnostics/spelling.ts";
import type { LoadOptions } from "../load.ts";
import { FEATURE_NAMES, featuresProblem } from "../normalize/features.ts";
import { toolsetNameProblem } from "../normalize/toolset-names.ts";
import { isReallyWithin } from "../output/real-path.ts";
import { childPointer } from "../source/json-pointer.ts";

/** One package to generate, with paths resolved against the config file's directory. */
export type Target = { input: string; output: string; options: LoadOptions };

/** The keys of one config entry (docs/reference/config.md lists them from GenerateTarget; a test keeps the two equal). */
export const TARGET_KEYS = ["input", "output", "maxSize", "openapi", "toolsets", "features"];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * `confined`: the config is data (JSON, YAML: the format for configs from elsewhere), so its input,
 * output and mappingFile must lie inside its own folder, judged by real path; `--allow-paths-outside-config`
 * lifts that. A TypeScript config is code, trusted like the person running mcpgen, and is not confined.
 */
type Where = { file: string; dir: string; locate: Locator; report: Report; confined: boolean };

export function checkConfig(value: unknown, where: Where): Target[] | undefined {
  const { report } = where;
  const entries = Array.isArray(value) ? value : [value];
  if (entries.length === 0) {
    report("CONFIG_INVALID", "", "the config lists no package to generate", {
      hint: "export { input: <spec>, output: <dir> }, or a list of them",
    });
    return undefined;
  }
  let ok = true;
  const targets: Target[] = [];
  entries.forEach((entry, index) => {
    const at = Array.isArray(value) ? `/${index}` : "";
    const target = checkTarget(entry, at, where);
    if (target) targets.push(target);
    else ok = false;
  });
  const outputs = new Map<string, number>();
  targets.forEach((target, index) => {
    const first = outputs.get(target.output);
    if (first !== undefined) {
      report("CONFIG_INVALID", `/${index}/output`, `entries ${first} and ${index} both write '${target.output}'`, {
        hint: "give each entry its own output directory",
        at: "key",
      });
      ok = false;
    } else outputs.set(target.output, index);
  });
  return ok ? targets : undefined;
}

function checkTarget(entry: unknown, at: string, { file, dir, locate, report, confined }: Where): Target | undefined {
  const bad = (pointer: string, message: string, hint?: string) =>
    report("CONFIG_INVALID", pointer, message, { at: "key", ...(hint ? { hint } : {}) });
  if (!isObject(entry)) {
    bad(at, `${at ? `entry ${at.slice(1)}` : "the config"} must be an object with input and output`);
    return undefined;
  }
  let ok = true;
  for (const key of Object.keys(entry)) {
    if (TARGET_KEYS.includes(key)) continue;
    const guess = closest(key, TARGET_KEYS);
    bad(
      childPointer(at, key),
      `unknown key '${key}' in the config`,
      guess ? `did you mean '${guess}'?` : `allowed keys: ${TARGET_KEYS.join(", ")}`,
    );
    ok = false;
  }
  const path = (key: "input" | "output"): string | undefined => {
    const text = entry[key];
    if (typeof text === "string" && text !== "") {
      if (!confined || isReallyWithin(resolve(dir, text), dir)) return fromHere(dir, text);
      bad(childPointer(at, key), `'${key}' names '${text}', outside the config file's folder`, OUTSIDE_HINT);
      return undefined;
    }
    bad(
      text === undefined ? at : childPointer(at, key),
      text === undefined ? `missing '${key}'` : `'${key}' must be a non-empty path`,
      `add ${key}: "<path>" (relative to the config file)`,
    );
    return undefined;
  };
  const input = path("input");
  const output = path("output");
  const options: Target["options"] = {};
  if (entry.maxSize !== undefined) {
    if (typeof entry.maxSize === "number" && entry.maxSize > 0) options.maxBytes = entry.maxSize * 1024 * 1024;
    else {
      bad(childPointer(at, "maxSize"), "maxSize must be a positive number of MiB");
      ok = false;
    }
  }
  const openapi = entry.openapi;
  if (openapi !== undefined) {
    if (!isObject(openapi)) {
      bad(childPointer(at, "openapi"), "openapi must be an object (include, exclude, maxTools...)");
      ok = false;
    } else {
      const { mappingFile, ...settings } = openapi;
      if (mappingFile !== undefined && typeof mappingFile !== "string") {
        bad(`${at}/openapi/mappingFile`, "openapi.mappingFile must be a path");
        ok = false;
      } else if (typeof mappingFile === "string" && confined && !isReallyWithin(resolve(dir, mappingFile), dir)) {
        bad(
          `${at}/openapi/mappingFile`,
          `'mappingFile' names '${mappingFile}', outside the config file's folder`,
          OUTSIDE_HINT,
        );
        ok = false;
      }
      options.openapi = {
        ...(typeof mappingFile === "string" ? { config: fromHere(dir, mappingFile) } : {}),
        settings: { file, value: settings, locate, pointer: `${at}/openapi` },
      };
    }
  }
  if (entry.toolsets !== undefined) {
    const map = checkToolsets(entry.toolsets, childPointer(at, "toolsets"), bad);
    if (map) options.toolsets = { map, file, locate, pointer: childPointer(at, "toolsets") };
    else ok = false;
  }
  if (entry.features !== undefined) {
    const names = entry.features;
    const problem =
      !Array.isArray(names) || names.some((name) => typeof name !== "string")
        ? "features must be a list of feature names"
        : featuresProblem(names as string[]);
    if (problem) {
      bad(childPointer(at, "features"), problem, `e.g. features: ["dynamic", "oauth"]; ${FEATURE_NAMES.join(", ")}`);
      ok = false;
    } else options.features = names as string[];
  }
  return ok && input && output ? { input, output, options } : undefined;
}

/** `toolsets: { from: to }`: every target a valid toolset name. Sources are checked against the spec later. */
function checkToolsets(
  value: unknown,
  at: string,
  bad: (pointer: string, message: string, hint?: string) => void,
): Record<string, string> | undefined {
  if (!isObject(value)) {
    bad(at, "toolsets must map toolset names to the names they become", 'e.g. toolsets: { pulls: "code" }');
    return undefined;
  }
  let ok = true;
  for (const [from, to] of Object.entries(value)) {
    const problem = typeof to === "string" ? toolsetNameProblem(to) : "must be a string";
    if (problem === undefined) continue;
    bad(
      childPointer(at, from),
      `toolsets: '${from}' becomes ${typeof to === "string" ? `'${to}', which ${problem}` : `a ${typeof to}: the target ${problem}`}`,
      "a toolset name is 1-64 characters of lowercase a-z, 0-9, '_' and '-', starting with a letter or digit; 'all' is reserved",
    );
    ok = false;
  }
  return ok ? (value as Record<string, string>) : undefined;
}

const OUTSIDE_HINT =
  "a JSON or YAML config reads and writes only inside its own folder; if you trust this config, pass --allow-paths-outside-config";

/** A path from the config file's directory, as the user would type it from the current one. */
function fromHere(dir: string, path: string): string {
  const full = resolve(dir, path);
  const short = relative(process.cwd(), full);
  return short !== "" && !short.startsWith("..") && !isAbsolute(short) ? short : full;
}
