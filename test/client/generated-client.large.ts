// The generated src/client.ts: McpClient<ToolMap, PromptMap> without casts, whose wrong names and
// arguments fail `tsc --strict`, and which holds results to the spec's outputSchemas with the package's
// precompiled validators (no schema compiled at run time), against a real server over Streamable HTTP.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generate } from "../../generator/index.ts";
import { type ConnectTarget, type HttpServerHandle, type McpClient, serveHttp } from "../../runtime/index.ts";
import { scratchDir, serverCommand, typecheck } from "../generate/support.ts";
import { looseForecastServer } from "./fixtures/forecast-tool.ts";

// Stricter than the server's own listing (highC at most 3), so the package's validator must be the one used.
const SPEC = `server: { name: forecaster, version: 1.0.0 }
tools:
  - name: forecast
    inputSchema: { type: object, properties: { mode: { type: string } }, required: [mode] }
    outputSchema:
      type: object
      properties: { city: { type: string }, highC: { type: number, maximum: 3 } }
      required: [city, highC]
  - name: plain
    inputSchema: { type: object }
resourceTemplates:
  - { uriTemplate: "city://{id}", name: city, mimeType: text/plain }
prompts:
  - name: greet
    arguments: [{ name: name, required: true }]
    messages: [{ role: user, content: { type: text, text: "Hello {{name}}" } }]
`;

type GeneratedClientModule = {
  connect: (target: ConnectTarget, options?: { protocolVersion?: string }) => Promise<McpClient>;
};

// The template handler a user writes from the scaffold's hint: only "oslo" exists.
const CITY_HANDLER = `import type { ResourceReadResult, SpecContext } from "../../../runtime/handler-api.ts";

export default async function resourceTemplateCity(
  uri: string,
  variables: Record<string, string>,
  ctx: SpecContext,
): Promise<ResourceReadResult> {
  if (variables.id !== "oslo") throw ctx.notFound(uri);
  return { contents: [{ uri, mimeType: "text/plain", text: "Oslo" }] };
}
`;

const TYPE_TEST = `import { connect } from "./client.ts";

export async function typeTest(url: string): Promise<number | undefined> {
  const client = await connect({ url });
  // @ts-expect-error: no tool of that name
  await client.callTool("forcast", { mode: "good" });
  // @ts-expect-error: mode must be a string
  await client.callTool("forecast", { mode: 3 });
  // @ts-expect-error: mode is required
  await client.callTool("forecast", {});
  // @ts-expect-error: no prompt of that name
  await client.getPrompt("gret", { name: "Ada" });
  // @ts-expect-error: name is required
  await client.getPrompt("greet", {});
  await client.callTool("plain");
  const result = await client.callTool("forecast", { mode: "good" });
  return result.structuredContent?.highC;
}
`;

describe("the generated client", () => {
  const dir = scratchDir("generated-client");
  const pkg = join(dir, "pkg");
  let http: HttpServerHandle;

  beforeAll(async () => {
    writeFileSync(join(dir, "forecaster.yaml"), SPEC);
    const result = await generate(join(dir, "forecaster.yaml"), pkg);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    http = await serveHttp(looseForecastServer());
  }, 120_000);
  afterAll(() => http?.close());

  test("is the runtime client typed by ToolMap and PromptMap, with no cast", () => {
    const source = readFileSync(join(pkg, "src/client.ts"), "utf8");
    expect(source).toContain("export type Client = McpClient<ToolMap, PromptMap>;");
    expect(source).not.toMatch(/ as (unknown|never|Client)\b/);
    expect(source).toContain('forecast: validator(0, "validateForecastOutput"),');
  });

  test("scaffolds a template handler that points at ctx.notFound", () => {
    const scaffold = readFileSync(join(pkg, "src/handlers/resource-templates/city.ts"), "utf8");
    expect(scaffold).toContain("// Nothing there? `throw _ctx.notFound(_uri)`");
    writeFileSync(join(pkg, "src/handlers/resource-templates/city.ts"), CITY_HANDLER);
  });

  test("rejects wrong tool and prompt names and arguments at compile time", async () => {
    writeFileSync(join(pkg, "src/type-test.ts"), TYPE_TEST);
    expect(await typecheck(pkg)).toBe("");
    // The same file without the expectations: every one of them was an error.
    writeFileSync(join(pkg, "src/type-test.ts"), TYPE_TEST.replaceAll(/ *\/\/ @ts-expect-error.*\n/g, ""));
    const errors = (await typecheck(pkg)).match(/src\/type-test\.ts\(\d+,\d+\): error/g) ?? [];
    expect(errors).toHaveLength(5);
  }, 300_000);

  test("holds a result to the spec's outputSchema with its precompiled validators", async () => {
    const { connect } = (await import(join(pkg, "src/client.ts"))) as GeneratedClientModule;
    const client = await connect({ url: http.url });
    try {
      const error = await client.callTool("forecast", { mode: "good" }).catch((e: unknown) => e);
      expect(error).toMatchObject({
        name: "ToolOutputError",
        code: -32602,
        tool: "forecast",
        pointer: "/highC",
        message: "Tool forecast returned structuredContent not matching its outputSchema: /highC must be <= 3",
      });
      const plain = await client.callTool("plain");
      expect(plain.content).toEqual([{ type: "text", text: "no schema, no check" }]);
    } finally {
      await client.close();
    }
  });

  for (const [version, code] of [
    ["2026-07-28", -32602],
    ["2025-11-25", -32002],
  ] as const) {
    test(`its server answers ctx.notFound with ${code} to a ${version} client over stdio`, async () => {
      const { connect } = (await import(join(pkg, "src/client.ts"))) as GeneratedClientModule;
      const client = await connect(serverCommand(pkg), { protocolVersion: version });
      try {
        const found = await client.readResource("city://oslo");
        expect(found.contents).toEqual([{ uri: "city://oslo", mimeType: "text/plain", text: "Oslo" }]);
        await expect(client.readResource("city://atlantis")).rejects.toMatchObject({
          code,
          message: "Resource not found: city://atlantis",
          data: { uri: "city://atlantis" },
        });
      } finally {
        await client.close();
      }
    }, 60_000);
  }
});
