// What a 2025-era session needs from a shared session store (--session-store, issue 18) when other
// processes serve the same session: the client's GET stream, the requests we sent it and its answers,
// and the events of its resumable streams may each live in another process. Absent in memory mode.
import type { JsonRpcMessage, RequestId } from "../../protocol/types.ts";
import type { StreamMirror } from "./sse-replay.ts";

export type SessionRemote = {
  /** This process's id among those sharing the store: it prefixes our request and stream ids. */
  readonly instanceId: string;
  /** A message for the client's GET stream, which another process may hold. */
  standalone(sessionId: string, message: JsonRpcMessage): void;
  /** The client's answer to a server-to-client request another process sent. */
  response(sessionId: string, message: JsonRpcMessage): void;
  /** notifications/cancelled for a request running in another process. */
  cancel(sessionId: string, requestId: RequestId): void;
  /** Copies a resumable stream's events where any process can replay them. */
  mirror(sessionId: string, streamId: string): StreamMirror;
};
