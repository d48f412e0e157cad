// What a generated package's handler files need, from one module: the context a handler receives, the
// result types it returns, and the errors it answers with. Scaffolded handlers import from here only.
export type { SpecContext, ToolResult } from "./package/spec-server.ts";
export { notImplemented, notImplementedError } from "./package/spec-server.ts";
export { ErrorCode } from "./protocol/constants.ts";
export { McpError, notFound, ResourceNotFoundError } from "./protocol/errors.ts";
export type { ContentBlock, GetPromptResult, InputRequest, PromptMessage, ResourceContents } from "./protocol/types.ts";
export type { AuthPrincipal } from "./server/auth-principal.ts";
export type { ResourceReadResult } from "./server/types.ts";
export { CredentialsError, type UpstreamCredentials } from "./upstream/credentials.ts";
