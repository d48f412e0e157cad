// All a generated package's handler files import: their context, result types and errors.
export type { SpecContext, ToolResult } from "./package/spec-server.ts";
export { notImplemented, notImplementedError } from "./package/spec-server.ts";
export { ErrorCode } from "./protocol/constants.ts";
export { McpError, notFound, ResourceNotFoundError } from "./protocol/errors.ts";
export type { ContentBlock, GetPromptResult, InputRequest, PromptMessage, ResourceContents } from "./protocol/types.ts";
export type { AuthPrincipal } from "./server/auth-principal.ts";
export type { ResourceReadResult, TaskControl } from "./server/types.ts";
export { CredentialsError, type UpstreamCredentials } from "./upstream/credentials.ts";
