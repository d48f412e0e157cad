/**
 * `generate --check`: server.json's version (and its npm package's) against package.json's, as the files
 * stand on disk. generate writes one version into both, but `npm version` bumps package.json alone, and
 * `mcp-publisher publish` would then list a version npm does not serve.
 */
import type { DiagnosticBag } from "../diagnostics/diagnostic.ts";
import { SERVER_JSON_FILE } from "../render/registry-server-json.ts";
import type { OutputDir } from "./output-dir.ts";

type ServerJson = { version?: unknown; packages?: Array<{ registryType?: unknown; version?: unknown }> };

function parse<T>(text: string | undefined): T | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined; // a file that is no JSON any more is already reported as one --check would rewrite
  }
}

/** Where `"<key>":` first appears in a JSON text, 1-based. */
function locate(text: string, key: string): { line: number; col: number } {
  const at = text.indexOf(`"${key}"`);
  if (at < 0) return { line: 1, col: 1 };
  const before = text.slice(0, at).split("\n");
  return { line: before.length, col: before[before.length - 1].length + 1 };
}

/** Reports SERVER_JSON_VERSION_DRIFT for each version in server.json that is not package.json's. */
export function checkServerJsonVersion(dir: OutputDir, bag: DiagnosticBag): void {
  const serverText = dir.read(SERVER_JSON_FILE);
  const server = parse<ServerJson>(serverText);
  const pkg = parse<{ version?: unknown }>(dir.read("package.json"));
  if (!server || !pkg || typeof pkg.version !== "string") return;
  const found = [
    { what: "version", pointer: "/version", value: server.version },
    ...(server.packages ?? []).flatMap((p, n) =>
      p.registryType === "npm"
        ? [{ what: "npm package version", pointer: `/packages/${n}/version`, value: p.version }]
        : [],
    ),
  ];
  for (const { what, pointer, value } of found) {
    if (value === pkg.version) continue;
    const report = bag.reporter(dir.display(SERVER_JSON_FILE), () => locate(serverText ?? "", "version"));
    report(
      "SERVER_JSON_VERSION_DRIFT",
      pointer,
      `server.json's ${what} is ${JSON.stringify(value)} but package.json's is ${JSON.stringify(pkg.version)}`,
    );
  }
}
