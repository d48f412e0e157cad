// A real nginx for tests (Debian package nginx; `.ci/run` installs it), run in the foreground as the
// test's child with its own prefix directory (temp files, error log, pid), so nothing of the system's
// nginx is used. The configuration is given as text: a test takes a generated `deploy/nginx.conf` and
// points its listen port and upstream servers at its own processes.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitForPort } from "./free-port.ts";

export type Nginx = {
  dir: string;
  /** The error log so far (for a failing test's message). */
  errorLog(): string;
  stop(): Promise<void>;
};

export function nginxPath(): string {
  const found = spawnSync("sh", ["-c", "command -v nginx || ls /usr/sbin/nginx"], { encoding: "utf8" }).stdout.trim();
  if (!found) throw new Error("nginx is not installed: apt-get install nginx (.ci/run does it)");
  return found.split("\n")[0];
}

/** Checks a configuration with `nginx -t`; the output when it is refused, else undefined. */
export function nginxConfigError(config: string): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), "mcpgen-nginx-t-"));
  try {
    writeFileSync(join(dir, "nginx.conf"), config);
    const result = spawnSync(nginxPath(), [...nginxArgs(dir), "-t"], { encoding: "utf8" });
    return result.status === 0 ? undefined : `${result.stdout}${result.stderr}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts nginx with this configuration and waits until it accepts connections on `listenPort`. */
export async function startNginx(config: string, listenPort: number): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), "mcpgen-nginx-"));
  writeFileSync(join(dir, "nginx.conf"), config);
  const child: ChildProcess = spawn(nginxPath(), nginxArgs(dir), { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const errorLog = () => {
    try {
      return stderr + readFileSync(join(dir, "error.log"), "utf8");
    } catch {
      return stderr;
    }
  };
  try {
    await Promise.race([
      waitForPort(listenPort),
      exited.then(() => {
        throw new Error(`nginx exited at start:\n${errorLog()}`);
      }),
    ]);
  } catch (error) {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    dir,
    errorLog,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM"); // fast shutdown of master and workers
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function nginxArgs(dir: string): string[] {
  // -p: relative paths (temp dirs) under the test's directory; -e: the error log before the config is read.
  return [
    "-p",
    `${dir}/`,
    "-c",
    join(dir, "nginx.conf"),
    "-e",
    join(dir, "error.log"),
    "-g",
    `daemon off; pid ${join(dir, "nginx.pid")};`,
  ];
}
