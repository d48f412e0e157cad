/**
 * `generate` writes dist/: the package as JavaScript, so `node dist/server.js` serves with plain node
 * (no tsx, no build step by hand), a user's edited handler reaches dist/ on the next generate, and
 * --check neither writes nor compares dist/.
 */
import { existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { renderDist, transpileFile } from "../../generator/output/compile-dist.ts";
import { OutputDir } from "../../generator/output/output-dir.ts";
import { examples } from "../../scripts/regen.ts";
import { ROOT, scratchDir, startHttpServer } from "./support.ts";

/** Plain node on dist/server.js: no --import tsx, and no NODE_OPTIONS that could load it. */
async function connectPlainNode(pkg: string): Promise<Client> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => k !== "NODE_OPTIONS" && v));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(pkg, "dist/server.js")],
    env: env as Record<string, string>,
    cwd: pkg,
    stderr: "pipe",
  });
  const client = new Client({ name: "dist-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

describe("dist/server.js runs with plain node", () => {
  it("petstore: initialize is answered and tools/list lists every tool", async () => {
    const pkg = join(scratchDir("dist"), "petstore");
    await generate(join(ROOT, "specs/petstore.yaml"), pkg);
    expect(readFileSync(join(pkg, "dist/server.js"), "utf8")).toMatch(/^#!\/usr\/bin\/env node\n/);
    const client = await connectPlainNode(pkg);
    try {
      expect(client.getServerVersion()?.name).toBe("petstore");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("getPet");
      // Validators (dist/src/validators/*.cjs, copied) answer a bad argument.
      const bad = await client.callTool({ name: "getPet", arguments: { petId: "x" } });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
    const pkgJson = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
    expect(pkgJson.scripts.start).toBe("node dist/server.js");
    expect(Object.keys(pkgJson.dependencies)).not.toContain("tsx");
  }, 60_000);

  it("an edited handler reaches dist/ on the next generate; --check leaves dist/ alone", async () => {
    const pkg = join(scratchDir("dist"), "weather");
    const spec = join(ROOT, "specs/weather.yaml");
    await generate(spec, pkg);
    const handler = join(pkg, "src/handlers/tools/convert_temperature.ts");
    writeFileSync(
      handler,
      readFileSync(handler, "utf8")
        .replace(/import \{[^}]*\} from "..\/..\/..\/runtime\/handler-api.ts";/, (m) =>
          m.replace("notImplemented, ", ""),
        )
        .replace(
          /return notImplemented\([^)]*\);/,
          'return { content: [{ type: "text", text: "edited" }], structuredContent: { value: 1, unit: "C" } };',
        ),
    );
    const check = await generate(spec, pkg, { check: true });
    expect(check.diagnostics).toEqual([]);
    expect(readFileSync(join(pkg, "dist/src/handlers/tools/convert_temperature.js"), "utf8")).not.toContain("edited");
    await generate(spec, pkg);
    expect(readFileSync(join(pkg, "dist/src/handlers/tools/convert_temperature.js"), "utf8")).toContain("edited");

    // A run that changes nothing (the fingerprint short-cut) still puts back a deleted dist/.
    rmSync(join(pkg, "dist"), { recursive: true });
    await generate(spec, pkg);
    expect(existsSync(join(pkg, "dist/src/handlers/tools/convert_temperature.js"))).toBe(true);
    const client = await connectPlainNode(pkg);
    try {
      const result = await client.callTool({ name: "convert_temperature", arguments: { value: 1, from: "C" } });
      expect(result.content).toEqual([{ type: "text", text: "edited" }]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("dist/ is the transpiler's output file for file, the short cut for types-only src/types.ts included", () => {
    for (const { out } of examples()) {
      const dir = new OutputDir(out);
      for (const file of renderDist(dir).filter((f) => f.path.endsWith(".js") && f.path !== "dist/server.js")) {
        const source = file.path.replace(/^dist\//, "").replace(/\.js$/, ".ts");
        expect(file.content, `${out}/${file.path}`).toBe(
          transpileFile(source, readFileSync(join(out, source), "utf8")),
        );
      }
    }
  });

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
    expect(readFileSync(join(pkg, "dist/src/manifest.js"), "utf8")).toContain("Weather Two");
    expect(readFileSync(runtimeJs, "utf8")).toMatch(/\/\/ mark\n$/);
    // Its source touched after: transpiled again.
    const later = new Date(statSync(runtimeJs).mtimeMs + 1000);
    utimesSync(join(pkg, "runtime/server/server.ts"), later, later);
    writeFileSync(spec, readFileSync(spec, "utf8").replace("title: Weather Two", "title: Weather Three"));
    await generate(spec, pkg);
    expect(readFileSync(runtimeJs, "utf8")).not.toContain("// mark");
  }, 60_000);
});
