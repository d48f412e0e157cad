/** src/client.ts (CONTRACT §3): `connect()` resolving to the runtime client with callTool and getPrompt typed per name. */
import type { Model } from "../normalize.ts";
import { header } from "./ts.ts";

export function renderClient(model: Model): string {
  return `${header(model.specRef)}import {
  type CallOptions,
  type ClientOptions,
  type ConnectTarget,
  connect as connectUntyped,
  type McpClient,
} from "../runtime/index.ts";
import type { CallToolResult, GetPromptResult } from "../runtime/types.ts";
import type { PromptMap, ToolMap } from "./types.ts";

export type { PromptMap, ToolMap };

/** A tool's result, with structuredContent typed by its outputSchema. */
export type TypedToolResult<N extends keyof ToolMap> = CallToolResult & { structuredContent?: ToolMap[N]["result"] };

/** The runtime client, with tool and prompt names and their arguments checked at compile time. */
export type Client = Omit<McpClient, "callTool" | "getPrompt"> & {
  callTool<N extends keyof ToolMap>(
    name: N,
    args: ToolMap[N]["args"],
    options?: CallOptions,
  ): Promise<TypedToolResult<N>>;
  getPrompt<N extends keyof PromptMap>(name: N, args: PromptMap[N], options?: CallOptions): Promise<GetPromptResult>;
};

/**
 * Connects to a server: \`{ url }\` for Streamable HTTP, \`{ command, args?, env? }\` to spawn one over stdio.
 * Tries the 2026-07-28 protocol first and falls back to initialize (2025 era) when the server is older.
 */
export async function connect(target: ConnectTarget, options: ClientOptions = {}): Promise<Client> {
  return (await connectUntyped(target, options)) as unknown as Client;
}
`;
}
