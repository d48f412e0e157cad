/**
 * Every command in the docs runs (issue 33): each ```sh / ```bash fence of README.md and docs/, page by page
 * in order, in a fresh copy of this checkout (tracked and new files, node_modules linked), must end with exit
 * status 0 (or the `exit=<n>` its directive names) and print the ```text fence that follows it. A fence marked
 * `background port=<n>` is started, waited for until the port answers, and stopped after the page's last
 * fence. Skips are listed, and each must say why (doc-files.ts refuses one without a reason).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/docs.ts";
import { docFiles, type Fence, shellFences } from "./doc-files.ts";

const COMMAND_TIMEOUT_MS = 240_000;
const START_TIMEOUT_MS = 90_000;
const scratchDirs: string[] = [];

afterAll(() => {
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the checkout as the docs assume it: every tracked or new (not ignored) file, node_modules linked. */
function scratchCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcpgen-docs-"));
  scratchDirs.push(dir);
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\0")
    .filter((file) => file !== "" && existsSync(join(ROOT, file)));
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  symlinkSync(realpathSync(join(ROOT, "node_modules")), join(dir, "node_modules"));
  return dir;
}

const where = (fence: Fence) => `${fence.file}:${fence.line}`;

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

type Run = { status: number | null; output: string };

function start(fence: Fence, cwd: string): { child: ChildProcess; done: Promise<Run>; output: () => string } {
  const child = spawn("bash", ["-e", "-c", fence.code], { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const done = new Promise<Run>((resolve) => child.on("close", (status) => resolve({ status, output })));
  return { child, done, output: () => output };
}

function stop(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    // already gone
  }
}

async function runFence(fence: Fence, cwd: string): Promise<void> {
  const run = start(fence, cwd);
  const timer = setTimeout(() => stop(run.child), COMMAND_TIMEOUT_MS);
  const { status, output } = await run.done;
  clearTimeout(timer);
  const expected = fence.directive.exit ?? 0;
  expect(
    status,
    `${where(fence)} ended with ${status}, not ${expected}:\n${fence.code}\n--- output ---\n${output}`,
  ).toBe(expected);
  if (fence.output !== undefined)
    for (const line of fence.output.split("\n").map((l) => l.trim()))
      if (line !== "") expect(output, `${where(fence)} should print: ${line}`).toContain(line);
}

async function startBackground(fence: Fence, cwd: string, port: number): Promise<ChildProcess> {
  if (await portAnswers(port)) throw new Error(`${where(fence)}: port ${port} is already in use; stop what holds it`);
  const run = start(fence, cwd);
  let ended: Run | undefined;
  void run.done.then((result) => (ended = result));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await portAnswers(port))) {
    if (ended)
      throw new Error(`${where(fence)} exited (${ended.status}) before port ${port} answered:\n${ended.output}`);
    if (Date.now() > deadline) {
      stop(run.child);
      throw new Error(`${where(fence)}: port ${port} did not answer within ${START_TIMEOUT_MS} ms:\n${run.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return run.child;
}

const pages = docFiles()
  .map((file) => ({ file, fences: shellFences(file) }))
  .filter((page) => page.fences.length > 0);

// Pages run side by side (each uses its own ports), so the whole set takes about as long as its slowest pages.
describe.concurrent("every command in README.md and docs/", () => {
  it("skips only a few fences, each with its reason", () => {
    const skipped = pages.flatMap((page) => page.fences.filter((fence) => fence.directive.skip));
    console.log(`skipped:\n${skipped.map((fence) => `  ${where(fence)}: ${fence.directive.skip}`).join("\n")}`);
    for (const fence of skipped) expect(fence.directive.skip!.length, where(fence)).toBeGreaterThan(10);
    expect(skipped.length).toBeLessThanOrEqual(6);
    expect(pages.flatMap((page) => page.fences).length).toBeGreaterThan(20);
    // Pages run side by side: no two background commands may wait for the same port.
    const ports = pages.flatMap((page) => page.fences.flatMap((fence) => fence.directive.background ?? []));
    expect(new Set(ports).size, `ports: ${ports.join(", ")}`).toBe(ports.length);
  });

  for (const page of pages)
    it(`${page.file}: its ${page.fences.length} shell fences run in order`, async () => {
      const cwd = scratchCheckout();
      const background: ChildProcess[] = [];
      try {
        for (const fence of page.fences) {
          if (fence.directive.skip) continue;
          if (fence.directive.background !== undefined)
            background.push(await startBackground(fence, cwd, fence.directive.background));
          else await runFence(fence, cwd);
        }
      } finally {
        for (const child of background) stop(child);
        await Promise.all(
          background.map((child) =>
            child.exitCode !== null || child.signalCode !== null
              ? undefined
              : new Promise((resolve) => child.once("close", resolve)),
          ),
        );
      }
    });
});
