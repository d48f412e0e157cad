// One POST's RequestChannel: a class (one allocation per request) with a LazyAbort, so a request whose handler
// never reads its signal costs no AbortController (with its abort listener, the largest cost of an HTTP call).
import type { IncomingMessage } from "node:http";
import type { JsonObject, JsonRpcMessage, JsonRpcNotification, Result } from "../../protocol/types.ts";
import type { AuthPrincipal } from "../../server/auth-principal.ts";
import { LazyAbort } from "../../server/deadlines.ts";
import type { LegacySession } from "../../server/session.ts";
import type { RequestChannel } from "../../server/types.ts";
import { type RequestRecord, recordOf } from "./request-record.ts";
import type { PostResponder } from "./responder.ts";
import { principalOf, requestAuth } from "./security.ts";
import type { HttpSession } from "./session.ts";

/** `httpSession`: a 2025-era request's, whose server-to-client requests go out on this POST's stream if it has one. */
export class PostChannel implements RequestChannel {
  readonly cancellation = new LazyAbort();
  readonly principal: string;
  readonly session: LegacySession | undefined;
  declare auth?: AuthPrincipal; // set only when there is one, as before: no `auth` key without OAuth
  declare httpRequestId?: string;
  declare traceparent?: string;
  declare record?: RequestRecord;

  constructor(
    req: IncomingMessage,
    private readonly responder: PostResponder | undefined, // none for a notification
    private readonly httpSession?: HttpSession,
  ) {
    this.principal = principalOf(req);
    this.session = httpSession?.state;
    const auth = requestAuth(req);
    if (auth) this.auth = auth;
    const record = recordOf(req);
    if (record) this.record = record;
    if (record?.id) this.httpRequestId = record.id;
    const { traceparent } = req.headers;
    if (typeof traceparent === "string") this.traceparent = traceparent;
  }

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }

  notify(message: JsonRpcNotification): void {
    this.responder?.send(message);
  }

  request(method: string, params: JsonObject | undefined, signal: AbortSignal): Promise<Result> {
    const responder = this.responder;
    if (!this.httpSession) return Promise.reject(new Error("2026-07-28 has no server-to-client requests"));
    // Without SSE on this POST, the session's GET stream (the peer's default channel) is the only way out.
    const send = responder?.canStream ? (outgoing: JsonRpcMessage) => responder.send(outgoing) : undefined;
    return this.httpSession.peer.request(method, params, { signal, send });
  }
}
