/**
 * `mcpgen generate <spec> --out <dir> --watch [--serve [--port <n>]]`: regenerates whenever the spec, its
 * `--config` file or a local file it `$ref`s changes, and (with --serve) restarts the generated server
 * after each successful regeneration.
 *
 * Each regeneration is a child `mcpgen generate` with the same arguments, so it prints exactly what a
 * plain run prints (diagnostics, surface diff, written/removed files) and a failing spec cannot take the
 * watcher down. A spec with errors writes nothing, so the last good output and its server stay as they
 * were. Editors save in several steps and often rename a temporary file over the original, which
 * replaces the inode: we watch each file's directory (node:fs watch) and debounce the burst of events.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { type FSWatcher, watch } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DIST_ENTRY } from "../render/package-files.ts";
import { freePort, localRefs } from "./watch-files.ts";

const DEBOUNCE_MS = 150;
const BIN = fileURLToPath(new URL("../../bin/mcpgen.js", import.meta.url));

type WatchFlags = { spec: string; out: string; config?: string; serve: boolean; port: number; childArgs: string[] };

/** Splits the watch flags off; the rest goes to each child `mcpgen generate` untouched. */
export function parseWatchArgs(args: string[]): WatchFlags | string {
  const childArgs: string[] = [];
  let serve = false;
  let port: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--watch") continue;
    if (arg === "--serve") serve = true;
    else if (arg === "--port") port = args[++i] ?? "";
    else if (arg.startsWith("--port=")) port = arg.slice("--port=".length);
    else childArgs.push(arg);
  }
  if (port !== undefined && !serve) return "--port needs --serve";
  const portNumber = port === undefined ? 3000 : Number(port);
  if (port === "" || !Number.isInteger(portNumber) || portNumber < 0 || portNumber > 65535)
    return `--port must be 0-65535, not '${port}'`;
  // Only to learn which files to watch: the child reports any other usage error itself.
  const { values, positionals } = parseArgs({
    args: childArgs,
    strict: false,
    allowPositionals: true,
    options: {
      out: { type: "string" },
      config: { type: "string" },
      format: { type: "string" },
      "max-size": { type: "string" },
      include: { type: "string", multiple: true },
      exclude: { type: "string", multiple: true },
      "summary-md": { type: "string" },
    },
  });
  if (positionals.length !== 1) return "generate --watch takes exactly one spec file";
  if (typeof values.out !== "string" || values.out === "") return "generate --watch needs --out <dir>";
  if (values.check === true) return "--watch and --check do not go together";
  const config = typeof values.config === "string" ? values.config : undefined;
  return { spec: positionals[0], out: values.out, ...(config ? { config } : {}), serve, port: portNumber, childArgs };
}

/** Runs until SIGINT or SIGTERM; resolves with the exit code (0 then, 2 when the first run is a usage error). */
export async function watchGenerate(flags: WatchFlags, log = (line: string) => process.stderr.write(`${line}\n`)) {
  const port = flags.serve && flags.port === 0 ? await freePort() : flags.port;
  let server: ChildProcess | undefined;
  let generating: ChildProcess | undefined;
  let watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  let pending = false;
  let stopping = false;
  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((resolve) => {
    finish = resolve;
  });

  const watchedFiles = () => {
    const files = [flags.spec, ...(flags.config ? [flags.config] : []), ...localRefs(flags.spec)];
    return [...new Set(files.map((file) => resolve(file)))];
  };
  const rewatch = () => {
    for (const watcher of watchers) watcher.close();
    const byDir = new Map<string, Set<string>>();
    for (const file of watchedFiles()) {
      const names = byDir.get(dirname(file)) ?? new Set<string>();
      byDir.set(dirname(file), names.add(basename(file)));
    }
    watchers = [];
    for (const [dir, names] of byDir) {
      try {
        const watcher = watch(dir, (_event, name) => {
          if (name === null || names.has(basename(name.toString()))) schedule();
        });
        watcher.on("error", () => {}); // a directory removed under us: the next run says what is missing
        watchers.push(watcher);
      } catch {
        log(`[watch] cannot watch ${dir} (it does not exist?)`);
      }
    }
    return byDir.size;
  };
  const schedule = () => {
    if (stopping) return;
    clearTimeout(timer);
    timer = setTimeout(() => void regenerate(), DEBOUNCE_MS);
  };

  const runChild = () =>
    new Promise<number>((done) => {
      generating = spawn(process.execPath, [BIN, "generate", ...flags.childArgs], { stdio: "inherit" });
      generating.on("exit", (code, signal) => done(code ?? (signal ? 1 : 2)));
      generating.on("error", () => done(2));
    });

  let first = true;
  const regenerate = async (): Promise<void> => {
    if (generating) {
      pending = true; // a change during a run: run again once it ends
      return;
    }
    const started = Date.now();
    if (!first) log(`[watch] change detected: regenerating ${flags.out}`);
    const code = await runChild();
    generating = undefined;
    if (stopping) return;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (first && code === 2) {
      log("[watch] stopped: fix the command line above and start again");
      return stop(2);
    }
    first = false;
    const count = rewatch(); // the spec may now $ref other files
    if (code === 0) {
      log(`[watch] regenerated in ${seconds} s; watching ${count} folder${count > 1 ? "s" : ""} (Ctrl-C stops)`);
      if (flags.serve) await restartServer();
    } else {
      log(
        `[watch] the spec has errors (above): ${flags.out} keeps its last good output${server ? " and the server keeps running" : ""}`,
      );
    }
    if (pending && !stopping) {
      pending = false;
      await regenerate();
    }
  };

  const restartServer = async () => {
    const previous = server;
    server = undefined; // its exit is ours, not a crash to report
    await stopChild(previous);
    if (stopping) return;
    // The package's own start command: every generate rewrites dist/, the served handlers included.
    const entry = join(flags.out, DIST_ENTRY);
    const child = spawn(process.execPath, [entry, "--http", "--port", String(port)], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    server = child;
    child.on("exit", (code, signal) => {
      if (server === child && !stopping) {
        server = undefined;
        log(`[watch] the server exited (${signal ?? `code ${code}`}); it restarts after the next regeneration`);
      }
    });
  };

  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
    await Promise.all([stopChild(generating), stopChild(server)]);
    finish(code);
  };
  const onSignal = () => void stop(0);
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  await regenerate();
  const code = await finished;
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  return code;
}

/** SIGTERM, then SIGKILL if the child has not exited within 3 s; resolves once it is gone. */
function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 3000);
    child.once("exit", () => {
      clearTimeout(force);
      done();
    });
    child.kill("SIGTERM");
  });
}
