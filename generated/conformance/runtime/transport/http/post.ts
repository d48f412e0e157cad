import { errorResponse, isObject, isRequest } from "../../protocol/codec.ts";
import { ErrorCode, isModernVersion, MetaKey } from "../../protocol/constants.ts";
import { handlePost2025 } from "./post-2025.ts";
import { handlePost2026 } from "./post-2026.ts";
import { header, invalidRequest, type PostHandler, repeatedMcpHeader } from "./post-common.ts";
import { noteRequest } from "./request-record.ts";
import { sendJson } from "./responder.ts";
import { requestAuth } from "./security.ts";

export const handlePost: PostHandler = async (state, req, res, message) => {
  const headerVersion = header(req, "mcp-protocol-version");
  const meta = isRequest(message) && isObject(message.params?._meta) ? message.params._meta : undefined;
  const modern = isModernVersion(headerVersion) || meta?.[MetaKey.protocolVersion] !== undefined;
  noteRequest(req, message, modern ? "2026" : "2025");
  const repeated = repeatedMcpHeader(req);
  const id = isRequest(message) ? message.id : undefined;
  if (repeated) {
    // Joined as "a, b", a repeated header could match a body value that contains ", "; never guess.
    const text = `${repeated} header sent more than once`;
    const error = modern
      ? { code: ErrorCode.HeaderMismatch, message: `Header mismatch: ${text}` }
      : invalidRequest(`Invalid Request: ${text}`);
    return sendJson(res, 400, errorResponse(id, error));
  }
  const scopeRejection = state.resource?.refuse(state.server, message, requestAuth(req));
  if (scopeRejection) {
    const { status, message: text, headers } = scopeRejection;
    return sendJson(res, status, errorResponse(id, invalidRequest(text)), headers);
  }
  if (modern) return handlePost2026(state, req, res, message);
  const { trace } = state.sessions; // --otel with --session-store: the request's span around its session lookups
  if (trace && isRequest(message))
    return trace(message, header(req, "traceparent"), () => handlePost2025(state, req, res, message));
  return handlePost2025(state, req, res, message);
};
