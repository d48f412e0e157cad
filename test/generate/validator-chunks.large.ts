/**
 * Precompiled validators come in chunks of 100 tools, each required on the first call of one of its
 * tools. A real server process is watched through a preloaded hook on Module._load: start-up and
 * tools/list load no chunk, and a call loads its own tool's chunk only (with shared.cjs, the definitions
 * OpenAPI tools share, compiled once for all chunks; many definitions are cut into parts, shared-<n>.cjs,
 * which call each other).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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
  const chunk = /(?:validators[\\\\/]|^\\.\\/)((?:\\d+|shared(?:-\\d+)?)\\.cjs)$/.exec(request);
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

type Watched = { client: McpClient; loaded: () => string[] };

/** Generates the OpenAPI `document` into `dir`/out and serves it with the hook logging the validator modules it requires. */
async function serveWatched(dir: string, document: object): Promise<Watched> {
  const spec = join(dir, "api.json");
  writeFileSync(spec, JSON.stringify(document));
  const result = await generate(spec, join(dir, "out"));
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const [log, hook] = [join(dir, "required.log"), join(dir, "hook.cjs")];
  writeHook(hook, log);
  const { command, args } = serverCommand(join(dir, "out"));
  return { client: await connect({ command, args: ["--require", hook, ...args] }), loaded: () => loadedFrom(log) };
}

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
  let watched: Watched;
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
    watched = await serveWatched(shared, document);
  }, 120_000);
  afterAll(async () => {
    await watched?.client.close();
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
    const bad = await watched.client.callTool("savePet149", { name: "Rex", owner: { email: "nobody" } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/Invalid arguments for tool savePet149: .*\/owner\/email.*pattern/);
    const missing = await watched.client.callTool("savePet149", { name: "Rex", owner: {} });
    expect(text(missing)).toMatch(/owner.*email/);
    expect(watched.loaded().sort()).toEqual(["1.cjs", "shared.cjs"]);
  });
});

describe("shared definitions in parts", () => {
  const dir = scratchDir("chunks-parts");
  const pkg = join(dir, "out");
  let watched: Watched;
  // 120 definitions of ~3.5 KB each, more than one part holds: Node000 -> Node001 -> ... -> Node119 ->
  // Node000, a cycle through every part. Each part is compiled on its own and calls the others.
  const NODES = 120;
  const name = (i: number) => `Node${String(i % NODES).padStart(3, "0")}`;
  const schemas = Object.fromEntries(
    Array.from({ length: NODES }, (_, i) => [
      name(i),
      {
        type: "object",
        required: ["kind"],
        properties: {
          kind: { enum: Array.from({ length: 150 }, (_, j) => `kind-${i}-${j}-of-this-node`) },
          next: { $ref: `#/components/schemas/${name(i + 1)}` },
        },
      },
    ]),
  );
  const document = {
    openapi: "3.1.0",
    info: { title: "Nodes", version: "1.0.0" },
    servers: [{ url: "http://127.0.0.1:9/" }],
    // saveNode takes the first node, saveLast the last: in the last part, its `next` in the first.
    paths: Object.fromEntries(
      [
        ["saveNode", 0],
        ["saveLast", NODES - 1],
      ].map(([operationId, node]) => [
        `/${operationId}`,
        {
          post: {
            operationId,
            requestBody: {
              required: true,
              content: { "application/json": { schema: { $ref: `#/components/schemas/${name(Number(node))}` } } },
            },
            responses: { "204": { description: "saved" } },
          },
        },
      ]),
    ),
    components: { schemas },
  };
  /** A chain of `depth` nodes from Node000, each with a valid kind, the last one's `kind` replaced by `last`. */
  const chain = (depth: number, last?: string): Record<string, unknown> => {
    let node: Record<string, unknown> | undefined;
    for (let i = depth - 1; i >= 0; i--) {
      const kind = i === depth - 1 && last !== undefined ? last : `kind-${i % NODES}-7-of-this-node`;
      node = { kind, ...(node ? { next: node } : {}) };
    }
    return node ?? {};
  };

  beforeAll(async () => {
    watched = await serveWatched(dir, document);
  }, 120_000);
  afterAll(async () => {
    await watched?.client.close();
  });

  it("cuts the definitions into parts that call each other on first use", () => {
    const parts = readdirSync(join(pkg, "src/validators"))
      .filter((file) => file.startsWith("shared"))
      .sort();
    expect(parts.length).toBeGreaterThan(1);
    expect(parts).not.toContain("shared.cjs");
    expect(parts.every((file, n) => parts.includes(`shared-${n}.cjs`) && file.endsWith(".cjs"))).toBe(true);
    const code = parts.map((file) => readFileSync(join(pkg, "src/validators", file), "utf8"));
    // Each definition once, in one part: the enum of Node042 is in exactly one of them.
    expect(code.filter((text) => text.includes('"kind-42-0-of-this-node"'))).toHaveLength(1);
    expect(code.every((text) => text.includes("lazyDefinition("))).toBe(true);
  });

  it("validates through every part, round the cycle, and reports an error where it is", async () => {
    const good = await watched.client.callTool("saveNode", chain(NODES + 5));
    expect(text(good)).not.toMatch(/Invalid arguments/);
    // The path is cut in the message; it begins where the chain does.
    const bad = await watched.client.callTool("saveNode", chain(NODES + 3, "not-a-kind"));
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/^Invalid arguments for tool saveNode: \/next\/next\/next/);
    // From the last part into the first: the nested definition's errors come back whole.
    const last = await watched.client.callTool("saveLast", { kind: "kind-119-0-of-this-node", next: { kind: "nope" } });
    expect(last.isError).toBe(true);
    expect(text(last)).toMatch(/Invalid arguments for tool saveLast: \/next\/kind.*allowed values/);
    const missing = await watched.client.callTool("saveLast", { kind: "kind-119-0-of-this-node", next: {} });
    expect(text(missing)).toMatch(/\/next.*kind/);
    const loadedParts = watched.loaded().filter((file) => file.startsWith("shared"));
    expect(new Set(loadedParts).size).toBe(
      readdirSync(join(pkg, "src/validators")).filter((f) => f.startsWith("shared")).length,
    );
  });
});
