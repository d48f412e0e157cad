// POST /mcp for the 2025 revision: a session per `Mcp-Session-Id`, client answers and cancels, resumable streams.
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorResponse, isNotification, isRequest, isResponse, resultResponse } from "../../protocol/codec.ts";
import { ErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from "../../protocol/constants.ts";
import { toJsonRpcError } from "../../protocol/errors.ts";
import type { JsonRpcRequest, RequestId } from "../../protocol/types.ts";
import type { HttpState } from "./http-state.ts";
import {
  acceptsSse,
  header,
  invalidRequest,
  isTimeout,
  type PostHandler,
  routingHeaderMismatch,
} from "./post-common.ts";
import { PostChannel } from "./request-channel.ts";
import { PostResponder, sendJson } from "./responder.ts";
import { principalOf, requestAuth } from "./security.ts";
import type { HttpSession } from "./session.ts";
import { SessionStoreUnavailableError, sendStoreUnavailable } from "./session-store.ts";

const NO_SESSION_ID = "Missing Mcp-Session-Id header (send initialize first, or use 2026-07-28)";

export const handlePost2025: PostHandler = async (state, req, res, message) => {
  const requested = header(req, "mcp-protocol-version");
  if (requested !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(requested)) {
    const data = { supported: [...SUPPORTED_PROTOCOL_VERSIONS], requested };
    const error = invalidRequest(`Unsupported MCP-Protocol-Version: ${requested}`, data);
    return sendJson(res, 400, errorResponse(undefined, error));
  }
  const id = isRequest(message) ? message.id : undefined;
  const mismatch = isRequest(message) && routingHeaderMismatch(req, message.method, message.params ?? {});
  if (mismatch) return sendJson(res, 400, errorResponse(id, invalidRequest(`Invalid Request: ${mismatch}`)));
  const initializing = isRequest(message) && message.method === "initialize";
  let session: HttpSession | undefined;
  try {
    session = initializing ? await openSession(state, req, res, id) : await findSession(state, req, res, id);
  } catch (error) {
    if (error instanceof SessionStoreUnavailableError) return sendStoreUnavailable(res, id, error);
    throw error;
  }
  if (!session) return; // answered
  if (isResponse(message)) {
    // With a shared store, the request this answers may have been sent by another process.
    if (!session.peer.awaits(message.id) && session.remote) session.remote.response(session.id, message);
    else session.peer.receive(message);
    return sendJson(res, 202, undefined);
  }
  if (isNotification(message)) {
    const requestId = message.method === "notifications/cancelled" ? message.params?.requestId : undefined;
    if (typeof requestId === "string" || typeof requestId === "number") {
      const running = session.inFlight.get(requestId);
      if (running) running.abort(new Error("Cancelled by the client"));
      else session.remote?.cancel(session.id, requestId);
      // The id is free at once, as on stdio: a handler that ignores its signal must not keep it taken.
      session.inFlight.delete(requestId);
    }
    state.server.handleNotification(message, new PostChannel(req, undefined, session));
    await state.sessions.save?.(session);
    return sendJson(res, 202, undefined);
  }
  const request = message as JsonRpcRequest;
  if (session.inFlight.has(request.id)) {
    // An id MUST NOT be reused within a session (basic/index): the first would be out of reach of a cancel.
    const shown = JSON.stringify(request.id).slice(0, 100);
    const error = invalidRequest(`Invalid Request: id ${shown} is already in use by a request in progress`);
    return sendJson(res, 400, errorResponse(request.id, error));
  }
  await runRequest(state, req, res, session, request, initializing);
};

/** initialize: a new session, reserved in the table (or the store) before it runs; undefined when answered. */
async function openSession(state: HttpState, req: IncomingMessage, res: ServerResponse, id?: RequestId) {
  const session = state.sessions.create(state.server);
  if (!(await state.sessions.reserve(session))) {
    const message = `Too many sessions: all ${state.sessions.maxSessions} sessions are busy; retry later`;
    const error = errorResponse(id, { code: ErrorCode.InternalError, message });
    return void sendJson(res, 503, error, { "Retry-After": "5" });
  }
  if (requestAuth(req)) session.owner = principalOf(req);
  return session;
}

/** Any other message: the session its `Mcp-Session-Id` names, owned by this caller; undefined when answered. */
async function findSession(state: HttpState, req: IncomingMessage, res: ServerResponse, id?: RequestId) {
  const sessionId = header(req, "mcp-session-id");
  if (!sessionId) return void sendJson(res, 400, errorResponse(id, invalidRequest(NO_SESSION_ID)));
  const session = await state.sessions.use(sessionId, principalOf(req));
  if (!session) return void sendJson(res, 404, errorResponse(id, invalidRequest("Session not found")));
  return session;
}

/** A request of the session: answered as JSON or on an SSE stream that server-to-client requests share. */
async function runRequest(
  state: HttpState,
  req: IncomingMessage,
  res: ServerResponse,
  session: HttpSession,
  request: JsonRpcRequest,
  initializing: boolean,
): Promise<void> {
  const responder = new PostResponder(res, acceptsSse(req), state.keepAliveMs, {
    headers: session.responseHeaders,
    openResumable: () => session.openResumable(state.retryMs),
  });
  const channel = new PostChannel(req, responder, session);
  const cancellation = channel.cancellation;
  session.inFlight.set(request.id, cancellation);
  try {
    const result = await state.server.handleRequest(request, channel);
    if (initializing) await state.sessions.add(session);
    else if (state.sessions.save) await state.sessions.save(session); // no `await undefined`: a tick per call
    responder.finish(resultResponse(request.id, result));
  } catch (error) {
    // Read before a failed initialize closes its session, which aborts this request too.
    const cancelled = cancellation.aborted && !isTimeout(error);
    if (initializing) {
      state.sessions.release(session);
      session.close();
      // The shared store failed to record the new session: nothing ran, so the client may simply retry.
      if (error instanceof SessionStoreUnavailableError) return sendStoreUnavailable(res, request.id, error);
    }
    // A 2025-era cancellation (notifications/cancelled) gets no response; the stream just ends.
    if (cancelled) responder.abandon();
    else responder.finish(errorResponse(request.id, toJsonRpcError(error)));
  } finally {
    if (session.inFlight.get(request.id) === cancellation) session.inFlight.delete(request.id);
  }
}
