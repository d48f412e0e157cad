// Protocol revision 2025 (2025-11-25, -06-18, -03-26), server side: initialize-based sessions, real
// server-to-client requests for inputs, none of 2026's result fields.
import { isObject } from "../protocol/codec.ts";
import {
  ErrorCode,
  isLegacyVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LOGGING_LEVELS,
  MetaKey,
} from "../protocol/constants.ts";
import { invalidParams, McpError } from "../protocol/errors.ts";
import type { ClientCapabilities, InputResponse, JsonObject, LoggingLevel, Result } from "../protocol/types.ts";
import { capabilitiesTooLarge, keptClientInfo, MAX_CAPABILITIES_CHARS } from "./client-declaration.ts";
import { checkResourceScopes, resourceScopes } from "./features.ts";
import { sharedMethods } from "./methods.ts";
import type { MethodCall, Revision } from "./scope.ts";
import { MAX_SUBSCRIPTION_CHARS, MAX_SUBSCRIPTIONS } from "./session.ts";

export const revision2025: Revision = {
  era: "legacy",
  methods: {
    ...sharedMethods,
    initialize: { run: initialize },
    ping: { run: async () => ({}) },
    "logging/setLevel": { run: setLogLevel },
    "resources/subscribe": { run: (call) => toggleSubscription(call, true) },
    "resources/unsubscribe": { run: (call) => toggleSubscription(call, false) },
  },

  scope(request, _meta, channel) {
    const session = channel.session;
    if (request.method === "initialize" || request.method === "ping")
      return { revision: revision2025, protocolVersion: session?.protocolVersion ?? "", clientCapabilities: {} };
    if (!session?.protocolVersion)
      throw invalidParams(
        `Missing _meta["${MetaKey.protocolVersion}"]: send per-request metadata (2026-07-28) or initialize first`,
      );
    return {
      revision: revision2025,
      protocolVersion: session.protocolVersion,
      clientCapabilities: session.clientCapabilities,
      clientInfo: session.clientInfo,
    };
  },

  answers: () => ({}),
  async requestInputs(requests, { channel, abort }) {
    if (!channel.request)
      throw new McpError(ErrorCode.InternalError, "This transport cannot send requests to the client");
    const entries = await Promise.all(
      Object.entries(requests).map(async ([key, request]) => {
        const params = request.params as JsonObject | undefined;
        return [key, (await channel.request?.(request.method, params, abort.signal)) as InputResponse] as const;
      }),
    );
    return Object.fromEntries(entries);
  },
  // The session's level; everything until the client sets one.
  logThreshold: (_meta, channel) => channel.session?.logLevel ?? "debug",
  sessionId: (channel) => channel.session?.id,
  // The 2026 fields a handler may have set do not exist in 2025; a result without them goes out as it is (no copy).
  shapeResult: (result) =>
    "resultType" in result || "ttlMs" in result || "cacheScope" in result ? only2025(result) : result,
};

const only2025 = ({ resultType, ttlMs, cacheScope, ...result }: Result) => result;

async function initialize({ server, params, channel }: MethodCall): Promise<Result> {
  const session = channel.session;
  if (!session) throw new McpError(ErrorCode.InvalidRequest, "initialize is not available on this channel");
  if (typeof params.protocolVersion !== "string") throw invalidParams("initialize: protocolVersion must be a string");
  if (params.capabilities !== undefined && !isObject(params.capabilities))
    throw invalidParams("initialize: capabilities must be an object");
  // The session keeps them as long as it lives: bounded, or refused whole (cutting would change them).
  if (capabilitiesTooLarge(params.capabilities))
    throw invalidParams(`initialize: capabilities exceed ${MAX_CAPABILITIES_CHARS} characters as JSON`);
  // Echo a version we speak; otherwise offer our latest initialize-era version and let the client decide.
  session.protocolVersion = isLegacyVersion(params.protocolVersion)
    ? params.protocolVersion
    : LATEST_LEGACY_PROTOCOL_VERSION;
  session.clientCapabilities = (params.capabilities ?? {}) as ClientCapabilities;
  session.clientInfo = keptClientInfo(params.clientInfo);
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

async function toggleSubscription({ server, params, channel, ctx }: MethodCall, subscribe: boolean): Promise<Result> {
  if (typeof params.uri !== "string") throw invalidParams("uri must be a string");
  // Updates of a resource tell that it changed: only for a caller who may read it.
  if (subscribe) checkResourceScopes(server, resourceScopes(server, params.uri), params.uri, ctx.auth);
  const session = channel.session;
  if (!subscribe) session?.unsubscribe(params.uri);
  else if (session && !session.subscribe(params.uri))
    throw invalidParams(
      `Too many subscriptions: a session holds at most ${MAX_SUBSCRIPTIONS} (URIs up to ${MAX_SUBSCRIPTION_CHARS} characters in all); unsubscribe first`,
    );
  return {};
}
