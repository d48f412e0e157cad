// POST /mcp for 2026-07-28: stateless; `_meta` and `Mcp-*` headers agree with the body; closing the stream cancels.
import type { IncomingMessage } from "node:http";
import { errorResponse, isNotification, isObject, isResponse, resultResponse } from "../../protocol/codec.ts";
import { ErrorCode, MetaKey } from "../../protocol/constants.ts";
import { toJsonRpcError } from "../../protocol/errors.ts";
import type { JsonObject, JsonRpcMessage, JsonRpcRequest } from "../../protocol/types.ts";
import type { McpServer } from "../../server/server.ts";
import { checkHeaderParams, decodeHeaderValue } from "./header-encoding.ts";
import { acceptsSse, header, invalidRequest, isTimeout, NAMED_METHODS, type PostHandler } from "./post-common.ts";
import { PostChannel } from "./request-channel.ts";
import { PostResponder, sendJson } from "./responder.ts";

export const handlePost2026: PostHandler = async (state, req, res, message) => {
  const noResponses = invalidRequest("This protocol version has no client responses");
  if (isResponse(message)) return sendJson(res, 400, errorResponse(undefined, noResponses));
  if (isNotification(message)) return sendJson(res, 202, undefined);
  const request = message as JsonRpcRequest;
  const refuse = (code: number, message: string) => sendJson(res, 400, errorResponse(request.id, { code, message }));
  const malformed = missingMetaField(request);
  if (malformed) return refuse(ErrorCode.InvalidParams, `Invalid params: ${malformed}`);
  const mismatch = headerMismatch(state.server, req, request);
  if (mismatch) return refuse(ErrorCode.HeaderMismatch, `Header mismatch: ${mismatch}`);
  const responder = new PostResponder(res, acceptsSse(req), state.keepAliveMs, NO_HEADERS);
  const channel = new PostChannel(req, responder);
  const cancellation = channel.cancellation;
  res.on("close", () => responder.finished || cancellation.abort(new Error("Client closed the response stream")));
  try {
    const result = await state.server.handleRequest(request, channel);
    responder.finish(resultResponse(request.id, result));
  } catch (error) {
    if (!cancellation.aborted || isTimeout(error)) responder.finish(errorResponse(request.id, toJsonRpcError(error)));
  }
};

/** The required per-request `_meta` fields; a request without them is malformed (HTTP 400, -32602). */
function missingMetaField(request: JsonRpcRequest): string | undefined {
  const meta = request.params?._meta;
  if (!isObject(meta)) return "params._meta is required";
  if (typeof meta[MetaKey.protocolVersion] !== "string") return `_meta["${MetaKey.protocolVersion}"] is required`;
  if (!isObject(meta[MetaKey.clientCapabilities])) return `_meta["${MetaKey.clientCapabilities}"] is required`;
  return undefined;
}

/** The first disagreement of the request's headers with its body, if any. */
function headerMismatch(server: McpServer, req: IncomingMessage, request: JsonRpcRequest): string | undefined {
  const headerVersion = header(req, "mcp-protocol-version");
  const params: JsonObject = request.params ?? {};
  const bodyVersion = isObject(params._meta) ? params._meta[MetaKey.protocolVersion] : undefined;
  if (headerVersion === undefined) return "MCP-Protocol-Version header is missing";
  if (bodyVersion !== headerVersion)
    return `MCP-Protocol-Version header '${headerVersion}' does not match _meta protocolVersion '${String(bodyVersion)}'`;
  const method = header(req, "mcp-method");
  if (method === undefined) return "Mcp-Method header is missing";
  if (method !== request.method) return `Mcp-Method header '${method}' does not match body method '${request.method}'`;
  const nameField = Object.hasOwn(NAMED_METHODS, request.method) ? NAMED_METHODS[request.method] : undefined;
  if (nameField) {
    const raw = header(req, "mcp-name");
    if (raw === undefined) return "Mcp-Name header is missing";
    const name = decodeHeaderValue(raw);
    if (name === undefined) return "Mcp-Name header has an invalid value";
    if (name !== params[nameField])
      return `Mcp-Name header value '${name}' does not match body value '${String(params[nameField])}'`;
  }
  if (request.method === "tools/call" && typeof params.name === "string") {
    const args = isObject(params.arguments) ? params.arguments : {};
    for (const check of server.headerChecksFor(params.name, args)) {
      const problem = checkHeaderParams(check.params, check.args, (name) => header(req, name.toLowerCase()));
      if (problem) return problem;
    }
  }
  return undefined;
}

/** The errors this era answers with an HTTP status other than 200. */
const ERROR_STATUS: Record<number, number> = {
  [ErrorCode.MethodNotFound]: 404,
  [ErrorCode.HeaderMismatch]: 400,
  [ErrorCode.UnsupportedProtocolVersion]: 400,
  [ErrorCode.MissingRequiredClientCapability]: 400,
};
const statusFor = (message: JsonRpcMessage) => ("error" in message && ERROR_STATUS[message.error.code]) || 200;
const NO_HEADERS = { headers: {}, statusFor };
