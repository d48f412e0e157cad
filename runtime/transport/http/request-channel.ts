// One POST's RequestChannel: classes rather than objects of closures (one allocation per request), with a
// LazyAbort for cancellation, so a request whose handler never reads its signal costs no AbortController
// (an eager one, with its abort listener, was the largest single cost of an HTTP call in the profile).
import type { IncomingMessage } from "node:http";
import type { JsonObject, JsonRpcNotification, Result } from "../../protocol/types.ts";
import type { AuthPrincipal } from "../../server/auth-principal.ts";
import { LazyAbort } from "../../server/deadlines.ts";
import type { LegacySession } from "../../server/session.ts";
import type { RequestChannel } from "../../server/types.ts";
import { recordOf } from "./request-record.ts";
import type { PostResponder } from "./responder.ts";
import { principalOf, requestAuth } from "./security.ts";
import type { HttpSession } from "./session.ts";

/** A 2026-07-28 request: stateless, its interim messages on its own response. */
export class PostChannel implements RequestChannel {
  readonly cancellation = new LazyAbort();
  readonly principal: string;
  declare auth?: AuthPrincipal;
  declare httpRequestId?: string;

  constructor(
    req: IncomingMessage,
    protected readonly responder: PostResponder,
  ) {
    this.principal = principalOf(req);
    // Set only when there are, as before: handlers see no `auth` key without OAuth.
    const auth = requestAuth(req);
    if (auth) this.auth = auth;
    const record = recordOf(req);
    if (record) this.httpRequestId = record.id;
  }

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }

  notify(message: JsonRpcNotification): void {
    this.responder.send(message);
  }
}

/** A 2025-era request of a session: server-to-client requests go out on this POST's stream when it has one. */
export class SessionPostChannel extends PostChannel {
  readonly session: LegacySession;

  constructor(
    req: IncomingMessage,
    responder: PostResponder,
    private readonly httpSession: HttpSession,
  ) {
    super(req, responder);
    this.session = httpSession.state;
  }

  request(method: string, params: JsonObject | undefined, signal: AbortSignal): Promise<Result> {
    const responder = this.responder;
    return this.httpSession.peer.request(method, params, {
      signal,
      // Without SSE on this POST, the session's GET stream (the peer's default channel) is the only way out.
      send: responder.canStream ? (outgoing) => responder.send(outgoing) : undefined,
    });
  }
}
