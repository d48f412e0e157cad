// Era detection (2026-07-28 backward-compatibility rules): probe with `server/discover`; a result or a
// modern error means a 2026 server; anything else (other errors, HTTP 4xx, silence) falls back to `initialize`.
import { isObject } from "../protocol/codec.ts";
import {
  ErrorCode,
  isLegacyVersion,
  isModernVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MetaKey,
  MODERN_ERROR_CODES,
} from "../protocol/constants.ts";
import { McpError } from "../protocol/errors.ts";
import type { Implementation, Result, ServerCapabilities } from "../protocol/types.ts";
import { type ClientIdentity, revision2025, revision2026 } from "./revision.ts";
import { AuthorizationError, type ClientTransport, TransportError } from "./transport.ts";

export type ServerDescription = {
  info?: Implementation;
  capabilities: ServerCapabilities;
  instructions?: string;
  supportedVersions: string[];
};

type NegotiationInput = Pick<ClientIdentity, "clientInfo" | "capabilities"> & {
  protocolVersion?: string;
  probeTimeoutMs?: number;
};

/** The revision is chosen here, once: revision2026 after server/discover, revision2025 after initialize. */
export async function negotiateEra(transport: ClientTransport, input: NegotiationInput) {
  const forced = input.protocolVersion;
  if (forced !== undefined && !isModernVersion(forced)) {
    if (!isLegacyVersion(forced)) throw new Error(`Unsupported protocol version: ${forced}`);
    return initialize(transport, input, forced);
  }
  try {
    return await discover(transport, input, forced ?? LATEST_PROTOCOL_VERSION);
  } catch (error) {
    // A failed login says nothing about the era: retrying with initialize would only log in again.
    if (isAuthFailure(error)) throw error;
    if (!(error instanceof McpError) || !MODERN_ERROR_CODES.includes(error.code))
      return fallBackToInitialize(transport, input);
    // A modern server that does not speak our version: retry once with a modern version it lists (even
    // the same one: the rejection may have been transient), never fall back blindly.
    const supported = supportedVersionsOf(error);
    const modern = supported.find(isModernVersion);
    if (modern) return discover(transport, input, modern);
    const legacy = LEGACY_PROTOCOL_VERSIONS.find((candidate) => supported.includes(candidate));
    if (legacy) return initialize(transport, input, legacy);
    throw error;
  }
}

const isAuthFailure = (error: unknown) =>
  error instanceof AuthorizationError || (error instanceof TransportError && [401, 403].includes(error.status ?? 0));

// The probe said "2025 server" only by failing or (stdio) by silence. A slow-starting 2026-only server
// may then refuse `initialize` with -32022 naming modern versions: definitive evidence, so discover again.
async function fallBackToInitialize(transport: ClientTransport, input: NegotiationInput) {
  try {
    return await initialize(transport, input, LATEST_LEGACY_PROTOCOL_VERSION);
  } catch (error) {
    const modern = supportedVersionsOf(error).find(isModernVersion);
    if (typeof modern !== "string") throw error;
    return discover(transport, input, modern);
  }
}

async function discover(transport: ClientTransport, input: NegotiationInput, version: string) {
  transport.setProtocol(revision2026, version);
  const meta = revision2026.requestMeta({ ...input, protocolVersion: version });
  const result = await transport.request("server/discover", { _meta: meta }, { timeoutMs: input.probeTimeoutMs });
  if (!Array.isArray(result.supportedVersions) || !isObject(result.capabilities))
    throw new Error("server/discover returned a malformed result");
  const server = describe(result, result._meta?.[MetaKey.serverInfo], result.supportedVersions);
  if (server.supportedVersions.includes(version)) return { revision: revision2026, protocolVersion: version, server };
  const legacy = LEGACY_PROTOCOL_VERSIONS.find((candidate) => server.supportedVersions.includes(candidate));
  if (legacy) return initialize(transport, input, legacy);
  throw new Error(`No common protocol version (server supports ${server.supportedVersions.join(", ")})`);
}

async function initialize(transport: ClientTransport, input: NegotiationInput, version: string) {
  transport.setProtocol(revision2025, "");
  const { capabilities, clientInfo } = input;
  const result = await transport.request("initialize", { protocolVersion: version, capabilities, clientInfo });
  const negotiated = result.protocolVersion;
  if (!isLegacyVersion(negotiated))
    throw new Error(`The server answered initialize with unsupported protocol version ${String(negotiated)}`);
  transport.setProtocol(revision2025, negotiated);
  await transport.notify("notifications/initialized");
  const server = describe(result, result.serverInfo, [negotiated]);
  return { revision: revision2025, protocolVersion: negotiated, server };
}

function describe(result: Result, info: unknown, supportedVersions: string[]): ServerDescription {
  return {
    info: isObject(info) ? (info as Implementation) : undefined,
    capabilities: (isObject(result.capabilities) ? result.capabilities : {}) as ServerCapabilities,
    instructions: typeof result.instructions === "string" ? result.instructions : undefined,
    supportedVersions,
  };
}

/** The versions a -32022 error lists (unchecked: callers pick only their own); none for any other error. */
function supportedVersionsOf(error: unknown): string[] {
  if (!(error instanceof McpError) || error.code !== ErrorCode.UnsupportedProtocolVersion) return [];
  return isObject(error.data) && Array.isArray(error.data.supported) ? error.data.supported : [];
}
