// Protocol versions, error codes and reserved `_meta` keys shared by server and client.

export const MODERN_PROTOCOL_VERSIONS = ["2026-07-28"] as const;
export const LEGACY_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  ...MODERN_PROTOCOL_VERSIONS,
  ...LEGACY_PROTOCOL_VERSIONS,
];
export const LATEST_PROTOCOL_VERSION = MODERN_PROTOCOL_VERSIONS[0];
export const LATEST_LEGACY_PROTOCOL_VERSION = LEGACY_PROTOCOL_VERSIONS[0];

export function isModernVersion(version: unknown): boolean {
  return typeof version === "string" && (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

export function isLegacyVersion(version: unknown): version is string {
  return typeof version === "string" && (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Implementation-defined range (-32000..-32019): a request or handler ran out of time. */
  RequestTimeout: -32001,
  /** 2025-era "resource not found"; the 2026 era uses InvalidParams instead. */
  LegacyResourceNotFound: -32002,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;

/** Error codes whose presence proves the peer speaks the 2026 era (used by the client's era probe). */
export const MODERN_ERROR_CODES: readonly number[] = [
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
];

export const MetaKey = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

export const LOGGING_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;
