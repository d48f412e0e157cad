// Our runtime client drives the official SDK servers as real child processes:
//   SDK v1 McpServer (2025 era only)      over stdio and HTTP: era detection must fall back to initialize
//   SDK v2 McpServer (both eras)          over stdio and HTTP: detection must pick 2026-07-28;
//                                         forcing 2025-11-25 must still work against the same server
//   @modelcontextprotocol/server-everything over stdio, including server-to-client requests
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ClientHandlers, ClientOptions, ConnectTarget, McpClient } from "../../runtime/index.ts";
import { connect } from "../../runtime/index.ts";
import { type RunningServer, startServerProcess } from "../conformance/fixture-process.ts";
import { REPO_ROOT } from "../conformance/harness.ts";
import {
  assertCancellationReachesServer,
  assertPeerErrors,
  assertPeerSurface,
  type PeerClient,
} from "./peer-assertions.ts";
import { ELICITED_NAME, PEER_SERVER_INFO } from "./peer-fixture.ts";

const V1_SERVER = join(REPO_ROOT, "test/interop/peers/sdk-v1-server.ts");
const V2_SERVER = join(REPO_ROOT, "test/interop/peers/sdk-v2-server.ts");
const EVERYTHING = join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

const CLIENT_INFO = { name: "mcpgen-interop-client", version: "1.0.0" };

function peerOf(client: McpClient): PeerClient {
  return {
    listTools: () => client.listTools(),
    callTool: (name, args, onProgress, signal) =>
      client.callTool(name, args, {
        ...(onProgress
          ? { onProgress: (p: { progress: number; total?: number }) => onProgress(p.progress, p.total) }
          : {}),
        ...(signal ? { signal } : {}),
      }),
    listResources: () => client.listResources(),
    listResourceTemplates: () => client.listResourceTemplates(),
    readResource: (uri) => client.readResource(uri),
    listPrompts: () => client.listPrompts(),
    getPrompt: (name, args) => client.getPrompt(name, args),
  };
}

// Answers the peer fixture's "ask" tool; the capability is declared because a handler is given.
const PEER_HANDLERS: ClientHandlers = {
  elicitation: () => ({ action: "accept", content: { name: ELICITED_NAME } }),
};

async function withClient(target: ConnectTarget, options: ClientOptions, run: (client: McpClient) => Promise<void>) {
  const client = await connect(target, {
    clientInfo: CLIENT_INFO,
    handlers: PEER_HANDLERS,
    probeTimeoutMs: "command" in target ? STDIO_PROBE_MS : undefined,
    ...options,
  });
  try {
    await run(client);
  } finally {
    await client.close();
  }
}

// The era probe on stdio waits probeTimeoutMs for an answer to server/discover, counted from spawn;
// a tsx-started server on a busy 2-core CI box can take longer than the 3 s default just to boot.
const STDIO_PROBE_MS = 20_000;

const tsxStdio = (file: string): ConnectTarget => ({
  command: process.execPath,
  args: ["--import", "tsx", file],
  cwd: REPO_ROOT,
});

let v1Http: RunningServer;
let v2Http: RunningServer;
beforeAll(async () => {
  [v1Http, v2Http] = await Promise.all([
    startServerProcess(V1_SERVER, ["http"]),
    startServerProcess(V2_SERVER, ["http"]),
  ]);
});
afterAll(async () => {
  await Promise.all([v1Http?.stop(), v2Http?.stop()]);
});

describe.concurrent("runtime client -> SDK v1 McpServer (2025 era)", () => {
  const targets: Record<string, () => ConnectTarget> = {
    stdio: () => tsxStdio(V1_SERVER),
    http: () => ({ url: v1Http.url }),
  };
  for (const [kind, target] of Object.entries(targets)) {
    test(`${kind}: era detection falls back to initialize`, { timeout: 20_000 }, async () => {
      await withClient(target(), {}, async (client) => {
        expect(client.era).toBe("legacy");
        expect(client.protocolVersion).toBe("2025-11-25");
        expect(client.server.info).toMatchObject(PEER_SERVER_INFO);
        await assertPeerSurface(peerOf(client));
        await assertPeerErrors(peerOf(client), "legacy");
        await assertCancellationReachesServer(peerOf(client), `runtime-v1-${kind}`);
      });
    });
  }
});

describe.concurrent("runtime client -> SDK v2 McpServer", () => {
  const targets: Record<string, () => ConnectTarget> = {
    stdio: () => tsxStdio(V2_SERVER),
    http: () => ({ url: v2Http.url }),
  };
  for (const [kind, target] of Object.entries(targets)) {
    test(`${kind}: era detection picks 2026-07-28`, { timeout: 20_000 }, async () => {
      await withClient(target(), {}, async (client) => {
        expect(client.era).toBe("modern");
        expect(client.protocolVersion).toBe("2026-07-28");
        expect(client.server.info).toMatchObject(PEER_SERVER_INFO);
        await assertPeerSurface(peerOf(client));
        await assertPeerErrors(peerOf(client), "modern");
        await assertCancellationReachesServer(peerOf(client), `runtime-v2-${kind}`);
      });
    });
    test(`${kind}: forced 2025-11-25 uses the initialize handshake`, { timeout: 20_000 }, async () => {
      await withClient(target(), { protocolVersion: "2025-11-25" }, async (client) => {
        expect(client.era).toBe("legacy");
        expect(client.protocolVersion).toBe("2025-11-25");
        // v2's HTTP leg serves 2025 traffic statelessly (a fresh server per POST, no session), so it
        // has no channel for a server-to-client request; over stdio the connection is the session.
        await assertPeerSurface(peerOf(client), {
          skipElicitation: kind === "http" ? "v2 serves 2025-era HTTP statelessly" : undefined,
        });
      });
    });
  }
});

describe("runtime client -> slow-starting, 2026-only SDK v2 server (stdio)", () => {
  // The stdio era probe gives up after probeTimeoutMs and tries initialize; a 2026-only server then
  // refuses with -32022 naming 2026-07-28, and the client must take that as the answer.
  test("a probe that times out still ends in 2026-07-28", { timeout: 30_000 }, async () => {
    const target: ConnectTarget = {
      command: process.execPath,
      args: ["--import", "tsx", V2_SERVER, "stdio", "--modern-only", "--delay", "1000"],
      cwd: REPO_ROOT,
    };
    await withClient(target, { probeTimeoutMs: 200 }, async (client) => {
      expect(client.era).toBe("modern");
      expect(client.protocolVersion).toBe("2026-07-28");
      expect((await client.callTool("add", { a: 1, b: 2 })).content).toEqual([{ type: "text", text: "sum=3" }]);
    });
  });
});

describe("runtime client -> @modelcontextprotocol/server-everything (stdio)", () => {
  const samplingPrompts: string[] = [];
  const handlers: ClientHandlers = {
    sampling: (params) => {
      samplingPrompts.push(JSON.stringify(params.messages));
      return { role: "assistant", content: { type: "text", text: "sampled by mcpgen" }, model: "interop-model" };
    },
    elicitation: () => ({ action: "accept", content: { name: "Ada" } }),
    roots: () => ({ roots: [{ uri: "file:///tmp/mcpgen-interop", name: "interop root" }] }),
  };

  test("tools, resources, prompts and server-to-client requests", { timeout: 30_000 }, async () => {
    await withClient({ command: process.execPath, args: [EVERYTHING, "stdio"] }, { handlers }, async (client) => {
      expect(client.server.info?.name).toBe("mcp-servers/everything");
      expect(client.server.capabilities).toMatchObject({ tools: {}, prompts: {}, resources: {} });

      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["echo", "get-sum", "get-structured-content", "get-tiny-image"]));

      expect((await client.callTool("echo", { message: "hi from mcpgen" })).content).toEqual([
        { type: "text", text: "Echo: hi from mcpgen" },
      ]);
      expect((await client.callTool("get-sum", { a: 19, b: 23 })).content).toEqual([
        { type: "text", text: "The sum of 19 and 23 is 42." },
      ]);
      const structured = await client.callTool("get-structured-content", { location: "New York" });
      expect(structured.structuredContent).toMatchObject({ temperature: expect.any(Number) });
      const image = await client.callTool("get-tiny-image", {});
      expect(image.content).toEqual(expect.arrayContaining([expect.objectContaining({ type: "image" })]));

      // Invalid arguments come back as a tool error or a -32602 protocol error, never as success.
      const invalid = await client.callTool("get-sum", { a: "x" }).catch((error: { code?: number }) => error);
      if ("code" in invalid) expect(invalid.code).toBe(-32602);
      else expect((invalid as { isError?: boolean }).isError).toBe(true);

      const { resources } = await client.listResources();
      expect(resources.length).toBeGreaterThan(0);
      const first = resources[0] as { uri: string };
      const read = await client.readResource(first.uri);
      expect(read.contents[0]).toMatchObject({ uri: first.uri });
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toContain("demo://resource/dynamic/text/{resourceId}");
      const dynamic = await client.readResource("demo://resource/dynamic/text/7");
      expect(dynamic.contents[0]).toMatchObject({ uri: "demo://resource/dynamic/text/7", mimeType: "text/plain" });

      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(["simple-prompt", "args-prompt"]));
      const simple = await client.getPrompt("simple-prompt");
      expect(simple.messages[0]?.content).toEqual({ type: "text", text: "This is a simple prompt without arguments." });
      const args = await client.getPrompt("args-prompt", { city: "Paris" });
      expect(JSON.stringify(args.messages)).toContain("Paris");

      // Server-to-client requests over stdio: the server asks our sampling/roots handlers mid-call.
      if (names.includes("trigger-sampling-request")) {
        const sampled = await client.callTool("trigger-sampling-request", { prompt: "Say hi", maxTokens: 20 });
        expect(JSON.stringify(sampled.content)).toContain("sampled by mcpgen");
        expect(samplingPrompts.join()).toContain("Say hi");
      }
      if (names.includes("get-roots-list")) {
        const roots = await client.callTool("get-roots-list", {});
        expect(JSON.stringify(roots.content)).toContain("file:///tmp/mcpgen-interop");
      }
      expect(names).toEqual(expect.arrayContaining(["trigger-sampling-request", "get-roots-list"]));
    });
  });
});
