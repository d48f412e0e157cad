// A generated package's server as users start it (`node dist/server.js <args>`, plain node, no tsx), in a
// process of its own: resolves once it listens (its URL from the "listening on" line) or exits.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";

export type RunningPackage = { url?: string; stderr: string; code: number | null; child: ChildProcess };

export async function runPackage(pkg: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningPackage> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "NODE_OPTIONS"));
  const child = spawn(process.execPath, [join(pkg, "dist/server.js"), ...args], {
    cwd: pkg,
    env: { ...clean, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const running: RunningPackage = { stderr: "", code: null, child };
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 20_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      running.stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(running.stderr);
      if (match && !running.url) {
        running.url = match[1];
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      running.code = code;
      clearTimeout(timer);
      resolve();
    });
  });
  return running;
}

/** SIGTERM, then its exit (nothing to do if it has ended). */
export async function stopPackage(running: RunningPackage): Promise<void> {
  if (running.child.exitCode !== null || running.child.signalCode !== null) return;
  running.child.kill("SIGTERM");
  await once(running.child, "exit");
}
