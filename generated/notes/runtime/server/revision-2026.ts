// Protocol revision 2026-07-28, server side: per-request `_meta`, server/discover, subscriptions/listen,
// MRTR inputs, and results with `resultType`, cache hints and serverInfo.
import { isObject, notification } from "../protocol/codec.ts";
import { ErrorCode, isModernVersion, MetaKey, SUPPORTED_PROTOCOL_VERSIONS } from "../protocol/constants.ts";
import { invalidParams, McpError } from "../protocol/errors.ts";
import type { ClientCapabilities, Implementation, Result, SubscriptionFilter } from "../protocol/types.ts";
import { resourceScopes } from "./features.ts";
import { sharedMethods } from "./methods.ts";
import { collectAnswers, InputRequiredSignal } from "./mrtr.ts";
import type { MethodCall, Revision } from "./scope.ts";
import { notificationForFilter } from "./session.ts";

const CACHEABLE_METHODS = new Set([
  "server/discover",
  "tools/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "prompts/list",
]);

export const revision2026: Revision = {
  era: "modern",
  methods: {
    ...sharedMethods,
    "server/discover": { run: discover },
    "subscriptions/listen": { unbounded: true, run: listen },
  },

  scope(_request, meta) {
    const version = meta[MetaKey.protocolVersion];
    if (!isModernVersion(version)) {
      throw new McpError(ErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", {
        supported: [...SUPPORTED_PROTOCOL_VERSIONS],
        requested: String(version),
      });
    }
    // A 2026 request without its required per-request fields is malformed (-32602, basic/index "_meta").
    const capabilities = meta[MetaKey.clientCapabilities];
    if (!isObject(capabilities)) throw invalidParams(`_meta["${MetaKey.clientCapabilities}"] must be an object`);
    const clientInfo = meta[MetaKey.clientInfo];
    return {
      revision: revision2026,
      protocolVersion: version as string,
      clientCapabilities: capabilities as ClientCapabilities,
      clientInfo: isObject(clientInfo) ? (clientInfo as Implementation) : undefined,
    };
  },

  answers: collectAnswers,
  // An input not answered in an earlier round ends this run; the server answers `input_required`.
  async requestInputs(requests, { answers }) {
    const missing = Object.entries(requests).filter(([key]) => !Object.hasOwn(answers, key));
    if (missing.length > 0) throw new InputRequiredSignal(Object.fromEntries(missing));
    return Object.fromEntries(Object.keys(requests).map((key) => [key, answers[key]]));
  },
  // Only when the request opted in via `_meta`.
  logThreshold: (meta) => meta[MetaKey.logLevel],
  sessionId: () => undefined,
  shapeResult(result, method, server) {
    const shaped: Result = { ...result };
    shaped.resultType ??= "complete";
    if (CACHEABLE_METHODS.has(method) && shaped.resultType === "complete") {
      shaped.ttlMs ??= server.options.cache?.ttlMs ?? 0;
      shaped.cacheScope ??= server.options.cache?.cacheScope ?? "private";
    }
    shaped._meta = { ...shaped._meta, [MetaKey.serverInfo]: server.info };
    return shaped;
  },
};

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
  for (const key of ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const)
    if (requested[key] === true) filter[key] = true;
  if (Array.isArray(requested.resourceSubscriptions)) {
    // Only resources the caller may read: the acknowledgement then shows which subscriptions were taken.
    filter.resourceSubscriptions = requested.resourceSubscriptions.filter(
      (uri) =>
        typeof uri === "string" &&
        !server.options.toolGate?.resourceRefusal(resourceScopes(server, uri), uri, ctx.auth),
    );
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
      const onAbort = () => {
        stopOnClose();
        reject(ctx.signal.reason);
      };
      ctx.signal.addEventListener("abort", onAbort, { once: true });
    });
  } finally {
    stopListening();
  }
  return { _meta: tag };
}
