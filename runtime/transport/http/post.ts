// POST /mcp: one JSON-RPC message per request, its revision read from the request (headers and `_meta`).
import type { IncomingMessage } from "node:http";
import { errorResponse, isObject, isRequest } from "../../protocol/codec.ts";
import { ErrorCode, isModernVersion, MetaKey } from "../../protocol/constants.ts";
import type { JsonRpcMessage } from "../../protocol/types.ts";
import { resourceScopes } from "../../server/features.ts";
import { missingResourceScopes, missingScopes } from "../../server/scope-filter.ts";
import type { HttpState } from "./http-state.ts";
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
  const scopeRejection = state.resource && scopeCheck(state, req, message);
  if (scopeRejection) {
    const { status, message: text, headers } = scopeRejection;
    return sendJson(res, status, errorResponse(id, invalidRequest(text)), headers);
  }
  return (modern ? handlePost2026 : handlePost2025)(state, req, res, message);
};

/** A tools/call lacking the scopes of a tool it runs (toolsOfCall): 403 insufficient_scope, so the client steps up. */
function scopeCheck(state: HttpState, req: IncomingMessage, message: JsonRpcMessage) {
  if (!isRequest(message)) return undefined;
  if (message.method === "resources/read" || message.method === "resources/subscribe")
    return resourceScopeCheck(state, req, message.params?.uri);
  if (message.method !== "tools/call") return undefined;
  const gate = state.server.options.toolGate;
  const name = message.params?.name;
  if (!gate || typeof name !== "string") return undefined;
  const args = isObject(message.params?.arguments) ? message.params.arguments : {};
  const auth = requestAuth(req);
  const tool = state.server.toolsOfCall(name, args).find((one) => missingScopes(gate, one, auth).length > 0);
  if (tool === undefined) return undefined;
  return state.resource?.insufficientScope(gate.required(tool) ?? [], `the tool '${tool}'`);
}

/** A resources/read (or subscribe) of a resource or template whose scopes the token lacks: the same 403. */
function resourceScopeCheck(state: HttpState, req: IncomingMessage, uri: unknown) {
  const auth = requestAuth(req);
  if (typeof uri !== "string" || !auth) return undefined;
  state.server.settle(); // a generated server registers its resources on first need
  const required = resourceScopes(state.server, uri);
  if (missingResourceScopes(required, auth).length === 0) return undefined;
  // The URI is the client's text and goes into a header: printable ASCII only, cut.
  const shown = uri.slice(0, 200).replace(/[^\x20-\x7E]/g, "?");
  return state.resource?.insufficientScope(required ?? [], `the resource '${shown}'`);
}
