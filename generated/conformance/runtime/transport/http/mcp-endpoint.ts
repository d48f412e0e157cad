// The MCP endpoint: POST carries messages (post.ts); GET opens (or resumes) and DELETE ends a 2025-era session.
import type { ServerResponse } from "node:http";
import { decodeMessage, errorResponse } from "../../protocol/codec.ts";
import type { Handler, HttpState } from "./http-state.ts";
import { handlePost } from "./post.ts";
import { acceptsSse, header, invalidRequest, isMediaType } from "./post-common.ts";
import { headerLineCount } from "./raw-headers.ts";
import { sendJson } from "./responder.ts";
import { BodyTooLargeError, principalOf, readBody } from "./security.ts";
import type { HttpSession } from "./session.ts";
import { parseEventId, startSse } from "./sse.ts";

export const postMessage: Handler = async ({ req, res, state }) => {
  // Node keeps only the first of repeated Content-Type lines; a request with two is ambiguous, so refused.
  const contentType = req.headers["content-type"] ?? "";
  if (headerLineCount(req, "content-type") !== 1 || !isMediaType(contentType, "application/json"))
    return sendJson(res, 415, errorResponse(undefined, invalidRequest("Content-Type must be application/json")));
  const body = await readBody(req, state.maxBodyBytes).catch((error: unknown) => error);
  if (typeof body !== "string") {
    const status = body instanceof BodyTooLargeError ? 413 : 400;
    const message = status === 413 ? `Request body exceeds ${state.maxBodyBytes} bytes` : "Could not read the body";
    return sendJson(res, status, errorResponse(undefined, invalidRequest(message)), { Connection: "close" });
  }
  const decoded = decodeMessage(body);
  if (!decoded.ok) return sendJson(res, 400, decoded.error);
  await handlePost(state, req, res, decoded.message);
};

export const openStandaloneStream: Handler = async ({ req, res, state }) => {
  const sessionId = header(req, "mcp-session-id");
  // 2026-07-28 has no GET stream; only 2025-era sessions may open one.
  if (!sessionId) return sendJson(res, 405, undefined, { Allow: "POST" });
  const session = await state.sessions.use(sessionId, principalOf(req));
  if (!session) return sendJson(res, 404, errorResponse(undefined, invalidRequest("Session not found")));
  if (!acceptsSse(req)) return sendJson(res, 406, undefined);
  const lastEventId = header(req, "last-event-id");
  if (lastEventId !== undefined) return await resumeStream(state, session, lastEventId, res);
  if (session.standaloneStream && !session.standaloneStream.closed)
    return sendJson(res, 409, errorResponse(undefined, invalidRequest("A stream is already open for this session")));
  session.standaloneStream = startSse(res, { "Mcp-Session-Id": session.id }, state.keepAliveMs);
  state.drain.streams.add(session.standaloneStream);
};

export const deleteSession: Handler = async ({ req, res, state }) => {
  const sessionId = header(req, "mcp-session-id");
  if (!sessionId) return sendJson(res, 405, undefined, { Allow: "POST" });
  const found = (await state.sessions.use(sessionId, principalOf(req))) && (await state.sessions.delete(sessionId));
  return sendJson(res, found ? 200 : 404, undefined);
};

/** 2025-era resumption: replay what the dropped connection missed, then keep delivering if still running. */
async function resumeStream(state: HttpState, session: HttpSession, lastEventId: string, res: ServerResponse) {
  const position = parseEventId(lastEventId);
  const open = () => startSse(res, { "Mcp-Session-Id": session.id }, state.keepAliveMs);
  const stream = position ? session.resumableStreams.get(position.streamId) : undefined;
  if (position && stream) return stream.attach(open(), position.seq);
  // Another process may have run the stream (shared store): it replays from there.
  if (position && (await state.sessions.resume?.(session, position.streamId, position.seq, open))) return;
  return sendJson(res, 404, errorResponse(undefined, invalidRequest("Unknown Last-Event-ID")));
}
