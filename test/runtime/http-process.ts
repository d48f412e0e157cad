// The HTTP fixture server (fixtures/http-server.ts) as a real child process: its URL, its stderr so far, stop().
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export type HttpProcess = { url: string; stderr(): string; stop(): Promise<void> };

export async function startHttpProcess(env: Record<string, string> = {}, nodeArgs: string[] = []) {
  const fixture = fileURLToPath(new URL("./fixtures/http-server.ts", import.meta.url));
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", fixture], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...env },
  });
  let stderr = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the fixture did not start:\n${stderr}`)), 15_000);
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk;
      const found = /listening on (\S+)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    void exited.then(() => reject(new Error(`the fixture exited at start:\n${stderr}`)));
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  };
  return { url, stderr: () => stderr, stop } satisfies HttpProcess;
}
