// One assertion set for "a client talking to a server that exposes the peer fixture", used with
// every client/server pairing. Clients are wrapped in this small facade so the SDK clients and the
// runtime client are held to exactly the same expectations.
import { expect } from "vitest";
import {
  addText,
  askText,
  countText,
  ELICITED_NAME,
  FAIL_MESSAGE,
  GREET_PROMPT,
  greetText,
  ITEM_TEMPLATE,
  itemText,
  PEER_TOOLS,
  STATIC_RESOURCE,
} from "./peer-fixture.ts";

type Obj = Record<string, unknown>;

export type PeerClient = {
  listTools(): Promise<{ tools: Obj[] }>;
  callTool(
    name: string,
    args: Obj,
    onProgress?: (progress: number, total?: number) => void,
    signal?: AbortSignal,
  ): Promise<Obj>;
  listResources(): Promise<{ resources: Obj[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: Obj[] }>;
  readResource(uri: string): Promise<{ contents: Obj[] }>;
  listPrompts(): Promise<{ prompts: Obj[] }>;
  getPrompt(name: string, args: Record<string, string>): Promise<{ messages: Obj[] }>;
};

/** Runs `fn` and returns the error it threw (failing the test if it did not throw). */
export async function rejection(fn: () => Promise<unknown>): Promise<{ code?: number; message: string }> {
  try {
    await fn();
  } catch (error) {
    return error as { code?: number; message: string };
  }
  throw new Error("expected the call to fail");
}

export type SurfaceOptions = {
  /**
   * SDK v1's client dispatches notifications a microtask late but settles responses at once, so a
   * progress notification read in the same chunk as the response is dropped. Its callers may see
   * only a prefix of the progress sequence; everyone else must see all of it.
   */
  progressMayLoseTail?: boolean;
  /** Skip the "ask" elicitation round trip, for servers that cannot reach the client at all. */
  skipElicitation?: string;
};

export async function assertPeerSurface(client: PeerClient, options: SurfaceOptions = {}): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(
    Object.values(PEER_TOOLS)
      .map((t) => t.name)
      .sort(),
  );
  const add = tools.find((t) => t.name === PEER_TOOLS.add.name) as Obj;
  expect(add.description).toBe(PEER_TOOLS.add.description);
  expect(add.inputSchema).toMatchObject({
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
  });

  const sum = await client.callTool(PEER_TOOLS.add.name, { a: 2, b: 40 });
  expect(sum.content).toEqual([{ type: "text", text: addText(2, 40) }]);
  expect(sum.isError ?? false).toBe(false);

  const echoed = await client.callTool(PEER_TOOLS.echo.name, { text: "ünïcødé ✓" });
  expect(echoed.content).toEqual([{ type: "text", text: "ünïcødé ✓" }]);

  // A tool-level failure is a result with isError, not a protocol error.
  const failed = await client.callTool(PEER_TOOLS.fail.name, {});
  expect(failed.isError).toBe(true);
  expect(failed.content).toEqual([{ type: "text", text: FAIL_MESSAGE }]);

  // Progress notifications travel from the server's handler to the caller while the call runs.
  const progress: [number, number | undefined][] = [];
  const counted = await client.callTool(PEER_TOOLS.count.name, { steps: 3 }, (value, total) => {
    progress.push([value, total]);
  });
  expect(counted.content).toEqual([{ type: "text", text: countText(3) }]);
  const allProgress = [
    [1, 3],
    [2, 3],
    [3, 3],
  ];
  if (options.progressMayLoseTail) {
    // Each step is followed by a 25 ms pause, so only a starved client event loop loses any; under
    // heavy CI load that can be all of them, which is still the SDK's race, not the server's.
    expect(progress).toEqual(allProgress.slice(0, progress.length));
  } else {
    expect(progress).toEqual(allProgress);
  }

  // A server-to-client input request answered by the client's elicitation handler mid-call.
  if (!options.skipElicitation) {
    const asked = await client.callTool(PEER_TOOLS.ask.name, {});
    expect(asked.content).toEqual([{ type: "text", text: askText(ELICITED_NAME) }]);
  }

  const { resources } = await client.listResources();
  expect(resources).toEqual([expect.objectContaining({ uri: STATIC_RESOURCE.uri, name: STATIC_RESOURCE.name })]);
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates).toEqual([
    expect.objectContaining({ uriTemplate: ITEM_TEMPLATE.uriTemplate, name: ITEM_TEMPLATE.name }),
  ]);

  const read = await client.readResource(STATIC_RESOURCE.uri);
  expect(read.contents).toEqual([
    expect.objectContaining({
      uri: STATIC_RESOURCE.uri,
      mimeType: STATIC_RESOURCE.mimeType,
      text: STATIC_RESOURCE.text,
    }),
  ]);
  const item = await client.readResource("interop://items/42");
  expect(item.contents).toEqual([
    expect.objectContaining({ uri: "interop://items/42", mimeType: ITEM_TEMPLATE.mimeType, text: itemText("42") }),
  ]);

  const { prompts } = await client.listPrompts();
  expect(prompts).toEqual([
    expect.objectContaining({
      name: GREET_PROMPT.name,
      description: GREET_PROMPT.description,
      arguments: [expect.objectContaining({ name: GREET_PROMPT.argument, required: true })],
    }),
  ]);
  const prompt = await client.getPrompt(GREET_PROMPT.name, { name: "Ada" });
  expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: greetText("Ada") } }]);
}

/** Protocol errors: unknown tool and unknown resource must be JSON-RPC errors with the spec's codes. */
export async function assertPeerErrors(client: PeerClient, era: "legacy" | "modern"): Promise<void> {
  if (era === "modern") {
    const unknownTool = await rejection(() => client.callTool("no_such_tool", {}));
    expect(unknownTool.code).toBe(-32602);
  } else {
    // 2025: SDK v1 reports an unknown tool as an isError result, others as -32602; both are conformant.
    const outcome = await client.callTool("no_such_tool", {}).catch((error: { code?: number }) => error);
    if ("code" in outcome && outcome.code !== undefined) expect(outcome.code).toBe(-32602);
    else expect((outcome as { isError?: boolean }).isError).toBe(true);
  }
  const unknownResource = await rejection(() => client.readResource("interop://missing"));
  // 2025 servers commonly use -32002 (resource not found); 2026-07-28 (SEP-2164) requires -32602.
  expect(era === "modern" ? [-32602] : [-32602, -32002]).toContain(unknownResource.code);
}

/**
 * Aborting a call on the client must reach the server's handler: as notifications/cancelled (2025,
 * and stdio in 2026) or by the closed response stream (2026 over HTTP). The server records what
 * happened to the call under `key`, which a second call reads back.
 */
export async function assertCancellationReachesServer(client: PeerClient, key: string): Promise<void> {
  const controller = new AbortController();
  const call = client.callTool(PEER_TOOLS.slow.name, { key }, undefined, controller.signal);
  const status = async () =>
    ((await client.callTool(PEER_TOOLS.slowStatus.name, { key })).content as { text: string }[])[0]?.text;
  const deadline = Date.now() + 10_000;
  while ((await status()) !== "running") {
    if (Date.now() > deadline) throw new Error("the slow call never started");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  controller.abort();
  await expect(call).rejects.toBeDefined();
  let outcome = await status();
  while (outcome === "running" && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    outcome = await status();
  }
  expect(outcome).toBe("cancelled");
}
