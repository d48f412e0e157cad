// Protocol revision 2025 (2025-11-25, 2025-06-18, 2025-03-26), client side: everything the client does
// only with initialize-based servers. The session holds the version, capabilities and log level, so
// requests carry no per-request metadata; over HTTP the session is `Mcp-Session-Id` (a 404 means it
// is gone), its streams resume, and a cancelled request is announced with notifications/cancelled.
import { type ClientRevision, completeByDefault } from "./revision.ts";

export const revision2025: ClientRevision = {
  era: "legacy",
  requestMeta: () => ({}),
  pingMethod: "ping",
  async announceLogLevel(level, send) {
    await send("logging/setLevel", { level });
  },
  sessionExpired(error, transportKind) {
    const status = (error as { status?: unknown } | undefined)?.status;
    return transportKind === "http" && status === 404;
  },
  mirrorsParamHeaders: false,
  readResult: completeByDefault,

  requestHeaders: () => ({}),
  notificationHeaders: () => ({}),
  httpSession: true,
  resumableStreams: true,
  cancellation: (requestId, reason) => ({ requestId, reason }),
};
