/**
 * The generated Dockerfile, without Docker (no image can be built here): its stages are replayed in
 * fresh folders, one per stage. COPY copies from the package (or an earlier stage's folder), RUN runs
 * in sh with npm offline from the local cache, ENV sets the environment; then the final stage's CMD
 * starts the server (host and port swapped for 127.0.0.1:0) and its HEALTHCHECK command must pass.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { IMAGE_PORT } from "../../generator/render/dockerfile.ts";
import { ROOT } from "./support.ts";

const tmp = mkdtempSync(join(tmpdir(), "mcpgen-docker-"));
const pkg = join(tmp, "petstore");
let server: ChildProcess | undefined;

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill("SIGTERM");
    await once(server, "exit");
  }
  rmSync(tmp, { recursive: true, force: true });
});

type Stage = { name?: string; dir: string; env: Record<string, string> };

/** `npm cache clean --force` only slims the image; here it would empty the machine's shared npm cache. */
const NOT_HERE = " && npm cache clean --force";

describe("the generated Dockerfile's steps, replayed in fresh folders", () => {
  it("builds dist/ with the dev dependencies, installs production ones only, serves and passes HEALTHCHECK", async () => {
    await generate(join(ROOT, "specs/petstore.yaml"), pkg);
    // What the Dockerfile's comment asks of the user first: a lock file (npm install).
    // Offline from the npm cache where it holds every package, else the registry (@types/node and
    // typescript, the build stage's dev dependencies, may not be cached).
    const npm = (offline: boolean) => ({
      ...process.env,
      npm_config_audit: "false",
      npm_config_fund: "false",
      ...(offline ? { npm_config_offline: "true" } : { npm_config_prefer_offline: "true" }),
    });
    let npmEnv = npm(true);
    let lock = spawnSync("npm", ["install", "--package-lock-only"], { cwd: pkg, encoding: "utf8", env: npmEnv });
    if (lock.status !== 0) {
      npmEnv = npm(false);
      lock = spawnSync("npm", ["install", "--package-lock-only"], { cwd: pkg, encoding: "utf8", env: npmEnv });
    }
    expect(lock.status, lock.stderr).toBe(0);
    const ignored = readFileSync(join(pkg, ".dockerignore"), "utf8").split("\n").filter(Boolean);
    expect(ignored).toEqual(expect.arrayContaining(["node_modules", "dist", ".mcpgen", ".env"]));

    const stages: Stage[] = [];
    let healthcheck: string[] = [];
    let command: string[] = [];
    const skipped: string[] = [];
    for (const line of readFileSync(join(pkg, "Dockerfile"), "utf8").split("\n")) {
      if (line === "" || line.startsWith("#")) continue;
      const [instruction, ...words] = line.split(" ");
      const rest = line.slice(instruction.length + 1);
      const stage = stages.at(-1)!;
      if (instruction === "FROM") {
        const dir = join(tmp, `stage-${stages.length}`);
        mkdirSync(dir);
        stages.push({ name: words[2], dir, env: {} });
      } else if (instruction === "COPY") {
        const from = words[0].startsWith("--from=")
          ? stages.find((s) => s.name === words.shift()!.slice(7))
          : undefined;
        const target = words.pop()!;
        for (const source of words) {
          expect(ignored, source).not.toContain(source);
          const path = from ? join(from.dir, source.replace(/^\/app\//, "")) : join(pkg, source);
          const destination = target.endsWith("/")
            ? join(stage.dir, target, source.split("/").at(-1)!)
            : join(stage.dir, target);
          cpSync(path, destination, { recursive: true });
        }
      } else if (instruction === "RUN") {
        if (rest.includes(NOT_HERE)) skipped.push(NOT_HERE);
        const run = spawnSync("sh", ["-c", rest.replace(NOT_HERE, "")], {
          cwd: stage.dir,
          encoding: "utf8",
          env: { ...npmEnv, ...stage.env },
        });
        expect(run.status, `${rest}\n${run.stdout}${run.stderr}`).toBe(0);
      } else if (instruction === "ENV") {
        const [key, value] = rest.split("=");
        stage.env[key] = value;
      } else if (instruction === "HEALTHCHECK") {
        healthcheck = JSON.parse(rest.slice(rest.indexOf(" CMD ") + 5));
      } else if (instruction === "CMD") {
        command = JSON.parse(rest);
      } else expect(["WORKDIR", "USER", "EXPOSE"]).toContain(instruction);
    }
    expect(stages.map((s) => s.name)).toEqual(["build", undefined]);
    expect(skipped).toEqual([NOT_HERE]);
    const image = stages[1];
    // The image: production dependencies and dist/ only (no TypeScript, no sources).
    expect(existsSync(join(image.dir, "node_modules/ajv"))).toBe(true);
    expect(existsSync(join(image.dir, "node_modules/typescript"))).toBe(false);
    expect(existsSync(join(image.dir, "src"))).toBe(false);
    expect(existsSync(join(image.dir, "dist/src/validators/0.cjs"))).toBe(true);

    // CMD, on 127.0.0.1 and a free port instead of every interface and 3000.
    expect(command).toEqual(["node", "dist/server.js", "--http", "--host", "0.0.0.0", "--port", String(IMAGE_PORT)]);
    const args = command
      .slice(1)
      .map((word) => (word === "0.0.0.0" ? "127.0.0.1" : word === String(IMAGE_PORT) ? "0" : word));
    server = spawn(process.execPath, args, {
      cwd: image.dir,
      env: { ...process.env, ...image.env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    const url = await new Promise<string>((resolve, reject) => {
      server!.stderr!.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(stderr);
        if (match) resolve(match[1]);
      });
      server!.once("exit", (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
    });
    const port = new URL(url).port;
    const [node, ...check] = healthcheck;
    expect(node).toBe("node");
    const probe = spawnSync(
      process.execPath,
      check.map((word) => word.replace(`:${IMAGE_PORT}/`, `:${port}/`)),
      { cwd: image.dir, encoding: "utf8" },
    );
    expect(probe.status, probe.stderr).toBe(0);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
  }, 300_000);
});
