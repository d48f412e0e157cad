// POST /mcp for the 2026-07-28 revision: stateless. Every request carries its version and client in
// `_meta`, mirrored in `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` headers that
// must agree with the body; some errors set the HTTP status; closing the response stream cancels.
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorResponse, isNotification, isObject, isResponse, resultResponse } from "../../protocol/codec.ts";
import { ErrorCode, MetaKey } from "../../protocol/constants.ts";
import { toJsonRpcError } from "../../protocol/errors.ts";
import type { JsonObject, JsonRpcMessage, JsonRpcRequest } from "../../protocol/types.ts";
import type { McpServer } from "../../server/server.ts";
import { checkHeaderParams, decodeHeaderValue } from "./header-encoding.ts";
import {
  acceptsSse,
  authOf,
  header,
  invalidRequest,
  isTimeout,
  NAMED_METHODS,
  type PostContext,
} from "./post-common.ts";
import { PostResponder, sendJson } from "./responder.ts";
import { principalOf } from "./security.ts";

export async function handlePost2026(
  context: PostContext,
  req: IncomingMessage,
  res: ServerResponse,
  message: JsonRpcMessage,
  headerVersion: string | undefined,
) {
  if (isResponse(message)) {
    return sendJson(
      res,
      400,
      errorResponse(undefined, invalidRequest("This protocol version has no client responses")),
    );
  }
  if (isNotification(message)) return sendJson(res, 202, undefined);
  const request = message as JsonRpcRequest;
  const malformed = missingMetaField(request);
  if (malformed) {
    const error = { code: ErrorCode.InvalidParams, message: `Invalid params: ${malformed}` };
    return sendJson(res, 400, errorResponse(request.id, error));
  }
  const mismatch = headerMismatch(context.server, req, request, headerVersion);
  if (mismatch) {
    const error = { code: ErrorCode.HeaderMismatch, message: `Header mismatch: ${mismatch}` };
    return sendJson(res, 400, errorResponse(request.id, error));
  }
  const controller = new AbortController();
  const responder = new PostResponder(res, {
    acceptsSse: acceptsSse(req),
    headers: {},
    keepAliveMs: context.keepAliveMs,
    statusFor: statusFor2026,
  });
  // In this era closing the response stream is the cancellation signal.
  res.on("close", () => {
    if (!responder.finished) controller.abort(new Error("Client closed the response stream"));
  });
  try {
    const result = await context.server.handleRequest(request, {
      signal: controller.signal,
      notify: (notification) => responder.send(notification),
      principal: principalOf(req),
      ...authOf(req),
    });
    responder.finish(resultResponse(request.id, result));
  } catch (error) {
    if (!controller.signal.aborted || isTimeout(error))
      responder.finish(errorResponse(request.id, toJsonRpcError(error)));
  }
}

/** The required per-request `_meta` fields of 2026-07-28; a request without them is malformed (HTTP 400, -32602). */
function missingMetaField(request: JsonRpcRequest): string | undefined {
  const meta = request.params?._meta;
  if (!isObject(meta)) return "params._meta is required";
  if (typeof meta[MetaKey.protocolVersion] !== "string") return `_meta["${MetaKey.protocolVersion}"] is required`;
  if (!isObject(meta[MetaKey.clientCapabilities])) return `_meta["${MetaKey.clientCapabilities}"] is required`;
  return undefined;
}

/** Checks the 2026 request metadata headers against the body; returns a description of the first problem. */
function headerMismatch(
  server: McpServer,
  req: IncomingMessage,
  request: JsonRpcRequest,
  headerVersion: string | undefined,
): string | undefined {
  const params: JsonObject = request.params ?? {};
  const bodyVersion = isObject(params._meta) ? params._meta[MetaKey.protocolVersion] : undefined;
  if (headerVersion === undefined) return "MCP-Protocol-Version header is missing";
  if (bodyVersion !== headerVersion) {
    return `MCP-Protocol-Version header '${headerVersion}' does not match _meta protocolVersion '${String(bodyVersion)}'`;
  }
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

function statusFor2026(message: JsonRpcMessage): number {
  if (!("error" in message)) return 200;
  switch (message.error.code) {
    case ErrorCode.MethodNotFound:
      return 404;
    case ErrorCode.HeaderMismatch:
    case ErrorCode.UnsupportedProtocolVersion:
    case ErrorCode.MissingRequiredClientCapability:
      return 400;
    default:
      return 200;
  }
}
