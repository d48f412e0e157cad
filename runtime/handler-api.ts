// What a generated package's handler files need, from one module: the context a handler receives, the
// result types it returns, and the errors it answers with. Scaffolded handlers import from here only.

export { ErrorCode } from "./constants.ts";
export { McpError, notFound, ResourceNotFoundError } from "./errors.ts";
export type { ResourceReadResult } from "./server-types.ts";
export type { SpecContext, ToolResult } from "./spec-server.ts";
export { notImplemented, notImplementedError } from "./spec-server.ts";
export type {
  ContentBlock,
  GetPromptResult,
  InputRequest,
  PromptMessage,
  ResourceContents,
} from "./types.ts";
