/**
 * src/client.ts (docs/getting-started.md#what-the-package-holds): `connect()` resolving to the runtime client typed by ToolMap and PromptMap,
 * holding each tool's result to its outputSchema with the package's precompiled validators. With the oauth
 * feature it also takes `{ url, auth }` (the feature's client, runtime/features/oauth/client/); without it,
 * the file imports nothing of OAuth, so the package carries no login code and no jose.
 */

import type { Model } from "../normalize/normalize.ts";
import { header, lit } from "./ts.ts";
import { objectKey } from "./ts-style.ts";
import { chunkOfTool } from "./validators.ts";

export function renderClient(model: Model): string {
  const features = model.features;
  const oauth = oauthParts(features.some((feature) => feature.name === "oauth"));
  const tasks = tasksParts(features.some((feature) => feature.name === "tasks"));
  const otel = otelParts(features.some((feature) => feature.name === "otel"));
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
  const defaults = [...(outputs.length > 0 ? ["outputValidators"] : []), ...tasks.options];
  return `${header(model.specRef)}${oauth.imports}import {
  type ClientOptions,
  type ConnectTarget,
  connect as connectRuntime,
  type McpClient,
  type ToolCallResult,
} from "../runtime/client/client.ts";${outputs.length > 0 ? '\nimport type { OutputValidators } from "../runtime/client/tool-output.ts";' : ""}${tasks.imports}${otel.imports}
import type { PromptMap, ToolMap } from "./types.ts";${outputs.length > 0 ? '\nimport { validator } from "./validators.ts";' : ""}
${oauth.exports}${tasks.exports}${otel.exports}
export type { PromptMap, ToolMap };

/** A tool's result, with structuredContent typed by its outputSchema. */
export type TypedToolResult<N extends keyof ToolMap> = ToolCallResult<ToolMap, N>;

/** The runtime client, with tool and prompt names and their arguments checked at compile time. */
export type Client = McpClient<ToolMap, PromptMap>;
${validators}
/**
 * Connects to a server: \`{ url }\` for Streamable HTTP${oauth.urlNote},
 * \`{ command, args?, env? }\` to spawn one over stdio.
 * Tries the 2026-07-28 protocol first and falls back to initialize (2025 era) when the server is older.
 * A tool result whose structuredContent breaks its outputSchema rejects with a ToolOutputError.${tasks.connectNote}${otel.connectNote}
 */
export ${oauth.async}function connect(target: ${oauth.target}, options: ClientOptions = {}): Promise<Client> {
  return connectRuntime<ToolMap, PromptMap>(${oauth.connected}, ${defaults.length > 0 ? `{ ${defaults.join(", ")}, ...options }` : "options"})${otel.wrap};
}
`;
}

const OAUTH_CLIENT = "../runtime/features/oauth/client/index.ts";
const TASK_CLIENT = "../runtime/features/tasks/task-client.ts";
const OTEL_CLIENT = "../runtime/features/otel/client.ts";

/** What src/client.ts adds with the otel feature: each request in a span whose context goes in `_meta`. */
function otelParts(enabled: boolean) {
  if (!enabled) return { imports: "", exports: "", wrap: "", connectNote: "" };
  return {
    imports: `\nimport { traced } from "${OTEL_CLIENT}";`,
    exports: `
/** OpenTelemetry for a client without its own SDK: \`await startTracing({ serviceName })\` (see docs/tracing.md). */
export { startTracing, type Tracing } from "${OTEL_CLIENT}";`,
    wrap: ".then((client) =>\n    traced(client, target),\n  )",
    connectNote: `
 * Each request is sent inside an OpenTelemetry CLIENT span whose context goes to the server in \`_meta\`
 * (\`traceparent\`), once an SDK is set up (the application's, or \`startTracing()\`).`,
  };
}

/** What src/client.ts adds with the tasks feature: a tool call that became a task is awaited to its result. */
function tasksParts(enabled: boolean) {
  if (!enabled) return { imports: "", exports: "", options: [], connectNote: "" };
  return {
    imports: `\nimport { clientTasks } from "${TASK_CLIENT}";`,
    exports: `
/** A long-running tool's task as a handle (\`startToolTask\`), and the view \`onTask\` gets of each state. */
export { isHandle, startToolTask, type TaskHandle, type TaskView } from "${TASK_CLIENT}";`,
    options: ["tasks: clientTasks"],
    connectNote: `
 * A tool call the server answers with a task (a long-running operation) is awaited to its result: pass
 * \`onTask\` to see each state, \`signal\` to cancel it.`,
  };
}

/** What src/client.ts adds with the oauth feature: the import, the re-exports, and the target type. */
function oauthParts(enabled: boolean) {
  if (!enabled)
    return { imports: "", exports: "", target: "ConnectTarget", connected: "target", async: "", urlNote: "" };
  return {
    imports: `import { type OAuthTarget, withOAuth } from "${OAUTH_CLIENT}";\n`,
    exports: `
/** OAuth for a protected server: \`connect({ url, auth })\`; see "Connecting to a protected server" in README.md. */
export {
  type AuthOptions,
  type AuthorizationCallback,
  memoryTokenStore,
  OAuthError,
  startLoopbackRedirect,
  type TokenStore,
} from "${OAUTH_CLIENT}";`,
    target: "ConnectTarget | OAuthTarget",
    connected: "withOAuth(target)",
    // async: a bad URL in withOAuth rejects the promise, as any other connect failure does.
    async: "async ",
    urlNote: " (`{ url, auth }` when it is OAuth-protected)",
  };
}
