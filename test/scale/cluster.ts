// A scale-out deployment for tests, as the generated package's README "Deploy" section describes it:
// N instances of a generated server (`node dist/server.js --http`), each on its own port, sharing a
// Redis session store, behind nginx running the package's own deploy/nginx.conf. Only the addresses in
// that file are changed (to free ports here), plus an access log that records which instance answered.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "../support/free-port.ts";
import { type Nginx, startNginx } from "../support/nginx.ts";

export type Instance = {
  port: number;
  url: string;
  child: ChildProcess;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
  /** Starts a stopped or killed instance again on the same port, with the same flags. */
  restart(): Promise<void>;
};

export type InstanceOptions = {
  upstream: string;
  sessionStore?: string;
  args?: string[];
  /** Added to this process's environment for the instance. */
  env?: Record<string, string>;
};

/** Starts `node <pkg>/dist/server.js --http` on the given port and waits for its "listening on" line. */
export async function startInstance(pkg: string, port: number, options: InstanceOptions): Promise<Instance> {
  const args = [
    join(pkg, "dist/server.js"),
    "--http",
    "--port",
    String(port),
    "--base-url",
    options.upstream,
    ...(options.sessionStore ? ["--session-store", options.sessionStore] : []),
    ...(options.args ?? []),
  ];
  const instance = { port, url: `http://127.0.0.1:${port}/mcp` } as Instance;
  const launch = async () => {
    let stderr = "";
    const child = spawn(process.execPath, args, {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, WEATHER_TOKEN: "scale-test-token", ...options.env },
    });
    instance.child = child;
    instance.stderr = () => stderr;
    instance.exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`instance on ${port} did not start:\n${stderr}`)), 15_000);
      child.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk;
        if (stderr.includes("listening on")) {
          clearTimeout(timer);
          resolve();
        }
      });
      void instance.exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`instance on ${port} exited (${code}) at start:\n${stderr}`));
      });
    });
  };
  instance.restart = launch;
  await launch();
  return instance;
}

/** Stops an instance if it still runs (SIGKILL: tests that stop gracefully send SIGTERM themselves). */
export async function stopInstance(instance: Instance): Promise<void> {
  if (instance.child.exitCode === null && instance.child.signalCode === null) instance.child.kill("SIGKILL");
  await instance.exited;
}

/**
 * The package's deploy/nginx.conf pointed at this test's ports: the listen address and the upstream's
 * server lines are replaced; everything else (routing, retries, timeouts) is the generated file's.
 */
export function nginxConfigFor(pkg: string, listenPort: number, instancePorts: number[], accessLog: string): string {
  const generated = readFileSync(join(pkg, "deploy/nginx.conf"), "utf8");
  let servers = 0;
  const config = generated
    .replace(/^(\s*)listen\s+[^;]+;/gm, (_line, indent: string) => `${indent}listen 127.0.0.1:${listenPort};`)
    .replace(/^(\s*)server\s+127\.0\.0\.1:\d+([^;]*);\n/gm, (_line, indent: string, rest: string) => {
      // The first server line becomes all of this test's instances; the file's others are dropped.
      if (servers++ > 0) return "";
      return instancePorts.map((port) => `${indent}server 127.0.0.1:${port}${rest};\n`).join("");
    })
    .replace(/^\s*access_log\s+[^;]+;\n/gm, "");
  if (servers === 0) throw new Error("deploy/nginx.conf has no 'server 127.0.0.1:<port>' line to point at the test");
  // Which instance answered each request, by session: proves a 2025-era session moved between instances.
  const log = `    log_format scale '$upstream_addr|$http_mcp_session_id|$sent_http_mcp_session_id|$status|$http_mcp_method';\n    access_log ${accessLog} scale;\n`;
  return config.replace(/^http\s*\{\n/m, (open) => open + log);
}

export type Cluster = { url: string; nginx: Nginx; instances: Instance[]; accessLog: string; stop(): Promise<void> };

export async function startCluster(pkg: string, count: number, options: InstanceOptions): Promise<Cluster> {
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const instances = await Promise.all(ports.map((port) => startInstance(pkg, port, options)));
  const listenPort = await freePort();
  const accessLog = join(pkg, `access-${listenPort}.log`);
  const nginx = await startNginx(nginxConfigFor(pkg, listenPort, ports, accessLog), listenPort);
  return {
    url: `http://127.0.0.1:${listenPort}/mcp`,
    nginx,
    instances,
    accessLog,
    async stop() {
      await nginx.stop();
      await Promise.all(instances.map(stopInstance));
    },
  };
}
