/**
 * A generated server's serving flags over real processes (docs/reference/server-flags.md): --toolsets, --read-only and
 * --mode, each with its environment twin, and bad values refused at start-up with exit 2 and a message
 * that says what is allowed.
 */
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect } from "../../runtime/client/client.ts";
import { DYNAMIC_TOOLS } from "../../runtime/features/dynamic/dynamic-tools.ts";
import { ROOT, serverCommand } from "./support.ts";
import { CATALOG_TOOLS, generateShop, type ShopUpstream, startShopUpstream } from "./toolsets-fixture.ts";

let pkg: string;
let upstream: ShopUpstream;
beforeAll(async () => {
  // Both serving modes, so --mode's choices are all three (a package lists only the modes it has).
  pkg = generateShop(["dynamic", "code"]);
  upstream = await startShopUpstream();
}, 60_000);
afterAll(() => upstream?.close());

/** The tool names a stdio server started with these flags and environment lists. */
async function listedTools(args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const client = await connect({ ...serverCommand(pkg, ["--base-url", upstream.url, ...args]), env, cwd: ROOT });
  try {
    return (await client.listTools()).tools.map((t) => t.name).sort();
  } finally {
    await client.close();
  }
}

/** Starts the server expecting it to refuse: its exit code and stderr. */
function refused(args: string[], env: Record<string, string> = {}) {
  const { command, args: argv } = serverCommand(pkg, args);
  const run = spawnSync(command, argv, { cwd: ROOT, env: { ...process.env, ...env }, input: "", encoding: "utf8" });
  return { status: run.status, stderr: run.stderr };
}

const ORDERS = ["cancel_order", "get_order", "list_orders"];
const catalog = Array.from({ length: CATALOG_TOOLS }, (_, i) => `product_${String(i + 1).padStart(2, "0")}`);
const READ_ONLY = [...catalog, "get_customer", "get_invoice", "get_order", "list_orders", "shop_status"].sort();

describe("serving flags and their environment twins", () => {
  it("--toolsets and MCP_TOOLSETS serve only those toolsets; all is every one", async () => {
    expect(await listedTools(["--toolsets", "orders"])).toEqual(ORDERS);
    expect(await listedTools([], { MCP_TOOLSETS: "orders" })).toEqual(ORDERS);
    expect(await listedTools(["--toolsets", "orders, default"])).toEqual([...ORDERS, "shop_status"]);
    expect(await listedTools(["--toolsets", "all"])).toHaveLength(7 + CATALOG_TOOLS);
    // The flag wins over the environment.
    expect(await listedTools(["--toolsets", "billing"], { MCP_TOOLSETS: "orders" })).toEqual(["get_invoice"]);
  });

  it("--read-only and MCP_READ_ONLY=1 serve only readOnlyHint: true tools", async () => {
    expect(await listedTools(["--read-only"])).toEqual(READ_ONLY);
    expect(await listedTools([], { MCP_READ_ONLY: "1" })).toEqual(READ_ONLY);
    expect(await listedTools([], { MCP_READ_ONLY: "0" })).toHaveLength(7 + CATALOG_TOOLS);
    expect(await listedTools(["--read-only", "--toolsets", "orders"])).toEqual(["get_order", "list_orders"]);
  });

  it("--mode and MCP_MODE: dynamic lists the five dynamic tools, all (the default) every tool", async () => {
    const dynamic = DYNAMIC_TOOLS.map((t) => t.name).sort();
    expect(await listedTools(["--mode", "dynamic"])).toEqual(dynamic);
    expect(await listedTools([], { MCP_MODE: "dynamic" })).toEqual(dynamic);
    expect(await listedTools(["--mode", "all"], { MCP_MODE: "dynamic" })).toHaveLength(7 + CATALOG_TOOLS);
  });

  it("a tool left out is not callable, and the error says it exists but is not enabled", async () => {
    const client = await connect({
      ...serverCommand(pkg, ["--base-url", upstream.url, "--toolsets", "orders", "--read-only"]),
      cwd: ROOT,
    });
    try {
      await expect(client.callTool("get_customer", { id: 1 })).rejects.toThrow(
        "Unknown tool: get_customer: it exists but is not enabled on this server: its toolset 'customers' is not in --toolsets (orders)",
      );
      await expect(client.callTool("cancel_order", { id: 1 })).rejects.toThrow(
        "Unknown tool: cancel_order: it exists but is not enabled on this server: it is not read-only and the server runs with --read-only",
      );
      await expect(client.callTool("no_such_tool", {})).rejects.toThrow("Unknown tool: no_such_tool");
      const served = await client.callTool("get_order", { id: 4 });
      expect(served.structuredContent).toEqual({ id: 4, status: "shipped" });
    } finally {
      await client.close();
    }
  });
});

describe("bad serving flags: exit 2 with a message saying what is allowed", () => {
  const VALID = "this server's toolsets are: all, billing, catalog, customers, default, orders";
  const cases: Array<{ why: string; args?: string[]; env?: Record<string, string>; want: string[] }> = [
    {
      why: "an unknown toolset, with did-you-mean",
      args: ["--toolsets", "order,nope"],
      want: ["--toolsets: unknown toolset 'order' (did you mean 'orders'?), 'nope'", VALID],
    },
    {
      why: "an unknown toolset in MCP_TOOLSETS",
      env: { MCP_TOOLSETS: "custmers" },
      want: ["MCP_TOOLSETS: unknown toolset 'custmers' (did you mean 'customers'?)", VALID],
    },
    { why: "an empty toolset list", args: ["--toolsets", ","], want: ["--toolsets names no toolset"] },
    {
      why: "an unknown mode",
      args: ["--mode", "fast"],
      want: ["--mode must be one of all, dynamic, code, not 'fast'"],
    },
    { why: "an unknown MCP_MODE", env: { MCP_MODE: "Dynamic" }, want: ["MCP_MODE must be one of all, dynamic, code"] },
    {
      why: "MCP_READ_ONLY neither 1 nor 0",
      env: { MCP_READ_ONLY: "yes" },
      want: ["MCP_READ_ONLY must be 1 (or true) to serve only read-only tools, or 0 (or false), not 'yes'"],
    },
    { why: "--read-only with a value", args: ["--read-only=yes"], want: ["--read-only"] },
  ];
  for (const { why, args = [], env = {}, want } of cases) {
    it(why, () => {
      const { status, stderr } = refused(args, env);
      expect(status).toBe(2);
      for (const text of want) expect(stderr).toContain(text);
      expect(stderr).toContain("usage: server");
      expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
    });
  }
});
