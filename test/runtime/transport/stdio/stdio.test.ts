// The stdio transport with real child processes: the client against the demo
// server (both eras), raw wire checks, and process lifecycle.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ElicitResult } from "../../../../runtime/index.ts";
import { connect, type McpClient } from "../../../../runtime/index.ts";

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url));
const serverCommand = (name: string) => ({ command: process.execPath, args: ["--import", "tsx", fixture(name)] });

describe("stdio client against the demo server, 2026 era", () => {
  let client: McpClient;
  beforeAll(async () => {
    client = await connect(serverCommand("stdio-server.ts"), {
      handlers: {
        elicitation: (params): ElicitResult => ({
          action: "accept",
          content: params.message.startsWith("Your") ? { name: "Kim" } : { colour: "blue" },
        }),
      },
    });
  });
  afterAll(() => client.close());

  test("probes with server/discover and stays modern", async () => {
    expect(client.era).toBe("modern");
    expect(client.server.info?.name).toBe("demo");
    const result = await client.callTool("echo", { text: "over stdio" });
    expect(result.content).toEqual([{ type: "text", text: "over stdio" }]);
  });

  test("progress, MRTR and errors", async () => {
    const progress: number[] = [];
    await client.callTool("slow", { steps: 2 }, { onProgress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2]);
    const asked = await client.callTool("ask_name", {});
    expect(asked.content).toEqual([{ type: "text", text: "Kim likes blue" }]);
    await expect(client.readResource("demo://nope")).rejects.toMatchObject({ code: -32602 });
  });

  test("cancellation travels as notifications/cancelled and aborts the handler", async () => {
    const controller = new AbortController();
    const call = client.callTool("wait_for_cancel", {}, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort(new Error("stop"));
    await expect(call).rejects.toThrow("stop");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const seen = await client.callTool("events", {});
    expect(seen.content).toEqual([{ type: "text", text: "started:wait_for_cancel,cancelled:wait_for_cancel" }]);
  });

  test("subscriptions/listen over stdio is tagged with the subscription id and ends on cancel", async () => {
    const subscription = await client.listen({ promptsListChanged: true }, () => {});
    expect(subscription.acknowledged).toEqual({ promptsListChanged: true });
    subscription.close();
    await subscription.closed;
  });

  test("request timeouts reject with -32001", async () => {
    await expect(client.callTool("hang", {}, { timeoutMs: 100 })).rejects.toMatchObject({ code: -32001 });
  });
});

describe("stdio client, 2025 era", () => {
  test("forced 2025-06-18 uses initialize and real elicitation requests", async () => {
    const client = await connect(serverCommand("stdio-server.ts"), {
      protocolVersion: "2025-06-18",
      handlers: { elicitation: () => ({ action: "accept", content: { name: "Lee", colour: "teal" } }) },
    });
    try {
      expect(client.era).toBe("legacy");
      expect(client.protocolVersion).toBe("2025-06-18");
      const asked = await client.callTool("ask_name", {});
      expect(asked.content).toEqual([{ type: "text", text: "Lee likes teal" }]);
      await expect(client.readResource("demo://nope")).rejects.toMatchObject({ code: -32002 });
      await client.ping();
    } finally {
      await client.close();
    }
  });

  test("falls back to initialize when the server does not know server/discover", async () => {
    const client = await connect(serverCommand("legacy-only-stdio-server.ts"));
    try {
      expect(client.era).toBe("legacy");
      expect(client.protocolVersion).toBe("2025-06-18");
      expect(client.server.info).toEqual({ name: "old", version: "0.9" });
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toEqual(["legacy_tool"]);
    } finally {
      await client.close();
    }
  });
});

describe("stdio client failures", () => {
  test("a command that cannot start rejects connect promptly", async () => {
    const started = Date.now();
    await expect(connect({ command: "/nonexistent/mcp-server" })).rejects.toThrow(/Could not start the server/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  test("a server that exits makes pending requests fail instead of hanging", async () => {
    const client = await connect(serverCommand("stdio-server.ts"));
    const call = client.callTool("wait_for_cancel", {});
    await client.callTool("exit_process", {});
    await expect(call).rejects.toThrow("The server closed its stdout");
    await client.close();
  });
});

describe("stdio server, raw wire and lifecycle", () => {
  const start = () => {
    const { command, args } = serverCommand("stdio-server.ts");
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    return { child, exited, output: () => stdout, errors: () => stderr };
  };
  const lines = (text: string) =>
    text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line));
  const waitForLines = async (output: () => string, count: number) => {
    const deadline = Date.now() + 10_000;
    while (lines(output()).length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} lines, got: ${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return lines(output());
  };
  const write = (child: ChildProcessWithoutNullStreams, message: unknown) =>
    child.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);

  test("only protocol messages on stdout; errors for bad lines; exit on stdin close", async () => {
    const { child, exited, output, errors } = start();
    write(child, "{not json");
    write(child, [{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    write(child, { jsonrpc: "2.0", id: 2, method: "ping" });
    write(child, {
      jsonrpc: "2.0",
      id: 3,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    });
    write(child, { jsonrpc: "2.0", method: "notifications/initialized" });
    write(child, { jsonrpc: "2.0", id: 4, method: "bogus/method" });
    const messages = await waitForLines(output, 5);
    // Framing errors are answered synchronously, in order; request responses may interleave.
    expect(messages[0]).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } });
    expect(messages[1]).toMatchObject({ error: { code: -32600 } });
    const byId = (id: number) => messages.find((message) => message.id === id);
    expect(byId(2)).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(byId(3)).toMatchObject({ result: { protocolVersion: "2025-11-25" } });
    expect(byId(4)).toMatchObject({ error: { code: -32601 } });
    expect(errors()).toContain("this goes to stderr, not stdout");
    child.stdin.end();
    expect(await exited).toBe(0);
  });

  test("requests without _meta before initialize are rejected", async () => {
    const { child, exited, output } = start();
    write(child, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    const [message] = await waitForLines(output, 1);
    expect(message).toMatchObject({ id: 1, error: { code: -32602 } });
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
