// mcpgen runtime: a small MCP (Model Context Protocol) implementation that every
// generated package carries verbatim. It speaks both protocol eras: 2026-07-28
// (stateless, per-request `_meta`, `server/discover`, MRTR) and the
// initialize-based 2025-11-25 / 2025-06-18 / 2025-03-26.
//
// Folders by role, bottom up:
//   protocol/         codec.ts (JSON-RPC 2.0 framing, no batches), types.ts (wire types),
//                     constants.ts, errors.ts, peer.ts (a JSON-RPC peer over any message channel:
//                     id correlation, timeouts, cancellation both ways),
//                     uri-template*.ts (one RFC 6570 grammar, linear matching).
//   server/           server.ts (registry + handleRequest: revision per request, deadlines);
//                     revision.ts picks revision-2025.ts or revision-2026.ts (everything that differs
//                     per protocol revision: methods, scope, inputs, errors, result shaping);
//                     scope.ts (a request in flight), methods.ts (methods both revisions share),
//                     features.ts (tools/resources/prompts/completion), context.ts (handler ctx),
//                     server.ts + deadlines.ts (cancellation and deadlines),
//                     session.ts (2025 sessions, change events), mrtr.ts,
//                     methods.ts + sealed-token.ts (cursors and request state).
//   client/           client.ts (McpClient, connect), negotiation.ts (era probe), revision.ts,
//                     tool-output.ts (structuredContent checked against outputSchema), transport.ts
//                     (the transport seam, sampling/elicitation/roots answers, and the seam a login
//                     plugs into; OAuth's is features/oauth/client/, imported only with that feature).
//   transport/stdio/  server.ts / client.ts over line-channel.ts (newline-delimited JSON).
//   transport/http/   server.ts + post.ts (post-2025.ts sessions, post-2026.ts stateless header
//                     rules) + session*.ts + responder.ts + security.ts + sse*.ts (Streamable HTTP on
//                     node:http) / client.ts; header-encoding.ts (Mcp-* headers, x-mcp-header).
//   upstream/, package/  the generator's data-driven layer on top: package/spec-server.ts and
//                     spec-main.ts run a generated package; upstream/forward.ts calls its REST API.
//
// The server core never imports ajv: generated code passes precompiled standalone
// validators; hand-written servers and clients may pass `compileSchema` from
// protocol/compile-schema.ts, which is deliberately not re-exported here.

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
export type { ServerDescription } from "./client/negotiation.ts";
export type { OutputValidators } from "./client/tool-output.ts";
export { ToolOutputError } from "./client/tool-output.ts";
export type { ClientHandlers } from "./client/transport.ts";
export { AuthorizationError, type Authorizer, TransportError } from "./client/transport.ts";
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
export type { HttpTarget } from "./transport/http/client.ts";
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
