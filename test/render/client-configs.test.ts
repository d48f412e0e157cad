/**
 * clients/ (render/client-configs.ts) and the README's connect section: spec values that would break
 * JSON, a shell line or Markdown arrive as data, never as syntax.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildModel } from "../../generator/build-model.ts";
import type { UpstreamNode } from "../../generator/ir.ts";
import { renderClientConfigs, shellQuote } from "../../generator/render/client-configs.ts";
import { renderDocs } from "../../generator/render/docs.ts";
import { renderPackageJson } from "../../generator/render/package-files.ts";
import { model, tool } from "./model.ts";

const HOSTILE_NAME = "x\"y'z`$(touch /tmp/pwned)```";
const HOSTILE_ENV = "KEY'; touch /tmp/pwned; echo '";
const upstream = {
  kind: "upstream",
  baseUrl: "https://api.example.com",
  securitySchemes: [{ id: "k", type: "bearer", env: HOSTILE_ENV }],
} as unknown as UpstreamNode;

describe("client snippets", () => {
  const pkg = model({ name: HOSTILE_NAME, upstream, tools: [tool("get_forecast")] });
  const files = renderClientConfigs(pkg);

  it("every JSON file parses and names the server and its secret as given", () => {
    for (const file of files.filter((f) => f.language === "json")) {
      const config = JSON.parse(file.content);
      const servers = config.mcpServers ?? config.servers;
      const names = file.path.includes("desktop") ? [HOSTILE_NAME] : [HOSTILE_NAME, `${HOSTILE_NAME}-http`];
      expect(Object.keys(servers), file.path).toEqual(names);
      expect(Object.keys(servers[HOSTILE_NAME].env), file.path).toEqual([HOSTILE_ENV]);
    }
  });

  it("every shell word is quoted: sh reads the server name and env assignment back as one word each", () => {
    const claude = files.find((f) => f.path === "clients/claude-code.sh")!.content.split("\n")[1];
    // `printf '%s\n'` in place of `claude`: the shell's own word splitting, nothing run.
    const words = spawnSync("sh", ["-c", claude.replace(/^claude /, "printf '%s\\n' ")], { encoding: "utf8" });
    expect(words.stdout.split("\n")).toEqual(
      expect.arrayContaining([`${HOSTILE_ENV}=...`, HOSTILE_NAME, "--", pkg.packageName]),
    );
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote("plain-word_1.0")).toBe("plain-word_1.0");
  });

  it("the README's connect section holds each snippet in a fence its content cannot close", () => {
    const readme = renderDocs(pkg);
    const section = readme.split("### Connect a client")[1].split("From TypeScript")[0];
    for (const block of section
      .split(/^(`{3,})json\n/m)
      .filter((_, i) => i % 2 === 0)
      .slice(1)) {
      expect(() => JSON.parse(block.split(/\n`{3,}\n/)[0])).not.toThrow();
    }
    expect(section).not.toContain("<script");
  });
});

describe("package.json", () => {
  it("private only when the spec says package: {private: true}", () => {
    expect(JSON.parse(renderPackageJson(model())).private).toBeUndefined();
    expect(JSON.parse(renderPackageJson(model({ packagePrivate: true }))).private).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), "mcpgen-private-"));
    const spec = (extra: string) => {
      const file = join(dir, "spec.yaml");
      writeFileSync(file, `server: { name: demo, version: 1.0.0 }\n${extra}`);
      return buildModel(file);
    };
    const { model: built } = spec("package: { private: true }\n");
    expect(JSON.parse(renderPackageJson(built!)).private).toBe(true);
    expect(JSON.parse(renderPackageJson(spec("package: { private: false }\n").model!)).private).toBeUndefined();
    expect(spec("package: { privat: true }\n").diagnostics.map((d) => d.code)).toEqual(["SPEC_UNKNOWN_KEY"]);
  });
});
