/**
 * Prism (@stoplight/prism-cli) as the real upstream of the OpenAPI tests: it serves a document's mock
 * API on 127.0.0.1 and validates every request against the document, so a mapping bug (a wrong
 * parameter name, style or body) comes back as Prism's 4xx, never as a quiet success.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { join } from "node:path";
import { ROOT } from "../generate/support.ts";

export type Prism = { url: string; log: () => string; stop(): Promise<void> };

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `dynamic` answers with data generated from the response schemas instead of the document's examples
 * (GitHub's examples do not always match its own schemas, which the generated server would rightly reject). */
export async function startPrism(
  document: string,
  options: { dynamic?: boolean; startTimeoutMs?: number } = {},
): Promise<Prism> {
  const port = await freePort();
  const cli = join(ROOT, "node_modules/@stoplight/prism-cli/dist/index.js");
  const child: ChildProcess = spawn(
    process.execPath,
    [cli, "mock", document, "-h", "127.0.0.1", "-p", String(port), ...(options.dynamic ? ["-d", "--seed", "1"] : [])],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGTERM");
      reject(new Error(`prism did not start: ${output}`));
    }, options.startTimeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Prism is listening on/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`prism exited with ${code}: ${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}
