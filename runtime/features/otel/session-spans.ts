// --session-store's round trips (the redis feature's 2025-era sessions) in spans of the request that makes them: a
// request that is slow because Redis is shows as such. Its span is opened before the session is looked up
// (server-spans.ts EarlySpans); work outside a request (a sweep, a notification's save) is not traced.

import type { Instrument } from "../../package/feature.ts";
import type { Sessions } from "../../transport/http/session-store.ts";
import type { EarlySpans } from "./server-spans.ts";

export function tracedSessions(sessions: Sessions, instrument: Pick<Instrument, "span"> & { early: EarlySpans }) {
  const { early } = instrument;
  const span = <T>(operation: string, run: () => Promise<T>) =>
    early.within()
      ? instrument.span(
          `redis sessions.${operation}`,
          { "db.system.name": "redis", "db.operation.name": operation },
          run,
        )
      : run();
  const traced: Sessions = {
    get maxSessions() {
      return sessions.maxSessions;
    },
    get size() {
      return sessions.size;
    },
    create: (server) => sessions.create(server),
    use: (id, principal) => span("use", async () => sessions.use(id, principal)),
    reserve: (session) => span("reserve", async () => sessions.reserve(session)),
    add: (session) => span("add", async () => sessions.add(session)),
    release: (session) => sessions.release(session),
    delete: (id) => span("delete", async () => sessions.delete(id)),
    sweep: (cutoff) => sessions.sweep(cutoff),
    closeAll: () => sessions.closeAll(),
    trace: early.open,
  };
  const { save, resume } = sessions;
  if (save) traced.save = (session) => span("save", () => save.call(sessions, session));
  if (resume) traced.resume = (...args) => span("resume", () => resume.apply(sessions, args));
  return traced;
}
