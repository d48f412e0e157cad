// McpClient is generic over a ToolMap and a PromptMap (the generated client is McpClient<ToolMap,
// PromptMap>): a wrong tool or prompt name, or wrong arguments, fail to compile. `npx tsc -p
// tsconfig.json` checks the `@ts-expect-error` lines below (each is an error if the line compiles); the
// calls then run against a real server over Streamable HTTP.
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from "vitest";
import { connect, type HttpServerHandle, type McpClient, serveHttp, type ToolCallResult } from "../../runtime/index.ts";
import { compileSchema } from "../../runtime/protocol/compile-schema.ts";
import { looseForecastServer } from "./fixtures/forecast-tool.ts";

type ForecastInput = { mode: string };
// Mirrors FORECAST_OUTPUT_SCHEMA in the fixture.
type ForecastOutput = { city: string; highC: number };
type ToolMap = {
  forecast: { args: ForecastInput; result: ForecastOutput };
  plain: { args: { [key: string]: unknown }; result: { [key: string]: unknown } };
};
type PromptMap = { greet: { name: string; tone?: string }; hello: { tone?: string } };

let http: HttpServerHandle;
beforeAll(async () => {
  // This one checks arguments, so the calls that must not compile are refused at run time too.
  const server = looseForecastServer({ compileSchema });
  server.prompt({
    name: "greet",
    arguments: [{ name: "name", required: true }, { name: "tone" }],
    get: (args) => ({ messages: [{ role: "user", content: { type: "text", text: `Hello ${args.name}` } }] }),
  });
  server.prompt({
    name: "hello",
    get: () => ({ messages: [{ role: "user", content: { type: "text", text: "Hello" } }] }),
  });
  http = await serveHttp(server);
});
afterAll(() => http.close());

describe("a client typed by ToolMap and PromptMap", () => {
  test("right names and arguments compile, run, and type structuredContent", async () => {
    const client = await connect<ToolMap, PromptMap>({ url: http.url });
    try {
      const result = await client.callTool("forecast", { mode: "good" });
      expectTypeOf(result).toEqualTypeOf<ToolCallResult<ToolMap, "forecast">>();
      expectTypeOf(result.structuredContent).toEqualTypeOf<ForecastOutput | undefined>();
      expect(result.structuredContent?.highC).toBe(4);
      // A tool whose arguments are all optional may be called without any.
      expect((await client.callTool("plain")).isError).toBeUndefined();
      const prompt = await client.getPrompt("greet", { name: "Ada" });
      expect(prompt.messages[0].content).toEqual({ type: "text", text: "Hello Ada" });
      expect((await client.getPrompt("hello")).messages).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  test("wrong names and arguments do not compile (and the server refuses them at run time)", async () => {
    const client: McpClient<ToolMap, PromptMap> = await connect<ToolMap, PromptMap>({ url: http.url });
    try {
      // @ts-expect-error: no tool of that name
      await expect(client.callTool("forcast", { mode: "good" })).rejects.toThrow(/Unknown tool: forcast/);
      // @ts-expect-error: `mode` must be a string
      const wrongType = await client.callTool("forecast", { mode: 3 });
      expect(wrongType.isError).toBe(true);
      // @ts-expect-error: `mode` is required, so are the arguments
      expect((await client.callTool("forecast")).isError).toBe(true);
      // @ts-expect-error: no prompt of that name
      await expect(client.getPrompt("greeet", { name: "Ada" })).rejects.toThrow(/Unknown prompt/);
      // @ts-expect-error: `name` is required
      await expect(client.getPrompt("greet", { tone: "dry" })).rejects.toThrow(/name/);
    } finally {
      await client.close();
    }
  });

  test("an untyped client (default type parameters) takes any name and arguments", async () => {
    const client = await connect({ url: http.url });
    try {
      expectTypeOf(client).toEqualTypeOf<McpClient>();
      const result = await client.callTool("forecast", { mode: "good", extra: [1, 2] });
      expectTypeOf(result.structuredContent).toEqualTypeOf<unknown>();
      expect(result.structuredContent).toEqual({ city: "Oslo", highC: 4 });
      await expect(client.getPrompt("nope")).rejects.toThrow(/Unknown prompt/);
    } finally {
      await client.close();
    }
  });
});
