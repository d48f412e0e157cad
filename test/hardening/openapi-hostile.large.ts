/**
 * Hostile OpenAPI documents, each run as the real CLI in a child process with a capped heap
 * (--max-old-space-size) and a timeout: $ref cycles, 1,000-level nesting, 100,000 operations, an
 * external $ref to http, a YAML anchor bomb. Each ends in a clear answer (a package, or diagnostics
 * with exit 1/2), never an out-of-memory kill, a hang or a stack trace. The slow variant (100,000
 * operations in compact YAML, ~30 s) runs in `npm run test:fuzz` (HARDENING_SLOW=1).
 */
import { existsSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchDir, typecheck } from "../generate/support.ts";
import { expectControlled, runMcpgen } from "./cli-run.ts";

const SLOW = process.env.HARDENING_SLOW === "1";

/** `mcpgen ...` in a child process with a heap cap and a deadline (cli-run.ts). */
const mcpgen = (args: string[], heapMb?: number) => runMcpgen(args, heapMb === undefined ? {} : { heapMb });

const info = { title: "hostile", version: "1.0.0" };
const servers = [{ url: "http://127.0.0.1:1" }];
const returning = (operationId: string, schema: unknown) => ({
  get: {
    operationId,
    responses: { 200: { description: "ok", content: { "application/json": { schema } } } },
  },
});
const accepting = (operationId: string, schema: unknown) => ({
  post: {
    operationId,
    requestBody: { content: { "application/json": { schema } } },
    responses: { 200: { description: "ok" } },
  },
});
function nested(depth: number): unknown {
  let schema: unknown = { type: "string" };
  for (let i = 0; i < depth; i++) schema = { type: "object", properties: { n: schema } };
  return schema;
}

describe("hostile OpenAPI documents, under a heap cap and a deadline", () => {
  const dir = scratchDir("openapi-hostile");
  const file = (name: string, doc: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof doc === "string" ? doc : JSON.stringify(doc));
    return path;
  };
  let hits = 0;
  const remote = createServer((_req, res) => {
    hits++;
    res.end("type: string\n");
  });
  beforeAll(async () => {
    remote.listen(0, "127.0.0.1");
    await new Promise((resolve) => remote.once("listening", resolve));
  });
  afterAll(() => remote.close());

  it("$ref cycles: a pure cycle is refused or broken, a recursive tree generates and compiles", async () => {
    const doc = {
      openapi: "3.0.3",
      info,
      servers,
      paths: {
        "/cycle": returning("cycle", { $ref: "#/components/schemas/A" }),
        "/self": returning("self", { $ref: "#/components/schemas/Self" }),
        "/tree": accepting("tree", { $ref: "#/components/schemas/Tree" }),
        "/union": returning("union", { $ref: "#/components/schemas/U" }),
        // A list of a pure cycle: only code mode's result type could take it, and is left out.
        "/selves": returning("selves", { type: "array", items: { $ref: "#/components/schemas/Self" } }),
      },
      components: {
        schemas: {
          A: { $ref: "#/components/schemas/B" },
          B: { $ref: "#/components/schemas/A" },
          Self: { $ref: "#/components/schemas/Self" },
          U: { oneOf: [{ type: "string" }, { $ref: "#/components/schemas/U" }] },
          Tree: {
            type: "object",
            properties: { children: { type: "array", items: { $ref: "#/components/schemas/Tree" } } },
          },
        },
      },
    };
    const out = join(dir, "cycles-out");
    const run = await mcpgen(["generate", file("cycles.json", doc), "--out", out]);
    expectControlled(run);
    // Either answer is fine; a package must then compile.
    if (run.code === 0) expect(await typecheck(out)).toBe("");
    else expect(existsSync(out)).toBe(false);
  }, 120_000);

  it.each([
    ["a response schema", returning],
    ["a request body", accepting],
  ])(
    "1,000 levels of nesting in %s: a clear answer",
    async (_label, where) => {
      const name = `deep-${where === returning ? "out" : "in"}`;
      const doc = { openapi: "3.0.3", info, servers, paths: { "/deep": where("deep", nested(1000)) } };
      const run = await mcpgen(["generate", file(`${name}.json`, doc), "--out", join(dir, `${name}-out`)]);
      expectControlled(run);
      if (run.code !== 0) expect(run.stdout).toMatch(/ error [A-Z_]+: /);
    },
    120_000,
  );

  it("100,000 operations (JSON, 17 MB): refused at once as too large, before parsing", async () => {
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) {
      paths[`/p${i}/{id}`] = {
        get: {
          operationId: `op${i}`,
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: { 200: { description: "ok" } },
        },
      };
    }
    const doc = { openapi: "3.0.3", info, servers, paths };
    const run = await mcpgen(["generate", file("many.json", doc), "--out", join(dir, "many-out")]);
    expectControlled(run);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("error FILE_TOO_LARGE");
    expect(run.ms).toBeLessThan(30_000);
  }, 120_000);

  it.runIf(SLOW)(
    "100,000 operations (compact YAML, 8 MB): a clear answer within a 2 GiB heap",
    async () => {
      const lines = [
        "openapi: 3.0.3",
        "info: { title: many, version: 1.0.0 }",
        "servers: [{ url: 'http://127.0.0.1:1' }]",
        "paths:",
      ];
      for (let i = 0; i < 100_000; i++) {
        lines.push(`  /p${i}: { get: { operationId: op${i}, responses: { '200': { description: ok } } } }`);
      }
      const run = await mcpgen(
        ["generate", file("many.yaml", `${lines.join("\n")}\n`), "--out", join(dir, "many-yaml-out")],
        2048,
      );
      expectControlled(run);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/ error [A-Z_]+: /);
    },
    180_000,
  );

  it("an external $ref to http is refused and never fetched", async () => {
    const { port } = remote.address() as AddressInfo;
    const doc = {
      openapi: "3.0.3",
      info,
      servers,
      paths: { "/r": returning("r", { $ref: `http://127.0.0.1:${port}/evil.yaml#/X` }) },
    };
    const out = join(dir, "remote-out");
    const run = await mcpgen(["generate", file("remote.json", doc), "--out", out]);
    expectControlled(run);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("OPENAPI_REMOTE_REF");
    expect(hits).toBe(0);
    expect(existsSync(out)).toBe(false);
  }, 120_000);

  it("a YAML anchor bomb is refused (YAML_ALIAS_LIMIT), not expanded", async () => {
    const lines = [
      "openapi: 3.0.3",
      "info: { title: bomb, version: 1.0.0 }",
      'x-0: &x0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    ];
    for (let i = 0; i < 9; i++) lines.push(`x-${i + 1}: &x${i + 1} [${Array(9).fill(`*x${i}`).join(",")}]`);
    lines.push("paths: {}");
    const run = await mcpgen(["generate", file("bomb.yaml", `${lines.join("\n")}\n`), "--out", join(dir, "bomb-out")]);
    expectControlled(run);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("YAML_ALIAS_LIMIT");
  }, 120_000);
});
