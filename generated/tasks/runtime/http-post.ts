// POST /mcp: one JSON-RPC message per request. The era is read from the
// request itself: 2026-07-28 requests carry their version (header and `_meta`)
// and are served statelessly after header validation; everything else belongs
// to an initialize-based session identified by `Mcp-Session-Id`.
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorResponse, isNotification, isObject, isRequest, isResponse, resultResponse } from "./codec.ts";
import { ErrorCode, isModernVersion, MetaKey, SUPPORTED_PROTOCOL_VERSIONS } from "./constants.ts";
import { McpError, toJsonRpcError } from "./errors.ts";
import { checkHeaderParams, decodeHeaderValue } from "./header-encoding.ts";
import { PostResponder, sendJson } from "./http-responder.ts";
import { principalOf } from "./http-security.ts";
import { HttpSession } from "./http-session.ts";
import type { SessionStore } from "./http-session-store.ts";
import { acceptsMediaType } from "./media-type.ts";
import type { McpServer } from "./server.ts";
import type { JsonObject, JsonRpcMessage, JsonRpcRequest } from "./types.ts";

export type PostContext = {
  server: McpServer;
  sessions: SessionStore;
  keepAliveMs: number;
  /** The SSE `retry` delay announced on resumable (2025-era) streams. */
  retryMs: number;
};

const NAMED_METHODS: Record<string, "name" | "uri"> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};

export async function handlePost(
  context: PostContext,
  req: IncomingMessage,
  res: ServerResponse,
  message: JsonRpcMessage,
) {
  const headerVersion = header(req, "mcp-protocol-version");
  const meta = isRequest(message) && isObject(message.params?._meta) ? message.params._meta : undefined;
  const modern = isModernVersion(headerVersion) || meta?.[MetaKey.protocolVersion] !== undefined;
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
  if (modern) return handleModern(context, req, res, message, headerVersion);
  return handleLegacy(context, req, res, message, headerVersion);
}

async function handleModern(
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
    statusFor: modernStatus,
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
    });
    responder.finish(resultResponse(request.id, result));
  } catch (error) {
    if (!controller.signal.aborted || isTimeout(error))
      responder.finish(errorResponse(request.id, toJsonRpcError(error)));
  }
}

async function handleLegacy(
  context: PostContext,
  req: IncomingMessage,
  res: ServerResponse,
  message: JsonRpcMessage,
  headerVersion: string | undefined,
) {
  if (headerVersion !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(headerVersion)) {
    const error = invalidRequest(`Unsupported MCP-Protocol-Version: ${headerVersion}`, {
      supported: [...SUPPORTED_PROTOCOL_VERSIONS],
      requested: headerVersion,
    });
    return sendJson(res, 400, errorResponse(undefined, error));
  }
  const initializing = isRequest(message) && message.method === "initialize";
  const sessionId = header(req, "mcp-session-id");
  let session: HttpSession | undefined;
  if (initializing) {
    if (!context.sessions.reserve()) {
      const error = {
        code: ErrorCode.InternalError,
        message: `Too many sessions: all ${context.sessions.maxSessions} sessions are busy; retry later`,
      };
      return sendJson(res, 503, errorResponse(message.id, error), { "Retry-After": "5" });
    }
    session = new HttpSession(context.server);
  } else {
    if (!sessionId) {
      const error = invalidRequest("Missing Mcp-Session-Id header (send initialize first, or use 2026-07-28)");
      return sendJson(res, 400, errorResponse(isRequest(message) ? message.id : undefined, error));
    }
    session = context.sessions.use(sessionId);
    if (!session) {
      const error = { code: ErrorCode.InvalidRequest, message: "Session not found" };
      return sendJson(res, 404, errorResponse(isRequest(message) ? message.id : undefined, error));
    }
  }
  if (isResponse(message)) {
    session.peer.receive(message);
    return sendJson(res, 202, undefined);
  }
  const principal = principalOf(req);
  if (isNotification(message)) {
    if (message.method === "notifications/cancelled") {
      const requestId = message.params?.requestId;
      if (typeof requestId === "string" || typeof requestId === "number") {
        session.inFlight.get(requestId)?.abort(new Error("Cancelled by the client"));
        // The id is free at once, as on stdio: a handler that ignores its signal must not keep it taken.
        session.inFlight.delete(requestId);
      }
    }
    context.server.handleNotification(message, {
      signal: new AbortController().signal,
      notify: () => {},
      session: session.state,
      principal,
    });
    return sendJson(res, 202, undefined);
  }
  const request = message as JsonRpcRequest;
  if (session.inFlight.has(request.id)) {
    // An id MUST NOT be reused within a session (basic/index); taking the second would leave the first
    // out of reach of notifications/cancelled.
    const error = invalidRequest(
      `Invalid Request: id ${JSON.stringify(request.id).slice(0, 100)} is already in use by a request in progress`,
    );
    return sendJson(res, 400, errorResponse(request.id, error));
  }
  const activeSession = session;
  const sessionHeaders: Record<string, string> = { "Mcp-Session-Id": session.id };
  const responder = new PostResponder(res, {
    acceptsSse: acceptsSse(req),
    headers: sessionHeaders,
    keepAliveMs: context.keepAliveMs,
    statusFor: () => 200,
    openResumable: () => activeSession.openResumable(context.retryMs),
  });
  const controller = new AbortController();
  session.inFlight.set(request.id, controller);
  try {
    const result = await context.server.handleRequest(request, {
      signal: controller.signal,
      session: session.state,
      principal,
      notify: (notification) => responder.send(notification),
      // Server-to-client requests go out on this POST's stream, so the client sees them in context.
      request: (method, params, signal) =>
        activeSession.peer.request(method, params, {
          signal,
          // Without SSE on this POST, the session's GET stream (the peer's default channel) is the only way out.
          send: responder.canStream ? (outgoing) => responder.send(outgoing) : undefined,
        }),
    });
    if (initializing) context.sessions.add(activeSession);
    responder.finish(resultResponse(request.id, result));
  } catch (error) {
    if (initializing) {
      context.sessions.release();
      activeSession.close();
    }
    // A 2025-era cancellation (notifications/cancelled) gets no response; the stream just ends.
    if (controller.signal.aborted && !isTimeout(error)) responder.abandon();
    else responder.finish(errorResponse(request.id, toJsonRpcError(error)));
  } finally {
    if (activeSession.inFlight.get(request.id) === controller) activeSession.inFlight.delete(request.id);
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
    const headerParams = server.headerParamsFor(params.name);
    const args = isObject(params.arguments) ? params.arguments : {};
    if (headerParams) return checkHeaderParams(headerParams, args, (name) => header(req, name.toLowerCase()));
  }
  return undefined;
}

function modernStatus(message: JsonRpcMessage): number {
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

function isTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout;
}

function invalidRequest(message: string, data?: unknown) {
  return data === undefined
    ? { code: ErrorCode.InvalidRequest, message }
    : { code: ErrorCode.InvalidRequest, message, data };
}

export function acceptsSse(req: IncomingMessage): boolean {
  return acceptsMediaType(req.headers.accept, "text/event-stream");
}

/** The name of an `Mcp-*` header that arrived on more than one line, if any. */
export function repeatedMcpHeader(req: IncomingMessage): string | undefined {
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    if (name.startsWith("mcp-") && values !== undefined && values.length > 1) return name;
  }
  return undefined;
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}
