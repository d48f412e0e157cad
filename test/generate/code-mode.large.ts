/**
 * `--mode code` end to end (docs/large-apis.md#code-mode, issue 15): the generated shop server as a real stdio process,
 * driven by the official SDK client v1 (2025 era). tools/list gives exactly search_docs and execute;
 * search_docs answers declarations; execute runs code calling the tools through the server's own call
 * path; --read-only bounds `api`; destructive tools need the client's confirmation or --allow-destructive.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODE_TOOLS } from "../../runtime/features/code/code-tools.ts";
import { type ConnectedClient, connectSdkV2 } from "../interop/sdk-clients.ts";
import { ROOT, type RunningHttpServer, serverCommand, startHttpServer } from "./support.ts";
import { generateShop, type ShopUpstream, startShopUpstream } from "./toolsets-fixture.ts";

type Obj = Record<string, unknown>;
let pkg: string;
let upstream: ShopUpstream;
beforeAll(async () => {
  // Every feature: code mode, and the response budget one test cuts an answer with (--max-response-tokens).
  pkg = generateShop(["all"]);
  upstream = await startShopUpstream();
}, 60_000);
afterAll(() => upstream?.close());

/** What the client answers to elicitation, or undefined for a client without the capability. */
type Elicit = "accept" | "decline" | undefined;
const asked: string[] = [];

async function connect(flags: string[], elicit: Elicit = undefined): Promise<Client> {
  const client = new Client(
    { name: "code-mode-test", version: "1.0.0" },
    { capabilities: elicit ? { elicitation: {} } : {} },
  );
  if (elicit)
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(String(request.params.message));
      return { action: elicit };
    });
  const { command, args } = serverCommand(pkg, ["--base-url", upstream.url, "--mode", "code", ...flags]);
  await client.connect(new StdioClientTransport({ command, args, cwd: ROOT, stderr: "pipe" }));
  return client;
}

const text = (result: Obj) => (result.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("\n");
const execute = async (client: Client, code: string) =>
  (await client.callTool({ name: "execute", arguments: { code } })) as Obj;

describe("code mode: official SDK v1 over stdio", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect([], "accept");
  }, 60_000);
  afterAll(() => client?.close());

  it("the generated package depends on quickjs-emscripten, pinned to mcpgen's version", () => {
    const own = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).dependencies;
    const generated = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).dependencies;
    expect(generated["quickjs-emscripten"]).toBe(own["quickjs-emscripten"]);
  });

  it("lists exactly search_docs and execute", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["search_docs", "execute"]);
    expect(tools).toEqual(CODE_TOOLS);
  });

  it("search_docs answers the declarations of the matching tools", async () => {
    const result = (await client.callTool({
      name: "search_docs",
      arguments: { query: "cancel an order", limit: 2 },
    })) as Obj;
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { tools: string[] }).tools).toContain("cancel_order");
    expect(text(result)).toContain("cancel_order(");
  });

  it("execute runs code that calls two tools and combines them, with its logs", async () => {
    const result = await execute(
      client,
      'const order = await api.get_order({ id: 7 });\nconst customer = await api.get_customer({ id: 3 });\nconsole.log("order", order.id);\nreturn { status: order.status, email: customer.email };',
    );
    expect(result.isError).toBeFalsy();
    const [value, logs] = (result.content as Array<{ text: string }>).map((c) => c.text);
    expect(JSON.parse(value)).toEqual({ status: "shipped", email: "a@example.com" });
    expect(logs).toContain("order 7");
  });

  it("a tool's isError result is a rejection the code can catch, with the upstream status", async () => {
    const result = await execute(
      client,
      "try { await api.get_invoice({ id: 1 }); return 'no error'; } catch (e) { return { status: e.status, message: e.message }; }",
    );
    const caught = JSON.parse(text(result)) as { status: number; message: string };
    expect(caught.status).toBe(500);
    expect(caught.message).toContain("billing is down");
  });

  it("arguments are validated as in a direct tools/call", async () => {
    const result = await execute(client, "try { await api.get_order({ id: 'x' }); } catch (e) { return e.message; }");
    expect(text(result)).toContain("Invalid arguments for tool get_order");
  });

  it("an error in the code comes back as isError with its line, and the next execute works", async () => {
    const result = await execute(client, "const a = 1;\nconst b = null;\nreturn b.x;");
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/line 3/);
    expect(text(await execute(client, "return 1 + 1;"))).toBe("2");
  });

  it("a destructive tool runs once the user accepts, and the question names the tool and its arguments", async () => {
    const before = upstream.requests.length;
    const result = await execute(client, "return await api.cancel_order({ id: 42 });");
    expect(JSON.parse(text(result))).toEqual({ cancelled: true });
    expect(asked.at(-1)).toContain("cancel_order");
    expect(asked.at(-1)).toContain('{"id":42}');
    expect(upstream.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(["DELETE /orders/42"]);
  });
});

describe("code mode: destructive tools without the user's yes", () => {
  const attempt = "try { await api.cancel_order({ id: 5 }); return 'ran'; } catch (e) { return e.message; }";
  const cases: Array<{ why: string; flags: string[]; elicit: Elicit; want: string }> = [
    { why: "declined through elicitation", flags: [], elicit: "decline", want: "declined" },
    { why: "no elicitation and no --allow-destructive", flags: [], elicit: undefined, want: "--allow-destructive" },
    { why: "no elicitation, with --allow-destructive", flags: ["--allow-destructive"], elicit: undefined, want: "ran" },
  ];
  for (const { why, flags, elicit, want } of cases) {
    it(why, async () => {
      const client = await connect(flags, elicit);
      try {
        const before = upstream.requests.length;
        const answer = JSON.parse(text(await execute(client, attempt))) as string;
        expect(answer).toContain(want);
        const deletes = upstream.requests.slice(before).filter((r) => r.method === "DELETE");
        expect(deletes.length).toBe(want === "ran" ? 1 : 0);
      } finally {
        await client.close();
      }
    }, 30_000);
  }
});

describe("code mode: what limits and flags bound", () => {
  it("--read-only: a call of a tool that is not served is an error naming it", async () => {
    const client = await connect(["--read-only", "--allow-destructive"]);
    try {
      const result = await execute(client, "await api.cancel_order({ id: 1 });\nreturn 'ran';");
      expect(result.isError).toBe(true);
      expect(text(result)).toContain("cancel_order");
      expect(text(result)).toContain("--read-only");
    } finally {
      await client.close();
    }
  }, 30_000);

  it("--code-max-calls and --code-timeout end an execute with an error, and the server keeps serving", async () => {
    const client = await connect(["--code-max-calls", "1", "--code-timeout", "1000"]);
    try {
      const calls = await execute(
        client,
        "await api.get_order({ id: 1 });\nawait api.get_order({ id: 2 });\nreturn 'both';",
      );
      expect(calls.isError).toBe(true);
      const started = Date.now();
      const loop = await execute(client, "while (true) {}");
      expect(loop.isError).toBe(true);
      expect(text(loop)).toContain("--code-timeout");
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(text(await execute(client, "return (await api.get_order({ id: 9 })).id;"))).toBe("9");
    } finally {
      await client.close();
    }
  }, 30_000);

  it("an answer the response budget cuts reaches the code as shorter JSON, and execute's result says so", async () => {
    const client = await connect(["--max-response-tokens", "500"]);
    try {
      const code =
        "const orders = await api.list_orders({});\nreturn Array.isArray(orders) ? orders.length : typeof orders;";
      const result = await execute(client, code);
      expect(result.isError).toBeFalsy();
      const blocks = (result.content as Array<{ text: string }>).map((block) => block.text);
      const kept = Number(blocks[0]);
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(200);
      expect(blocks[1]).toMatch(/^notes:\napi\.list_orders: \[cut: .* of the 200 items/);
    } finally {
      await client.close();
    }
  }, 30_000);

  it("a looping execute holds neither the server nor, with --code-concurrency 1, the execute after it", async () => {
    const client = await connect(["--code-concurrency", "1", "--code-timeout", "5000"]);
    try {
      const loop = execute(client, "while (true) {}");
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = Date.now();
      const listed = await client.listTools();
      const listMs = Date.now() - started;
      const next = execute(client, "return 'second';");
      expect((await loop).isError).toBe(true);
      expect(text(await next)).toBe('"second"');
      expect(listed.tools.map((tool) => tool.name).sort()).toEqual(["execute", "search_docs"]);
      // On the server's thread the loop would hold tools/list for its 5 s; a loaded machine is slow, not that slow.
      expect(listMs).toBeLessThan(3_000);
    } finally {
      await client.close();
    }
  }, 30_000);

  const bad: Array<{ why: string; args?: string[]; env?: Record<string, string>; want: string }> = [
    {
      why: "--code-timeout 0",
      args: ["--code-timeout", "0"],
      want: "--code-timeout must be a whole number >= 1, not '0'",
    },
    { why: "--code-memory abc", args: ["--code-memory", "abc"], want: "--code-memory must be a whole number >= 1" },
    {
      why: "MCP_CODE_CONCURRENCY=0",
      env: { MCP_CODE_CONCURRENCY: "0" },
      want: "MCP_CODE_CONCURRENCY must be a whole number >= 1, not '0'",
    },
    {
      why: "MCP_CODE_MAX_CALLS=-1",
      env: { MCP_CODE_MAX_CALLS: "-1" },
      want: "MCP_CODE_MAX_CALLS must be a whole number",
    },
    {
      why: "MCP_ALLOW_DESTRUCTIVE=yes",
      env: { MCP_ALLOW_DESTRUCTIVE: "yes" },
      want: "MCP_ALLOW_DESTRUCTIVE must be 1",
    },
  ];
  for (const { why, args = [], env = {}, want } of bad) {
    it(`bad value exits 2: ${why}`, () => {
      const { command, args: argv } = serverCommand(pkg, ["--mode", "code", ...args]);
      const run = spawnSync(command, argv, { cwd: ROOT, env: { ...process.env, ...env }, input: "", encoding: "utf8" });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(want);
      expect(run.stderr).toContain("usage: server");
    });
  }
});

describe("code mode: official SDK v2 (2026-07-28) over HTTP: confirmation through an MRTR round", () => {
  let client: ConnectedClient;
  let http: RunningHttpServer | undefined;
  beforeAll(async () => {
    http = await startHttpServer(pkg, ["--base-url", upstream.url, "--mode", "code"]);
    client = await connectSdkV2({ kind: "http", url: http.url });
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await http?.stop();
  });

  it("a confirmed destructive call runs once, after the client's answer", async () => {
    const before = upstream.requests.length;
    const code = "const order = await api.get_order({ id: 43 });\nreturn await api.cancel_order({ id: order.id });";
    const result = await client.peer.callTool("execute", { code });
    expect(JSON.parse(text(result))).toEqual({ cancelled: true });
    const deletes = upstream.requests.slice(before).filter((r) => r.method === "DELETE");
    expect(deletes.map((r) => r.path)).toEqual(["/orders/43"]);
  });

  it("a second destructive call in one execute is refused rather than run twice", async () => {
    const before = upstream.requests.length;
    const code =
      "await api.cancel_order({ id: 1 });\ntry { await api.update_customer({ id: 2, email: 'b@example.com' }); } catch (e) { return e.message; }\nreturn 'both ran';";
    const result = await client.peer.callTool("execute", { code });
    expect(JSON.parse(text(result))).toContain("one destructive call per execute");
    const writes = upstream.requests.slice(before).filter((r) => r.method !== "GET");
    expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual(["DELETE /orders/1"]);
  });
});
