// A 2025-era session's protocol state as one JSON string, the form a shared session store keeps: what
// `initialize` negotiated, the log level and the resource subscriptions. Comparing two such strings tells
// whether a request changed anything worth writing back.
import type { ClientCapabilities, Implementation, LoggingLevel } from "../../protocol/types.ts";
import { keptClientInfo } from "../../server/client-declaration.ts";
import type { LegacySession } from "../../server/session.ts";

export type SessionState = {
  version?: string;
  clientInfo?: Implementation;
  capabilities: ClientCapabilities;
  logLevel?: LoggingLevel;
  initialized: boolean;
  subscriptions: string[];
};

export function sessionState(session: LegacySession): string {
  const state: SessionState = {
    version: session.protocolVersion,
    clientInfo: session.clientInfo,
    capabilities: session.clientCapabilities,
    logLevel: session.logLevel,
    initialized: session.initialized,
    subscriptions: [...session.subscriptions],
  };
  return JSON.stringify(state);
}

export function applySessionState(session: LegacySession, state: SessionState): void {
  session.protocolVersion = state.version;
  // Stored by an instance of any version: held to what a session may keep here too.
  session.clientInfo = keptClientInfo(state.clientInfo);
  session.clientCapabilities = state.capabilities ?? {};
  session.logLevel = state.logLevel;
  session.initialized = state.initialized === true;
  session.replaceSubscriptions(Array.isArray(state.subscriptions) ? state.subscriptions : []);
}
