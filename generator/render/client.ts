/**
 * src/client.ts (CONTRACT §3): `connect()` resolving to the runtime client typed by ToolMap and PromptMap,
 * holding each tool's result to its outputSchema with the package's precompiled validators.
 */
import type { Model } from "../normalize/normalize.ts";
import { header, lit } from "./ts.ts";
import { objectKey } from "./ts-style.ts";
import { chunkOfTool } from "./validators.ts";

export function renderClient(model: Model): string {
  const outputs = model.tools.flatMap((tool, index) =>
    tool.validateOutput
      ? [`    ${objectKey(tool.node.name)}: validator(${chunkOfTool(index)}, ${lit(tool.validateOutput)}),`]
      : [],
  );
  const validators =
    outputs.length === 0
      ? ""
      : `
/** Precompiled structuredContent validators by tool name; each loads its chunk of compiled code on its first call. */
function outputValidators(): OutputValidators {
  return {
${outputs.join("\n")}
  };
}
`;
  return `${header(model.specRef)}import {
  type ClientOptions,
  type ConnectTarget,
  connect as connectRuntime,
  type McpClient,${outputs.length > 0 ? "\n  type OutputValidators," : ""}
  type ToolCallResult,
} from "../runtime/index.ts";
import type { PromptMap, ToolMap } from "./types.ts";${outputs.length > 0 ? '\nimport { validator } from "./validators.ts";' : ""}

/** OAuth for a protected server: \`connect({ url, auth })\`; see "Connecting to a protected server" in README.md. */
export {
  type AuthOptions,
  type AuthorizationCallback,
  memoryTokenStore,
  OAuthError,
  startLoopbackRedirect,
  type TokenStore,
} from "../runtime/index.ts";
export type { PromptMap, ToolMap };

/** A tool's result, with structuredContent typed by its outputSchema. */
export type TypedToolResult<N extends keyof ToolMap> = ToolCallResult<ToolMap, N>;

/** The runtime client, with tool and prompt names and their arguments checked at compile time. */
export type Client = McpClient<ToolMap, PromptMap>;
${validators}
/**
 * Connects to a server: \`{ url }\` for Streamable HTTP (\`{ url, auth }\` when it is OAuth-protected),
 * \`{ command, args?, env? }\` to spawn one over stdio.
 * Tries the 2026-07-28 protocol first and falls back to initialize (2025 era) when the server is older.
 * A tool result whose structuredContent breaks its outputSchema rejects with a ToolOutputError.
 */
export function connect(target: ConnectTarget, options: ClientOptions = {}): Promise<Client> {
  return connectRuntime<ToolMap, PromptMap>(target, ${outputs.length > 0 ? "{ outputValidators, ...options }" : "options"});
}
`;
}
