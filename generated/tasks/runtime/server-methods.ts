// The method table of the server: which methods exist in which era, and the
// lifecycle/list/subscription methods. Feature calls live in server-features.ts.
import { isObject, notification } from "./codec.ts";
import {
  ErrorCode,
  isLegacyVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LOGGING_LEVELS,
  MetaKey,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./constants.ts";
import { invalidParams, McpError } from "./errors.ts";
import type { LazyAbort } from "./lazy-abort.ts";
import type { MrtrBinding } from "./mrtr.ts";
import { paginate } from "./pagination.ts";
import type { McpServer } from "./server.ts";
import { notificationForFilter } from "./server-changes.ts";
import { callTool, complete, getPrompt, readResource } from "./server-features.ts";
import { MAX_SUBSCRIPTION_CHARS, MAX_SUBSCRIPTIONS } from "./server-session.ts";
import type { Era, HandlerContext, RequestChannel } from "./server-types.ts";
import type {
  ClientCapabilities,
  Implementation,
  InputResponse,
  JsonObject,
  LoggingLevel,
  Result,
  SubscriptionFilter,
} from "./types.ts";

export type RequestScope = {
  era: Era;
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
};

export type MethodCall = {
  server: McpServer;
  params: JsonObject;
  scope: RequestScope;
  channel: RequestChannel;
  ctx: HandlerContext;
  /** The run's cancellation: `abort.aborted` without making `ctx.signal`. */
  abort: LazyAbort;
  binding: MrtrBinding;
  answers: Record<string, InputResponse>;
};

type MethodSpec = {
  eras: Era[];
  /** May answer with an MRTR `input_required` result (2026 era). */
  mrtr?: boolean;
  /** Runs until cancelled, so no handler deadline applies. */
  unbounded?: boolean;
  run: (call: MethodCall) => Promise<Result>;
};

const BOTH: Era[] = ["modern", "legacy"];
const DEFAULT_PAGE_SIZE = 100;
// Wire fields per schema.ts (both eras; `execution` is 2025-11-25's tasks hint).
const DESCRIPTIVE = ["name", "title", "description", "icons", "_meta"] as const;
const TOOL_FIELDS = [...DESCRIPTIVE, "inputSchema", "outputSchema", "annotations", "execution"];
const RESOURCE_FIELDS = ["uri", ...DESCRIPTIVE, "mimeType", "annotations", "size"];
const TEMPLATE_FIELDS = ["uriTemplate", ...DESCRIPTIVE, "mimeType", "annotations"];
const PROMPT_FIELDS = [...DESCRIPTIVE, "arguments"];

export const serverMethods: Record<string, MethodSpec> = {
  initialize: { eras: ["legacy"], run: initialize },
  ping: { eras: ["legacy"], run: async () => ({}) },
  "logging/setLevel": { eras: ["legacy"], run: setLogLevel },
  "resources/subscribe": { eras: ["legacy"], run: (call) => toggleSubscription(call, true) },
  "resources/unsubscribe": { eras: ["legacy"], run: (call) => toggleSubscription(call, false) },
  "server/discover": { eras: ["modern"], run: discover },
  "subscriptions/listen": { eras: ["modern"], unbounded: true, run: listen },
  "tools/list": {
    eras: BOTH,
    run: (call) =>
      listPage(
        call,
        "tools",
        [...call.server.tools.values()].map((tool) => pick(tool, TOOL_FIELDS)),
      ),
  },
  "tools/call": { eras: BOTH, mrtr: true, run: callTool },
  "resources/list": {
    eras: BOTH,
    run: (call) =>
      listPage(
        call,
        "resources",
        [...call.server.resources.values()].map((resource) => pick(resource, RESOURCE_FIELDS)),
      ),
  },
  "resources/templates/list": {
    eras: BOTH,
    run: (call) =>
      listPage(
        call,
        "resourceTemplates",
        [...call.server.templates.values()].map((entry) => pick(entry.definition, TEMPLATE_FIELDS)),
      ),
  },
  "resources/read": { eras: BOTH, mrtr: true, run: readResource },
  "prompts/list": {
    eras: BOTH,
    run: (call) =>
      listPage(
        call,
        "prompts",
        [...call.server.prompts.values()].map((prompt) => pick(prompt, PROMPT_FIELDS)),
      ),
  },
  "prompts/get": { eras: BOTH, mrtr: true, run: getPrompt },
  "completion/complete": { eras: BOTH, run: complete },
};

async function initialize({ server, params, channel }: MethodCall): Promise<Result> {
  const session = channel.session;
  if (!session) throw new McpError(ErrorCode.InvalidRequest, "initialize is not available on this channel");
  if (typeof params.protocolVersion !== "string") throw invalidParams("initialize: protocolVersion must be a string");
  if (params.capabilities !== undefined && !isObject(params.capabilities)) {
    throw invalidParams("initialize: capabilities must be an object");
  }
  // Echo a version we speak; otherwise offer our latest initialize-era version and let the client decide.
  session.protocolVersion = isLegacyVersion(params.protocolVersion)
    ? params.protocolVersion
    : LATEST_LEGACY_PROTOCOL_VERSION;
  session.clientCapabilities = (params.capabilities ?? {}) as ClientCapabilities;
  session.clientInfo = isObject(params.clientInfo) ? (params.clientInfo as Implementation) : undefined;
  const result: Result = {
    protocolVersion: session.protocolVersion,
    capabilities: server.capabilities(),
    serverInfo: server.info,
  };
  if (server.options.instructions) result.instructions = server.options.instructions;
  return result;
}

async function setLogLevel({ params, channel }: MethodCall): Promise<Result> {
  if (!LOGGING_LEVELS.includes(params.level as LoggingLevel)) throw invalidParams(`Unknown log level: ${params.level}`);
  if (channel.session) channel.session.logLevel = params.level as LoggingLevel;
  return {};
}

async function toggleSubscription({ params, channel }: MethodCall, subscribe: boolean): Promise<Result> {
  if (typeof params.uri !== "string") throw invalidParams("uri must be a string");
  const session = channel.session;
  if (!subscribe) session?.unsubscribe(params.uri);
  else if (session && !session.subscribe(params.uri)) {
    throw invalidParams(
      `Too many subscriptions: a session holds at most ${MAX_SUBSCRIPTIONS} (URIs up to ${MAX_SUBSCRIPTION_CHARS} characters in all); unsubscribe first`,
    );
  }
  return {};
}

async function discover({ server }: MethodCall): Promise<Result> {
  const result: Result = { supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS], capabilities: server.capabilities() };
  if (server.options.instructions) result.instructions = server.options.instructions;
  return result;
}

/** `subscriptions/listen`: acknowledge, then forward opted-in changes until cancelled or the server closes. */
async function listen({ server, params, channel, ctx }: MethodCall): Promise<Result> {
  const requested = params.notifications;
  if (!isObject(requested)) throw invalidParams("subscriptions/listen: notifications must be an object");
  const filter: SubscriptionFilter = {};
  for (const key of ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const) {
    if (requested[key] === true) filter[key] = true;
  }
  if (Array.isArray(requested.resourceSubscriptions)) {
    filter.resourceSubscriptions = requested.resourceSubscriptions.filter((uri) => typeof uri === "string");
  }
  const tag = { [MetaKey.subscriptionId]: ctx.requestId };
  channel.notify(notification("notifications/subscriptions/acknowledged", { _meta: tag, notifications: filter }));
  const stopListening = server.changes.subscribe((change) => {
    const message = notificationForFilter(change, filter);
    if (message && !ctx.signal.aborted) channel.notify({ ...message, params: { ...message.params, _meta: tag } });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const stopOnClose = server.onClose(resolve);
      ctx.signal.addEventListener(
        "abort",
        () => {
          stopOnClose();
          reject(ctx.signal.reason);
        },
        { once: true },
      );
    });
  } finally {
    stopListening();
  }
  return { _meta: tag };
}

async function listPage(call: MethodCall, key: string, items: unknown[]): Promise<Result> {
  const pageSize = call.server.options.pageSize ?? DEFAULT_PAGE_SIZE;
  const page = paginate(items, call.params.cursor, pageSize, call.server.sealer, key);
  const result: Result = { [key]: page.items };
  if (page.nextCursor) result.nextCursor = page.nextCursor;
  return result;
}

/** Copies only the wire fields of a definition: handlers, validators and any extras the caller attached stay home. */
function pick(definition: object, fields: readonly string[]): Record<string, unknown> {
  const source = definition as Record<string, unknown>;
  return Object.fromEntries(
    fields.filter((field) => source[field] !== undefined).map((field) => [field, source[field]]),
  );
}
