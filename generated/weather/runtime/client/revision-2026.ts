// Protocol revision 2026-07-28, client side: everything the client does only with stateless servers.
// Every request names the version, the client and its capabilities (and the log level) in `_meta`;
// `server/discover` doubles as the liveness check; over HTTP each message names its method in headers
// (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), there is no session, and closing a request's stream is
// its cancellation (such streams are not resumable).
import { isObject } from "../protocol/codec.ts";
import { MetaKey } from "../protocol/constants.ts";
import type { JsonObject } from "../protocol/types.ts";
import { encodeHeaderValue } from "../transport/http/header-encoding.ts";
import { type ClientRevision, completeByDefault } from "./revision.ts";

const NAMED_METHODS: Record<string, "name" | "uri"> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};

export const revision2026: ClientRevision = {
  era: "modern",
  requestMeta({ protocolVersion, clientInfo, capabilities, logLevel }) {
    const meta: JsonObject = {
      [MetaKey.protocolVersion]: protocolVersion,
      [MetaKey.clientInfo]: clientInfo,
      [MetaKey.clientCapabilities]: capabilities,
    };
    if (logLevel) meta[MetaKey.logLevel] = logLevel;
    return meta;
  },
  pingMethod: "server/discover",
  // No request: the level goes out as `_meta` on every later request (requestMeta).
  announceLogLevel: async () => {},
  sessionExpired: () => false,
  mirrorsParamHeaders: true,
  readResult: completeByDefault,

  requestHeaders: (method, params, extra) => ({ ...standardHeaders(method, params), ...extra }),
  notificationHeaders: (method) => ({ "Mcp-Method": method }),
  httpSession: false,
  resumableStreams: false,
  cancellation: () => undefined,
};

/** `Mcp-Method` and, for named methods, `Mcp-Name` (2026-07-28 request metadata headers). */
export function standardHeaders(method: string, params: JsonObject | undefined): Record<string, string> {
  const headers: Record<string, string> = { "Mcp-Method": method };
  const field = Object.hasOwn(NAMED_METHODS, method) ? NAMED_METHODS[method] : undefined;
  const value = field && isObject(params) ? params[field] : undefined;
  if (typeof value === "string") headers["Mcp-Name"] = encodeHeaderValue(value);
  return headers;
}
