// Connects the official SDK clients to a server program and wraps them in the PeerClient facade.
// v1 (@modelcontextprotocol/sdk) speaks the 2025 era; v2 (@modelcontextprotocol/client) is pinned to
// 2026-07-28 through its versionNegotiation option, so it fails loudly instead of falling back.
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from "@modelcontextprotocol/client";
import { StdioClientTransport as V2Stdio } from "@modelcontextprotocol/client/stdio";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1Stdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as V1Http } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { REPO_ROOT } from "../conformance/harness.ts";
import type { PeerClient } from "./peer-assertions.ts";
import { ELICITED_NAME } from "./peer-fixture.ts";

export type Endpoint = { kind: "stdio"; file: string; args?: string[] } | { kind: "http"; url: string };

export type ConnectedClient = {
  peer: PeerClient;
  serverInfo: { name: string; version: string } | undefined;
  protocolVersion: string | undefined;
  close: () => Promise<void>;
};

type Obj = Record<string, unknown>;

// Both SDK generations expose the same method names, so one adapter covers them.
type CallOptions = {
  onprogress?: (progress: { progress: number; total?: number }) => void;
  signal?: AbortSignal;
};
type SdkLike = {
  listTools(): Promise<unknown>;
  listResources(): Promise<unknown>;
  listResourceTemplates(): Promise<unknown>;
  readResource(params: { uri: string }): Promise<unknown>;
  listPrompts(): Promise<unknown>;
  getPrompt(params: { name: string; arguments: Record<string, string> }): Promise<unknown>;
};

// v1 takes (params, resultSchema, options) and v2 takes (params, options); both accept onprogress.
type CallTool = (name: string, args: Obj, options?: CallOptions) => Promise<unknown>;

function facade(client: SdkLike, callTool: CallTool): PeerClient {
  return {
    listTools: async () => (await client.listTools()) as { tools: Obj[] },
    callTool: async (name, args, onProgress, signal) =>
      (await callTool(name, args, {
        ...(onProgress ? { onprogress: ({ progress, total }) => onProgress(progress, total) } : {}),
        ...(signal ? { signal } : {}),
      })) as Obj,
    listResources: async () => (await client.listResources()) as { resources: Obj[] },
    listResourceTemplates: async () => (await client.listResourceTemplates()) as { resourceTemplates: Obj[] },
    readResource: async (uri) => (await client.readResource({ uri })) as { contents: Obj[] },
    listPrompts: async () => (await client.listPrompts()) as { prompts: Obj[] },
    getPrompt: async (name, args) => (await client.getPrompt({ name, arguments: args })) as { messages: Obj[] },
  };
}

const stdioArgs = (endpoint: { file: string; args?: string[] }) => [
  "--import",
  "tsx",
  endpoint.file,
  ...(endpoint.args ?? []),
];

export async function connectSdkV1(endpoint: Endpoint): Promise<ConnectedClient> {
  const client = new V1Client({ name: "sdk-v1-interop", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: ELICITED_NAME } }));
  const transport =
    endpoint.kind === "stdio"
      ? new V1Stdio({ command: process.execPath, args: stdioArgs(endpoint), cwd: REPO_ROOT, stderr: "pipe" })
      : new V1Http(new URL(endpoint.url));
  await client.connect(transport);
  return {
    peer: facade(client as unknown as SdkLike, (name, args, options) =>
      client.callTool({ name, arguments: args }, undefined, options),
    ),
    serverInfo: client.getServerVersion(),
    protocolVersion: endpoint.kind === "http" ? (transport as V1Http).protocolVersion : undefined,
    close: () => client.close(),
  };
}

export async function connectSdkV2(endpoint: Endpoint): Promise<ConnectedClient> {
  const client = new V2Client(
    { name: "sdk-v2-interop", version: "1.0.0" },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  // In the 2026 era the v2 client fulfils MRTR input requests through this same handler.
  client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: ELICITED_NAME } }));
  const transport =
    endpoint.kind === "stdio"
      ? new V2Stdio({ command: process.execPath, args: stdioArgs(endpoint), cwd: REPO_ROOT, stderr: "pipe" })
      : new V2Http(new URL(endpoint.url));
  await client.connect(transport);
  return {
    peer: facade(client as unknown as SdkLike, (name, args, options) =>
      client.callTool({ name, arguments: args }, options),
    ),
    serverInfo: client.getServerVersion(),
    protocolVersion: client.getNegotiatedProtocolVersion(),
    close: () => client.close(),
  };
}
