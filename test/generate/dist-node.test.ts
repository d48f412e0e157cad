/**
 * `generate` writes dist/: the package as JavaScript, so `node dist/server.js` serves with plain node
 * (no tsx, no build step by hand), a user's edited handler reaches dist/ on the next generate, and
 * --check neither writes nor compares dist/.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { renderDist, transpileFile, writeDist } from "../../generator/output/compile-dist.ts";
import { OutputDir } from "../../generator/output/output-dir.ts";
import { examples } from "../../scripts/regen.ts";
import { ROOT, scratchDir } from "./support.ts";

/** Plain node on dist/server.js: no --import tsx, and no NODE_OPTIONS that could load it. */
async function connectPlainNode(pkg: string, args: string[] = []): Promise<Client> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => k !== "NODE_OPTIONS" && v));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(pkg, "dist/server.js"), ...args],
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
    // Nor as a development dependency: it brings esbuild, whose install script npm warns about (issue 33 item 14).
    expect(Object.keys(pkgJson.devDependencies)).toEqual(["@types/node", "typescript"]);
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
      // Every file of one package; src/types.ts (the short cut) of every package.
      const compared = renderDist(dir).filter(
        (f) =>
          f.path === "dist/src/types.js" ||
          (out.endsWith("weather") && f.path.endsWith(".js") && f.path !== "dist/server.js"),
      );
      for (const file of compared) {
        const source = file.path.replace(/^dist\//, "").replace(/\.js$/, ".ts");
        expect(file.content, `${out}/${file.path}`).toBe(
          transpileFile(source, readFileSync(join(out, source), "utf8")),
        );
      }
    }
  });

  it("dist/server.js is one bundle: first-need imports are its chunks, each module still finds the files beside it", async () => {
    const pkg = join(scratchDir("dist"), "bundled");
    await generate(join(ROOT, "specs/petstore.yaml"), pkg, { features: ["dynamic"] });
    const entry = readFileSync(join(pkg, "dist/server.js"), "utf8");
    // No module of dist/src or dist/runtime is imported at start: the bundle holds them.
    expect(entry).not.toMatch(/^(import|export)\b[^\n]*["']\.\/(src|runtime)\//m);
    expect(entry).toContain("getPet"); // the tool table of src/app.ts
    const chunks = readdirSync(join(pkg, "dist/chunks"));
    expect(chunks.length).toBeGreaterThan(0); // the tool search, imported when first searched
    // Dynamic mode's search reads src/search-index.json beside its own module, from a chunk.
    const client = await connectPlainNode(pkg, ["--mode", "dynamic"]);
    try {
      const found = await client.callTool({ name: "search_tools", arguments: { query: "pet by id", limit: 3 } });
      const tools = (found.structuredContent as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
      expect(tools).toContain("getPet");
      const bad = await client.callTool({
        name: "call_tool",
        arguments: { name: "getPet", arguments: { petId: "x" } },
      });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
    // A chunk the bundle no longer makes goes; the bundle's bytes do not change on a rewrite.
    writeFileSync(join(pkg, "dist/chunks/stale-AAAAAAAA.js"), "export {};\n");
    await writeDist(new OutputDir(pkg));
    expect(readdirSync(join(pkg, "dist/chunks")).sort()).toEqual(chunks.sort());
    expect(readFileSync(join(pkg, "dist/server.js"), "utf8")).toBe(entry);
  }, 60_000);
});
