/**
 * `mcpgen generate --watch --serve` over real processes (issue 12): the spec is edited on disk the way
 * editors save (write a temporary file, rename it over the spec), and the served tools change over HTTP;
 * an invalid spec is reported and survived; SIGTERM stops the server child and exits 0.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { connect } from "../../runtime/index.ts";
import { ROOT, scratchDir } from "./support.ts";

const spec = (tools: string[]) =>
  [
    "server: { name: watched, version: 1.0.0 }",
    "tools:",
    ...tools.map((name) => `  - name: ${name}\n    description: Tool ${name}.\n    inputSchema: { type: object }`),
    "",
  ].join("\n");

/** Saves as editors do: a new file renamed over the old one (a new inode). */
function save(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

let watcher: ChildProcess | undefined;
afterAll(() => {
  watcher?.kill("SIGKILL");
});

async function listTools(url: string): Promise<string[]> {
  const client = await connect({ url });
  try {
    return (await client.listTools()).tools.map((tool) => tool.name).sort();
  } finally {
    await client.close();
  }
}

/** Running, that is: its /proc entry exists and it is not a zombie waiting to be reaped (by PID 1 here). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
};

describe("mcpgen generate --watch --serve", () => {
  it("regenerates and restarts the server on each spec change, survives an invalid spec, stops cleanly", async () => {
    const dir = scratchDir("watch");
    const file = join(dir, "spec.yaml");
    writeFileSync(file, spec(["alpha"]));
    const child = spawn(
      process.execPath,
      [join(ROOT, "bin/mcpgen.js"), "generate", file, "--out", join(dir, "out"), "--watch", "--serve", "--port", "0"],
      { cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
    );
    watcher = child;
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    /** Waits until the output after `from` matches, and returns the match. */
    const waitFor = async (pattern: RegExp, from: number, ms = 60_000) => {
      for (const end = Date.now() + ms; Date.now() < end; ) {
        const match = output.slice(from).match(pattern);
        if (match) return match;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`timed out waiting for ${pattern}; output so far:\n${output}`);
    };

    const first = await waitFor(/watched listening on (http:\S+)/, 0);
    const url = first[1];
    expect(await listTools(url)).toEqual(["alpha"]);

    // A tool added on disk: regenerated (the surface diff says so) and served after the restart.
    let mark = output.length;
    save(file, spec(["alpha", "beta"]));
    await waitFor(/\+ tool beta/, mark);
    await waitFor(/watched listening on/, mark);
    expect(await listTools(url)).toEqual(["alpha", "beta"]);

    // A broken save: diagnostics printed, last good output and the server kept.
    mark = output.length;
    save(file, `${spec(["alpha", "beta"])}  - name: [broken\n`);
    await waitFor(/keeps its last good output and the server keeps running/, mark);
    expect(output.slice(mark)).toMatch(/spec\.yaml:\d+:\d+: error YAML_SYNTAX/);
    expect(await listTools(url)).toEqual(["alpha", "beta"]);

    // Fixed again: back to normal.
    mark = output.length;
    save(file, spec(["gamma"]));
    await waitFor(/watched listening on/, mark);
    expect(await listTools(url)).toEqual(["gamma"]);

    // SIGTERM: the server child goes too, and the watcher exits 0.
    const serverPids = await childPids(child.pid!);
    expect(serverPids.length).toBeGreaterThan(0);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    for (const pid of serverPids) expect(alive(pid)).toBe(false);
    await expect(listTools(url)).rejects.toThrow();
  }, 240_000);
});

/** The pids of a process's children, from /proc (Linux, where the tests run). */
async function childPids(pid: number): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === pid) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

describe("what --watch watches", () => {
  it("follows local $refs (YAML and JSON, quoted or not, transitively), not remote ones", async () => {
    const { localRefs } = await import("../../generator/cli/watch-files.ts");
    const dir = scratchDir("watch-refs");
    writeFileSync(
      join(dir, "api.yaml"),
      'openapi: 3.1.0\nx: { $ref: "./parts/a.yaml#/A" }\ny:\n  $ref: https://example.com/s.json\nz: { $ref: "#/local" }\n',
    );
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(dir, "parts"));
    writeFileSync(join(dir, "parts/a.yaml"), "A:\n  $ref: b.json\n");
    writeFileSync(join(dir, "parts/b.json"), '{ "$ref": "a.yaml#/A" }');
    expect(localRefs(join(dir, "api.yaml")).sort()).toEqual([join(dir, "parts/a.yaml"), join(dir, "parts/b.json")]);
  });

  it("does not read a $ref'd FIFO or device (it would block), though it still watches the path", async () => {
    const { localRefs } = await import("../../generator/cli/watch-files.ts");
    const dir = scratchDir("watch-fifo");
    execFileSync("mkfifo", [join(dir, "pipe.yaml")]);
    writeFileSync(join(dir, "api.yaml"), 'x: { $ref: "./pipe.yaml#/A" }\ny: { $ref: "/dev/zero" }\n');
    expect(localRefs(join(dir, "api.yaml")).sort()).toEqual(["/dev/zero", join(dir, "pipe.yaml")].sort());
  });

  it("refuses --port without --serve, --check with --watch, and a missing --out", async () => {
    const { parseWatchArgs } = await import("../../generator/cli/watch.ts");
    expect(parseWatchArgs(["s.yaml", "--out", "o", "--watch", "--port", "1"])).toBe("--port needs --serve");
    expect(parseWatchArgs(["s.yaml", "--out", "o", "--watch", "--check"])).toBe(
      "--watch and --check do not go together",
    );
    expect(parseWatchArgs(["s.yaml", "--watch"])).toBe("generate --watch needs --out <dir>");
    expect(parseWatchArgs(["s.yaml", "--out", "o", "--watch", "--serve", "--config", "c.yaml", "--quiet"])).toEqual({
      spec: "s.yaml",
      out: "o",
      config: "c.yaml",
      serve: true,
      port: 3000,
      childArgs: ["s.yaml", "--out", "o", "--config", "c.yaml", "--quiet"],
    });
  });
});
