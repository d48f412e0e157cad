/**
 * Precompiled validators come in chunks of 100 tools, each required on the first call of one of its
 * tools. A real server process is watched through a preloaded hook on Module._load: start-up and
 * tools/list load no chunk, and a call loads its own tool's chunk only (with shared.cjs, the definitions
 * OpenAPI tools share, compiled once for all chunks).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { connect, type McpClient } from "../../runtime/index.ts";
import { scratchDir, serverCommand } from "./support.ts";

const TOOLS = 150;
const dir = scratchDir("chunks");
const out = join(dir, "out");
const log = join(dir, "required.log");
const hook = join(dir, "hook.cjs");

/** Records in `log` the validator modules the process requires. */
function writeHook(hook: string, log: string): void {
  writeFileSync(
    hook,
    `const Module = require("node:module");
const { appendFileSync } = require("node:fs");
const load = Module._load;
Module._load = function (request, ...rest) {
  const chunk = /(?:validators[\\\\/]|^\\.\\/)(\\w+\\.cjs)$/.exec(request);
  if (chunk) appendFileSync(${JSON.stringify(log)}, chunk[1] + "\\n");
  return load.call(this, request, ...rest);
};\n`,
  );
}

const tools = Array.from(
  { length: TOOLS },
  (_, i) =>
    `  - name: t${i}\n    inputSchema: { type: object, properties: { n: { type: integer, minimum: 0 } }, required: [n] }`,
);
const loadedFrom = (log: string) =>
  existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").filter(Boolean) : [];
const loaded = () => loadedFrom(log);
const text = (result: { content?: Array<{ type: string; text?: string }> }) =>
  result.content?.map((c) => c.text ?? "").join("") ?? "";

describe("validator chunks", () => {
  let client: McpClient;

  beforeAll(async () => {
    writeFileSync(
      join(dir, "many.yaml"),
      `server: { name: many, version: 1.0.0, registryName: io.github.mcpgen-examples/many }\ntools:\n${tools.join("\n")}\n`,
    );
    const result = await generate(join(dir, "many.yaml"), out);
    // Hundreds of tools on purpose: MANY_TOOLS is the one warning expected.
    expect(result.diagnostics.map((d) => d.code)).toEqual(["MANY_TOOLS"]);
    writeHook(hook, log);
    const { command, args } = serverCommand(out);
    client = await connect({ command, args: ["--require", hook, ...args] });
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  it("writes one chunk per 100 tools", () => {
    expect(existsSync(join(out, "src/validators/0.cjs"))).toBe(true);
    expect(existsSync(join(out, "src/validators/1.cjs"))).toBe(true);
    expect(existsSync(join(out, "src/validators/2.cjs"))).toBe(false);
  });

  it("loads no chunk to start, answer the handshake or list the tools", async () => {
    expect((await client.listTools()).tools).toHaveLength(TOOLS);
    expect(loaded()).toEqual([]);
  });

  it("loads only the called tool's chunk, and validates with it", async () => {
    const bad = await client.callTool("t149", { n: -1 });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/Invalid arguments for tool t149: .*n.*>= 0/);
    expect(loaded()).toEqual(["1.cjs"]);
    const good = await client.callTool("t149", { n: 1 });
    expect(text(good)).toContain("not implemented yet");
    const wrongType = await client.callTool("t0", { n: "x" });
    expect(text(wrongType)).toMatch(/Invalid arguments for tool t0: .*integer/);
    expect(loaded()).toEqual(["1.cjs", "0.cjs"]);
  });
});

describe("shared definitions", () => {
  const shared = scratchDir("chunks-shared");
  const pkg = join(shared, "out");
  const sharedLog = join(shared, "required.log");
  const sharedHook = join(shared, "hook.cjs");
  let client: McpClient;
  // 150 operations over two chunks, every one taking a Pet whose owner is an Owner: both components
  // are compiled once, into shared.cjs, and each chunk calls them.
  const paths = Object.fromEntries(
    Array.from({ length: TOOLS }, (_, i) => [
      `/pets/${i}`,
      {
        post: {
          operationId: `savePet${i}`,
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
          },
          responses: { "204": { description: "saved" } },
        },
      },
    ]),
  );
  const document = {
    openapi: "3.1.0",
    info: { title: "Pets", version: "1.0.0" },
    servers: [{ url: "http://127.0.0.1:9/" }],
    paths,
    components: {
      schemas: {
        Pet: {
          type: "object",
          required: ["name", "owner"],
          properties: { name: { type: "string", minLength: 1 }, owner: { $ref: "#/components/schemas/Owner" } },
        },
        Owner: {
          type: "object",
          required: ["email"],
          properties: { email: { type: "string", pattern: "^[^@]+@[^@]+$" } },
        },
      },
    },
  };

  beforeAll(async () => {
    writeFileSync(join(shared, "pets.json"), JSON.stringify(document));
    const result = await generate(join(shared, "pets.json"), pkg);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    writeHook(sharedHook, sharedLog);
    const { command, args } = serverCommand(pkg);
    client = await connect({ command, args: ["--require", sharedHook, ...args] });
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  it("compiles each definition once, into shared.cjs, which the chunks call", () => {
    const module = (name: string) => readFileSync(join(pkg, "src/validators", name), "utf8");
    const pattern = /\^\[\^@\]\+@\[\^@\]\+\$/;
    expect(module("shared.cjs")).toMatch(pattern);
    for (const chunk of ["0.cjs", "1.cjs"]) {
      expect(module(chunk)).not.toMatch(pattern);
      expect(module(chunk)).toContain('require("./shared.cjs")');
    }
  });

  it("a call loads its chunk and shared.cjs, and reports a nested definition's error where it is", async () => {
    const bad = await client.callTool("savePet149", { name: "Rex", owner: { email: "nobody" } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/Invalid arguments for tool savePet149: .*\/owner\/email.*pattern/);
    const missing = await client.callTool("savePet149", { name: "Rex", owner: {} });
    expect(text(missing)).toMatch(/owner.*email/);
    expect(loadedFrom(sharedLog).sort()).toEqual(["1.cjs", "shared.cjs"]);
  });
});
