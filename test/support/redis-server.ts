// A real redis-server for tests (Debian package redis-server; `.ci/run` installs it): on 127.0.0.1, on a
// port of its own, with no persistence and its own data directory, stopped by the test. `restart()`
// brings it back on the same port, empty, as after a crash of an in-memory Redis.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, waitForPort } from "./free-port.ts";

export type RedisServer = {
  port: number;
  /** redis://127.0.0.1:<port>/0, the form `--session-store` takes. */
  url: string;
  /** Kills it (SIGKILL: no goodbye to clients), as a crash would. */
  kill(): Promise<void>;
  /** Starts it again on the same port (after kill()). */
  start(): Promise<void>;
  /** kill() then start(). */
  restart(): Promise<void>;
  /** Stops it and removes its directory. */
  stop(): Promise<void>;
};

export function redisServerPath(): string {
  const found = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).stdout.trim();
  if (!found) throw new Error("redis-server is not installed: apt-get install redis-server (.ci/run does it)");
  return found;
}

export async function startRedis(): Promise<RedisServer> {
  const binary = redisServerPath();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "mcpgen-redis-"));
  let child: ChildProcess | undefined;
  const start = async () => {
    const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
    child = spawn(binary, [...args, "--dir", dir, "--daemonize", "no", "--loglevel", "warning"], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    await waitForPort(port);
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once("exit", () => resolve());
      running.kill("SIGKILL");
    });
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    kill,
    start,
    async restart() {
      await kill();
      await start();
    },
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
