/**
 * dist/ across regenerations (only what changed is transpiled again) and a generated HTTP server's
 * shutdown as a load balancer sees it (MCP_SHUTDOWN_GRACE_MS): real generate runs and a real process.
 */
import { readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { ROOT, scratchDir, startHttpServer } from "./support.ts";

describe("generated packages over time", () => {
  it("MCP_SHUTDOWN_GRACE_MS: after SIGTERM /readyz answers 503 (and /healthz 200) until the server exits", async () => {
    const pkg = join(scratchDir("grace"), "weather");
    await generate(join(ROOT, "specs/weather.yaml"), pkg);
    const server = await startHttpServer(pkg, [], { MCP_SHUTDOWN_GRACE_MS: "1500" });
    const origin = new URL(server.url).origin;
    try {
      expect((await fetch(`${origin}/readyz`)).status).toBe(200);
      const exited = new Promise<number | null>((resolve) => server.process.once("exit", resolve));
      server.process.kill("SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await fetch(`${origin}/readyz`)).status).toBe(503);
      expect((await fetch(`${origin}/healthz`)).status).toBe(200);
      expect(await exited).toBe(0);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("a regenerate after a spec change transpiles only the files that changed", async () => {
    const dir = scratchDir("dist-regen");
    const spec = join(dir, "weather.yaml");
    writeFileSync(spec, readFileSync(join(ROOT, "specs/weather.yaml"), "utf8"));
    const pkg = join(dir, "pkg");
    await generate(spec, pkg);
    // A mark in a runtime file's JavaScript (newer than its source) shows whether it was transpiled again.
    const runtimeJs = join(pkg, "dist/runtime/server/server.js");
    writeFileSync(runtimeJs, `${readFileSync(runtimeJs, "utf8")}// mark\n`);
    writeFileSync(spec, readFileSync(spec, "utf8").replace("title: Weather", "title: Weather Two"));
    await generate(spec, pkg);
    expect(readFileSync(join(pkg, "dist/src/definition.js"), "utf8")).toContain("Weather Two");
    expect(readFileSync(runtimeJs, "utf8")).toMatch(/\/\/ mark\n$/);
    // Its source touched after: transpiled again.
    const later = new Date(statSync(runtimeJs).mtimeMs + 1000);
    utimesSync(join(pkg, "runtime/server/server.ts"), later, later);
    writeFileSync(spec, readFileSync(spec, "utf8").replace("title: Weather Two", "title: Weather Three"));
    await generate(spec, pkg);
    expect(readFileSync(runtimeJs, "utf8")).not.toContain("// mark");
  }, 60_000);
});
