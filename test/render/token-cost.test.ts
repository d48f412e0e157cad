/**
 * tools/list's token cost (render/token-cost.ts, package-cost.ts): exact o200k_base counts, each list
 * counted from per-tool pieces equal to counting its whole JSON text, the text being what a real
 * server sends, and the figures as generate prints them.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { catalogData, definitionData, renderDefinition } from "../../generator/render/definition.ts";
import { packageCost, servedTools } from "../../generator/render/package-cost.ts";
import {
  costLine,
  countTokens,
  dynamicCost,
  servedTool,
  shortCount,
  thousands,
  toolListCost,
} from "../../generator/render/token-cost.ts";
import { connect } from "../../runtime/client/client.ts";
import { DYNAMIC_TOOLS } from "../../runtime/features/dynamic/dynamic-tools.ts";
import type { CatalogTool } from "../../runtime/package/catalog-types.ts";
import { createSpecServer, readCatalog } from "../../runtime/package/spec-server.ts";
import { serveHttp } from "../../runtime/transport/http/server.ts";
import { scratchDir } from "../generate/support.ts";
import { model, tool } from "./model.ts";

const wholeList = (tools: readonly CatalogTool[]) => countTokens(JSON.stringify({ tools: tools.map(servedTool) }));

/** Text whose pieces meet tool boundaries in every way o200k can split them. */
const TRICKY = [
  "ends with a space ",
  "ends in digits 12345",
  'quote at the end"',
  '}]},{"name":',
  "<|endoftext|> is text here",
  "it's l'été, 東京 🙂",
  "line\nbreak\ttab",
  "",
];

const trickyTools = (): CatalogTool[] =>
  TRICKY.map((description, i) => ({
    name: `t${i}`,
    ...(description ? { description } : {}),
    inputSchema: {
      $defs: { Thing: { type: "string", description } },
      type: "object",
      properties: { [`p${i}`]: { $ref: "#/$defs/Thing" } },
    },
    ...(i % 3 === 0 ? { outputSchema: { type: "object", properties: { n: { type: "integer", maximum: i } } } } : {}),
    ...(i % 2 === 0 ? { annotations: { readOnlyHint: true } } : {}),
    http: { method: "GET", path: `/t/${i}` },
    ...(i % 4 === 3 ? {} : { toolset: ["b", "a", "c"][i % 3] }),
  }));

describe("countTokens (o200k_base)", () => {
  it.each([
    ["hello world", 2],
    ["", 0],
    ['{"tools":[]}', 4],
    // A special token's text is plain text in a tool description: counted, never refused.
    ["<|endoftext|>", 7],
  ])("%j is %i tokens", (text, tokens) => {
    expect(countTokens(text)).toBe(tokens);
  });
});

describe("servedTool: a tool as tools/list sends it", () => {
  it("keeps only wire fields, in the server's order, with $defs last and no http or toolset", () => {
    const served = servedTool({
      annotations: { readOnlyHint: true },
      http: { method: "GET", path: "/x" },
      toolset: "issues",
      inputSchema: { $defs: { A: { type: "string" } }, type: "object", properties: { a: { $ref: "#/$defs/A" } } },
      description: "d",
      name: "x",
    });
    expect(JSON.stringify(served)).toBe(
      '{"name":"x","description":"d","inputSchema":{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"type":"string"}}},"annotations":{"readOnlyHint":true}}',
    );
  });
});

describe("toolListCost: lists counted from per-tool pieces", () => {
  it("all, every toolset and every tool's share are exact against counting the whole JSON", () => {
    const tools = trickyTools();
    const cost = toolListCost(tools, [{ name: "a", description: "The A things" }]);
    expect(cost.all).toEqual({ tools: tools.length, tokens: wholeList(tools) });
    expect(cost.toolsets.map((t) => t.name)).toEqual(["a", "b", "c", "default"]);
    for (const toolset of cost.toolsets) {
      const members = tools.filter((t) => (t.toolset ?? "default") === toolset.name);
      expect(toolset).toEqual({
        name: toolset.name,
        ...(toolset.name === "a" ? { description: "The A things" } : {}),
        tools: members.length,
        tokens: wholeList(members),
      });
    }
    expect(cost.perTool.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    expect(cost.perTool.every((t) => t.tokens > 10)).toBe(true);
  });

  it("stays exact for any names, descriptions and toolsets", () => {
    const arbitraryTool = fc.record({
      name: fc.stringMatching(/^[A-Za-z0-9_.-]{1,20}$/),
      description: fc.option(fc.string({ unit: "grapheme", maxLength: 40 }), { nil: undefined }),
      property: fc.string({ unit: "binary", maxLength: 12 }),
      toolset: fc.constantFrom("x", "y", undefined),
    });
    fc.assert(
      fc.property(fc.array(arbitraryTool, { maxLength: 6 }), (drawn) => {
        const tools: CatalogTool[] = drawn.map((t) => ({
          name: t.name,
          ...(t.description === undefined ? {} : { description: t.description }),
          inputSchema: { type: "object", properties: { [t.property]: { type: "string" } } },
          ...(t.toolset ? { toolset: t.toolset } : {}),
        }));
        const cost = toolListCost(tools);
        expect(cost.all.tokens).toBe(wholeList(tools));
        for (const toolset of cost.toolsets)
          expect(toolset.tokens).toBe(wholeList(tools.filter((t) => (t.toolset ?? "default") === toolset.name)));
      }),
      { numRuns: 150 },
    );
  });

  it("an empty catalog costs the empty list; dynamic mode costs its five tools", () => {
    expect(toolListCost([]).all).toEqual({ tools: 0, tokens: countTokens('{"tools":[]}') });
    expect(dynamicCost()).toEqual({ tools: 5, tokens: wholeList(DYNAMIC_TOOLS) });
  });
});

describe("packageCost: what a real server sends", () => {
  const dir = scratchDir("token-cost");
  const pkg = model({
    tools: [
      tool("get_forecast", {
        toolset: "weather",
        description: "Forecast ",
        inputSchema: {
          type: "object",
          properties: { city: { $ref: "#/$defs/City" } },
          $defs: { City: { type: "string", minLength: 1 } },
        },
        outputSchema: { type: "object", properties: { t: { type: "number" } } },
        annotations: { readOnlyHint: true },
      }),
      tool("notes.create", { toolset: "notes" }),
      tool("notes.list", { toolset: "notes", annotations: { readOnlyHint: true } }),
      tool("ping"),
    ],
  });

  it("rebuilds each schema's $defs as readCatalog does", () => {
    const file = join(dir, "catalog.json");
    writeFileSync(file, renderDefinition(pkg).json);
    const read = readCatalog(new URL(`file://${file}`));
    expect(JSON.stringify(servedTools(catalogData(pkg)))).toBe(JSON.stringify(read.tools));
  });

  it("counts the tools/list result the runtime serves, per toolset too", async () => {
    const file = join(dir, "served.json");
    writeFileSync(file, renderDefinition(pkg).json);
    const { definition } = definitionData(pkg);
    const handlers = { tools: Object.fromEntries(pkg.tools.map(({ node }) => [node.name, () => ({ content: [] })])) };
    const app = createSpecServer(
      { ...definition, catalog: () => readCatalog(new URL(`file://${file}`)) },
      { handlers },
    );
    const handle = await serveHttp(app, { host: "127.0.0.1", port: 0 });
    const client = await connect({ url: handle.url });
    try {
      const { tools } = await client.listTools();
      const cost = packageCost(pkg);
      expect(cost.all).toEqual({ tools: 4, tokens: countTokens(JSON.stringify({ tools })) });
      const only = (names: string[]) =>
        countTokens(JSON.stringify({ tools: tools.filter((t) => names.includes(t.name)) }));
      expect(cost.toolsets).toEqual([
        { name: "default", tools: 1, tokens: only(["ping"]) },
        { name: "notes", tools: 2, tokens: only(["notes.create", "notes.list"]) },
        { name: "weather", tools: 1, tokens: only(["get_forecast"]) },
      ]);
    } finally {
      await client.close();
      await handle.close();
    }
  });
});

describe("how generate states the figures", () => {
  it.each([
    [0, "0"],
    [999, "999"],
    [9_999, "9,999"],
    [10_000, "10K"],
    [38_512, "38.5K"],
    [99_949, "99.9K"],
    [99_950, "100K"],
    [123_456, "123K"],
    [999_499, "999K"],
    [999_500, "1M"],
    [1_114_181, "1.1M"],
    [12_345_678, "12.3M"],
    [123_456_789, "123M"],
  ])("%i tokens: %s", (n, text) => {
    expect(shortCount(n)).toBe(text);
  });

  it.each([
    [{ tools: 1, tokens: 80 }, "tools/list: 1 tool, 80 tokens (all) | 5 tools, 646 tokens (dynamic)"],
    [{ tools: 19, tokens: 3_496 }, "tools/list: 19 tools, 3,496 tokens (all) | 5 tools, 646 tokens (dynamic)"],
    [{ tools: 1_223, tokens: 1_114_181 }, "tools/list: 1,223 tools, 1.1M tokens (all) | 5 tools, 646 tokens (dynamic)"],
  ])("%j: %s", (all, line) => {
    expect(costLine({ all, dynamic: { tools: 5, tokens: 646 } })).toBe(line);
  });

  it("a package without dynamic mode: the all figure alone", () => {
    expect(costLine({ all: { tools: 19, tokens: 3_496 } })).toBe("tools/list: 19 tools, 3,496 tokens (all)");
  });

  it("thousands separators do not depend on the locale", () => {
    expect([0, 12, 1_234, 1_234_567].map(thousands)).toEqual(["0", "12", "1,234", "1,234,567"]);
  });
});
