// Everything the runtime and start-up benchmarks run is compiled to plain
// JavaScript first, so no server pays for a TypeScript loader (tsx) and ours
// and the SDK's start the same way: `node file.js`. The generated packages run
// from the dist/ that `mcpgen generate` writes (`node dist/server.js`, their
// documented start command).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, ECHO_SPEC, NODE, ROOT, SCRATCH } from "./paths.ts";
import { timed } from "./rounds.ts";

const BUILD = `${SCRATCH}build/`;

export type ServerFiles = { rawStdio: string; rawHttp: string; runtime: string; sdk: string };

export function compileBenchServers(): ServerFiles {
  rmSync(BUILD, { recursive: true, force: true });
  const dir = `${ROOT}bench/servers/`;
  const files = readdirSync(dir)
    .filter((name) => name.endsWith(".ts"))
    .map((name) => dir + name);
  const flags = ["--outDir", BUILD, "--rootDir", ROOT, "--module", "NodeNext", "--moduleResolution", "NodeNext"];
  flags.push("--target", "ES2022", "--rewriteRelativeImportExtensions", "--skipLibCheck", "--types", "node");
  timed("tsc build of bench/servers", () => runTsc([...flags, ...files]));
  const out = (name: string) => `${BUILD}bench/servers/${name}.js`;
  const result = {
    rawStdio: out("raw-stdio-echo"),
    rawHttp: out("raw-http-echo"),
    runtime: out("runtime-echo"),
    sdk: out("sdk-echo"),
  };
  for (const file of Object.values(result)) if (!existsSync(file)) throw new Error(`tsc did not emit ${file}`);
  return result;
}

/** `mcpgen generate`; throws with its output when it fails. */
export function generate(spec: string, outDir: string, timeoutMs = 150_000): void {
  try {
    const args = [BIN.mcpgen, "generate", spec, "--out", outDir];
    const options = {
      cwd: ROOT,
      encoding: "utf8",
      stdio: "pipe",
      maxBuffer: 64 * 2 ** 20,
      timeout: timeoutMs,
    } as const;
    timed(`mcpgen generate ${spec.slice(ROOT.length)}`, () => execFileSync(NODE, args, options));
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`mcpgen generate ${spec} failed:\n${(stdout ?? "") + (stderr ?? "")}`.slice(0, 4000));
  }
}

/** A generated package's start command's file: `generate` writes dist/ (transpiled, with the data files),
 * and the documented start is `node dist/server.js`, so the bench runs exactly that, with no build of its own. */
export function distEntry(dir: string): string {
  const entry = join(dir, "dist/server.js");
  if (!existsSync(entry)) throw new Error(`mcpgen generate did not write ${entry}`);
  return entry;
}

const ECHO_HANDLER = `// The benchmark's echo handler (written by bench/lib/build.ts over the scaffold).
import type { HandlerContext } from "../../../runtime/index.ts";
import type { ToolResult } from "../../../runtime/package/spec-server.ts";
import type { EchoInput } from "../../types.ts";

export default async function toolEcho(args: EchoInput, _ctx: HandlerContext): Promise<ToolResult<{ [key: string]: unknown }>> {
  return { content: [{ type: "text", text: args.text }] };
}
`;

export type GeneratedServer = { dir: string; tsEntry: string; jsEntry: string };

/** The generated echo package (bench/specs/echo.yaml) with a real handler, built to JavaScript. */
export function echoPackage(): GeneratedServer {
  const dir = `${SCRATCH}gen/echo`;
  generate(ECHO_SPEC, dir);
  writeFileSync(join(dir, "src/handlers/tools/echo.ts"), ECHO_HANDLER);
  // Again, as a user does after editing a handler: generate compiles the edited handler into dist/.
  generate(ECHO_SPEC, dir);
  return { dir, tsEntry: join(dir, "src/server.ts"), jsEntry: distEntry(dir) };
}

/** Whether `mcpgen generate` accepts OpenAPI input yet (it answered OPENAPI_UNSUPPORTED before it did). */
export function openApiAvailable(spec: string): { ok: boolean; reason?: string } {
  const probe = `${SCRATCH}probe`;
  rmSync(probe, { recursive: true, force: true });
  mkdirSync(SCRATCH, { recursive: true });
  try {
    generate(spec, probe);
    return { ok: true };
  } catch (error) {
    const message = (error as Error).message;
    if (message.includes("OPENAPI_UNSUPPORTED")) return { ok: false, reason: "OpenAPI input not available" };
    return { ok: false, reason: `mcpgen generate failed on ${spec}: ${message.split("\n").slice(1, 3).join(" ")}` };
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

function runTsc(args: string[]): void {
  try {
    execFileSync(NODE, [BIN.tsc, ...args], { cwd: ROOT, stdio: "pipe", encoding: "utf8", maxBuffer: 64 * 2 ** 20 });
  } catch {
    // Type errors still emit JavaScript; callers check that the files they need exist.
  }
}
