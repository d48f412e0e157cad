// POST /mcp: one JSON-RPC message per request. The protocol revision is read from the
// request itself: 2026-07-28 requests carry their version (header and `_meta`) and are
// served statelessly (post-2026.ts); everything else belongs to an initialize-based
// session identified by `Mcp-Session-Id` (post-2025.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorResponse, isObject, isRequest } from "../../protocol/codec.ts";
import { ErrorCode, isModernVersion, MetaKey } from "../../protocol/constants.ts";
import type { JsonRpcMessage } from "../../protocol/types.ts";
import { handlePost2025 } from "./post-2025.ts";
import { handlePost2026 } from "./post-2026.ts";
import { header, invalidRequest, type PostContext, repeatedMcpHeader } from "./post-common.ts";
import { noteRequest } from "./request-record.ts";
import { sendJson } from "./responder.ts";
import { requestAuth } from "./security.ts";

export async function handlePost(
  context: PostContext,
  req: IncomingMessage,
  res: ServerResponse,
  message: JsonRpcMessage,
) {
  const headerVersion = header(req, "mcp-protocol-version");
  const meta = isRequest(message) && isObject(message.params?._meta) ? message.params._meta : undefined;
  const modern = isModernVersion(headerVersion) || meta?.[MetaKey.protocolVersion] !== undefined;
  noteRequest(req, message, modern ? "2026" : "2025");
  const repeated = repeatedMcpHeader(req);
  if (repeated) {
    // Joined as "a, b", a repeated header could match a body value that contains ", "; never guess.
    const id = isRequest(message) ? message.id : undefined;
    const text = `${repeated} header sent more than once`;
    const error = modern
      ? { code: ErrorCode.HeaderMismatch, message: `Header mismatch: ${text}` }
      : invalidRequest(`Invalid Request: ${text}`);
    return sendJson(res, 400, errorResponse(id, error));
  }
  const scopeRejection = context.resource?.refuse(context.server, message, requestAuth(req));
  if (scopeRejection) {
    const id = isRequest(message) ? message.id : undefined;
    const error = invalidRequest(scopeRejection.message);
    return sendJson(res, scopeRejection.status, errorResponse(id, error), scopeRejection.headers);
  }
  if (modern) return handlePost2026(context, req, res, message, headerVersion);
  return handlePost2025(context, req, res, message, headerVersion);
}
