/**
 * A direct tools/call of a name the server does not have (issue 33 item 7), against a generated server run as
 * a real process: a misspelt name is told the close names (as call_tool and execute are), a tool's former name
 * (`renamedFrom`) its current one, and a name with nothing close the plain message. Each stays the JSON-RPC
 * error both protocol eras give an unknown tool (-32602), over stdio and Streamable HTTP.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { connect, type McpClient } from "../../runtime/client/client.ts";
import { ErrorCode } from "../../runtime/protocol/constants.ts";
import { ROOT, type RunningHttpServer, scratchDir, serverCommand, startHttpServer } from "./support.ts";

const object = { type: "object" };
const SPEC = {
  server: { name: "prices", version: "1.0.0" },
  tools: [
    { name: "get_price", description: "The price of an item", inputSchema: object },
    { name: "list_orders", renamedFrom: "orders_list", description: "Every order", inputSchema: object },
    { name: "cancel_order", description: "Cancel an order", inputSchema: object },
  ],
};

let pkg: string;
beforeAll(() => {
  const dir = scratchDir("unknown-tool");
  writeFileSync(join(dir, "prices.yaml"), stringify(SPEC));
  pkg = join(dir, "pkg");
  // With both modes, so the same package shows call_tool and execute telling the rename too.
  const args = ["generate", join(dir, "prices.yaml"), "--out", pkg, "--features", "dynamic,code"];
  execFileSync(process.execPath, [join(ROOT, "bin/mcpgen.js"), ...args], { cwd: ROOT, stdio: "pipe" });
}, 60_000);

/** What a direct tools/call of `name` is refused with: the JSON-RPC error's code and message. */
async function refusal(client: McpClient, name: string): Promise<{ code: number; message: string }> {
  const error = await client.callTool(name, {}).then(
    () => undefined,
    (thrown: { code: number; message: string }) => thrown,
  );
  if (!error) throw new Error(`tools/call ${name} succeeded`);
  return { code: error.code, message: error.message };
}

const invalidParams = (message: string) => ({ code: ErrorCode.InvalidParams, message });

const eras = [
  ["2025-11-25", { protocolVersion: "2025-11-25" }],
  ["2026-07-28", {}],
] as const;

for (const [era, pinned] of eras) {
  describe(`direct tools/call of an unknown name, ${era}`, () => {
    let http: RunningHttpServer;
    const clients: Array<[string, McpClient]> = [];
    beforeAll(async () => {
      http = await startHttpServer(pkg);
      clients.push(["stdio", await connect({ ...serverCommand(pkg), cwd: ROOT }, pinned)]);
      clients.push(["http", await connect({ url: http.url }, pinned)]);
    }, 60_000);
    afterAll(async () => {
      for (const [, client] of clients) await client.close();
      await http?.stop();
    });

    it("speaks the era asked for, on both transports", () => {
      for (const [, client] of clients) expect(client.protocolVersion).toBe(era);
    });

    it("a misspelt name: the close names", async () => {
      for (const [transport, client] of clients) {
        expect(await refusal(client, "get_pricing"), transport).toEqual(
          invalidParams("Unknown tool: get_pricing (did you mean 'get_price'?)"),
        );
        expect(await refusal(client, "cancel_ordr"), transport).toEqual(
          invalidParams("Unknown tool: cancel_ordr (did you mean 'cancel_order'?)"),
        );
      }
    });

    it("a former name: the tool's current one", async () => {
      for (const [transport, client] of clients)
        expect(await refusal(client, "orders_list"), transport).toEqual(
          invalidParams("Unknown tool: orders_list: it was renamed to list_orders"),
        );
    });

    it("nothing close: the plain message", async () => {
      for (const [transport, client] of clients)
        expect(await refusal(client, "refund_payment"), transport).toEqual(
          invalidParams("Unknown tool: refund_payment"),
        );
    });
  });
}

describe("renames in the generated package, in dynamic and in code mode", () => {
  it("src/definition.ts maps the former name to the current one; tools/list does not show it", async () => {
    expect(readFileSync(join(pkg, "src/definition.ts"), "utf8")).toContain(
      'renamed: {\n    orders_list: "list_orders",\n  },',
    );
    expect(readFileSync(join(pkg, "src/catalog.json"), "utf8")).not.toContain("orders_list");
  });

  it("call_tool of a former name is told the current one; a direct call in dynamic mode suggests real tools", async () => {
    const client = await connect({ ...serverCommand(pkg, ["--mode", "dynamic"]), cwd: ROOT });
    try {
      const result = await client.callTool("call_tool", { name: "orders_list", arguments: {} });
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([{ type: "text", text: "The tool 'orders_list' was renamed to list_orders." }]);
      // Unlisted in dynamic mode, the real tools stay callable directly, so they are what a direct call is told.
      expect(await refusal(client, "get_pricing")).toEqual(
        invalidParams("Unknown tool: get_pricing (did you mean 'get_price'?)"),
      );
    } finally {
      await client.close();
    }
  });

  it("execute's api.<former name> is told the current one", async () => {
    const client = await connect({ ...serverCommand(pkg, ["--mode", "code"]), cwd: ROOT });
    try {
      const code = "try { await api.orders_list({}); } catch (e) { return e.message; }";
      const result = await client.callTool("execute", { code });
      // execute returns the code's value as JSON: here the message the call was refused with.
      const [first] = result.content as Array<{ text: string }>;
      expect(JSON.parse(first.text)).toBe("The tool 'orders_list' was renamed to list_orders.");
    } finally {
      await client.close();
    }
  });
});
