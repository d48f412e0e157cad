// The runtime client holds each tool result to the tool's outputSchema (MCP tools: clients SHOULD), against
// real servers that do not check their own output: our runtime server over Streamable HTTP in both eras,
// and the official SDK's low-level Server over stdio (which can also leave structuredContent out).
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type ClientOptions,
  type ConnectTarget,
  connect,
  type HttpServerHandle,
  type McpClient,
  serveHttp,
  ToolOutputError,
} from "../../runtime/index.ts";
import { compileSchema } from "../../runtime/protocol/compile-schema.ts";
import { looseForecastServer } from "./fixtures/forecast-tool.ts";

const SDK_SERVER = join(import.meta.dirname, "fixtures/sdk-loose-output-server.ts");
const stdioTarget: ConnectTarget = { command: process.execPath, args: ["--import", "tsx", SDK_SERVER] };

let http: HttpServerHandle;
beforeAll(async () => {
  http = await serveHttp(looseForecastServer());
});
afterAll(() => http.close());

async function withClient(target: () => ConnectTarget, options: ClientOptions, run: (c: McpClient) => Promise<void>) {
  const client = await connect(target(), { probeTimeoutMs: 1_000, ...options });
  try {
    await run(client);
  } finally {
    await client.close();
  }
}

const transports = [
  ["runtime server, HTTP, 2026-07-28", () => ({ url: http.url }), {}],
  ["runtime server, HTTP, 2025-11-25", () => ({ url: http.url }), { protocolVersion: "2025-11-25" }],
  ["SDK low-level server, stdio, 2025 era", () => stdioTarget, {}],
] as const;

for (const [label, target, era] of transports) {
  describe(`outputSchema learned from tools/list (${label})`, () => {
    const options: ClientOptions = { ...era, compileSchema };

    test("a result that keeps to the schema comes back as sent", async () => {
      await withClient(target, options, async (client) => {
        const result = await client.callTool("forecast", { mode: "good" });
        expect(result.structuredContent).toEqual({ city: "Oslo", highC: 4 });
      });
    });

    test("structuredContent that breaks the schema rejects, naming the tool, the pointer and the problem", async () => {
      await withClient(target, options, async (client) => {
        const error = await client.callTool("forecast", { mode: "wrong" }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ToolOutputError);
        expect(error).toMatchObject({ code: -32602, tool: "forecast", pointer: "/highC" });
        expect((error as Error).message).toBe(
          "Tool forecast returned structuredContent not matching its outputSchema: /highC must be number",
        );
        expect((error as ToolOutputError).toJson().data).toEqual({ tool: "forecast", pointer: "/highC" });
      });
    });

    test("an error result is not checked, and a tool without outputSchema is not either", async () => {
      await withClient(target, options, async (client) => {
        const error = await client.callTool("forecast", { mode: "error" });
        expect(error.isError).toBe(true);
        expect(error.structuredContent).toEqual({ reason: 1 });
        const plain = await client.callTool("plain");
        expect(plain.content).toEqual([{ type: "text", text: "no schema, no check" }]);
      });
    });
  });
}

describe("a server that leaves structuredContent out", () => {
  test("a tool with an outputSchema and no structuredContent rejects (servers MUST provide it)", async () => {
    await withClient(
      () => stdioTarget,
      {},
      async (client) => {
        await client.listTools();
        const error = await client.callTool("forecast", { mode: "missing" }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ToolOutputError);
        expect(error).toMatchObject({ code: -32600, tool: "forecast", pointer: "" });
        expect((error as Error).message).toBe(
          "Tool forecast declares an outputSchema but returned no structuredContent",
        );
      },
    );
  });
});

describe("precompiled validators", () => {
  // Stricter than what the server lists (highC at most 3): the precompiled one must be the one used.
  const strict = compileSchema({ type: "object", properties: { highC: { type: "number", maximum: 3 } } });

  test("are used without any compiling and without listing tools", async () => {
    await withClient(
      () => ({ url: http.url }),
      { protocolVersion: "2025-11-25", outputValidators: () => ({ forecast: strict }) },
      async (client) => {
        const error = await client.callTool("forecast", { mode: "good" }).catch((e: unknown) => e);
        expect(error).toMatchObject({ tool: "forecast", pointer: "/highC", message: /\/highC must be <= 3$/ });
      },
    );
  });

  test("a client with neither validators nor a compiler passes results through unchecked", async () => {
    await withClient(
      () => ({ url: http.url }),
      {},
      async (client) => {
        const result = await client.callTool("forecast", { mode: "wrong" });
        expect(result.structuredContent).toEqual({ city: "Oslo", highC: "warm" });
      },
    );
  });
});
