// Starts a server program as a real child process (Node 20 + tsx) and waits for the line it prints
// once bound ("LISTENING <url>" from the fixtures, "<name> listening on <url>" from generated
// servers, on stdout or stderr), so tests never guess ports.
import { type ChildProcess, spawn } from "node:child_process";
import { REPO_ROOT } from "./harness.ts";

export type RunningServer = { url: string; child: ChildProcess; stop: () => Promise<void>; output: () => string };

export function startServerProcess(file: string, args: string[] = [], timeoutMs = 20_000): Promise<RunningServer> {
  const child = spawn(process.execPath, ["--import", "tsx", file, ...args], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${file} did not report LISTENING within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    let announced = false;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(?:LISTENING|listening on) (http\S+)/.exec(output);
      if (match && !announced) {
        announced = true;
        clearTimeout(timer);
        resolve({ url: match[1] as string, child, stop, output: () => output });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited with ${code} before listening:\n${output}`));
    });
  });
}
