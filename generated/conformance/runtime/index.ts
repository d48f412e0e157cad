// mcpgen runtime: a small MCP (Model Context Protocol) implementation that every
// generated package carries verbatim. It speaks both protocol eras: 2026-07-28
// (stateless, per-request `_meta`, `server/discover`, MRTR) and the
// initialize-based 2025-11-25 / 2025-06-18 / 2025-03-26.
//
// Layers, bottom up:
//   codec        codec.ts, types.ts, constants.ts, errors.ts
//                JSON-RPC 2.0 framing and validation (no batches), wire types, error codes.
//   protocol     peer.ts: a JSON-RPC peer over any message channel (id correlation,
//                timeouts, cancellation in both directions); lazy-abort.ts (cancellation
//                whose AbortSignal is made only when read).
//                Helpers: header-encoding.ts (Mcp-* headers, x-mcp-header), sealed-token.ts
//                (HMAC tokens), pagination.ts, uri-template.ts, mrtr.ts (MRTR state),
//                sse.ts (writer/parser), sse-replay.ts (2025 resumable streams),
//                line-channel.ts (newline-delimited JSON framing).
//   server       server.ts (registry + handleRequest: revision per request, deadlines),
//                revision.ts picks revision-2025.ts or revision-2026.ts (everything that
//                differs per protocol revision: methods, scope, inputs, errors, result
//                shaping), server-scope.ts (the types of a request in flight),
//                request-run.ts + deadlines.ts (a request's cancellation and handler
//                deadline, one timer per timeout length), server-methods.ts (methods both
//                revisions share), server-features.ts (tools/resources/prompts/completion),
//                server-context.ts (handler ctx),
//                server-session.ts / server-changes.ts (2025 sessions, change events).
//   client       client.ts (McpClient, connect), client-negotiation.ts (era probe),
//                client-handlers.ts (sampling/elicitation/roots answers), client-transport.ts,
//                client-tool-output.ts (structuredContent checked against outputSchema).
//   transports   stdio-server.ts / stdio-client-transport.ts (newline-delimited JSON),
//                http-server.ts + http-post.ts (http-post-2025.ts sessions, http-post-2026.ts
//                stateless header rules) + http-session.ts + http-responder.ts +
//                http-security.ts (Streamable HTTP on node:http) / http-client-transport.ts.
//
// The server core never imports ajv: generated code passes precompiled standalone
// validators; hand-written servers and clients may pass `compileSchema` from
// compile-schema.ts, which is deliberately not re-exported here.
// spec-server.ts / spec-main.ts / upstream.ts are the generator's data-driven layer on top.

export type {
  AnyPrompts,
  AnyTools,
  CallOptions,
  ClientOptions,
  ConnectTarget,
  PromptGetArgs,
  PromptTypes,
  Subscription,
  ToolCallArgs,
  ToolCallResult,
  ToolTypes,
} from "./client/client.ts";
export { connect, McpClient } from "./client/client.ts";
export type { ClientHandlers } from "./client/handlers.ts";
export type { ServerDescription } from "./client/negotiation.ts";
export type { OutputValidators } from "./client/tool-output.ts";
export { ToolOutputError } from "./client/tool-output.ts";
export { TransportError } from "./client/transport.ts";
export {
  decodeMessage,
  encodeMessage,
  errorResponse,
  notification,
  request,
  resultResponse,
} from "./protocol/codec.ts";
export {
  ErrorCode,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MetaKey,
  MODERN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./protocol/constants.ts";
export { McpError, notFound, ResourceNotFoundError } from "./protocol/errors.ts";
export { JsonRpcPeer } from "./protocol/peer.ts";
export type * from "./protocol/types.ts";
export { createServer, McpServer } from "./server/server.ts";
export type {
  CompleteFunction,
  CompletionContext,
  Era,
  HandlerContext,
  PromptDefinition,
  Registration,
  ResourceDefinition,
  ResourceReadResult,
  ResourceTemplateDefinition,
  ServerOptions,
  ToolDefinition,
  ToolHandlerResult,
} from "./server/types.ts";
export type { HeaderParam } from "./transport/http/header-encoding.ts";
export {
  collectHeaderParams,
  decodeHeaderValue,
  encodeHeaderValue,
  headerParamValues,
} from "./transport/http/header-encoding.ts";
export type { HttpServerHandle, HttpServerOptions } from "./transport/http/server.ts";
export { serveHttp } from "./transport/http/server.ts";
export type { StdioServerHandle, StdioServerOptions } from "./transport/stdio/server.ts";
export { serveStdio } from "./transport/stdio/server.ts";
