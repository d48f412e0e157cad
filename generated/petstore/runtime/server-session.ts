// State of one 2025-era (initialize-based) client: negotiated version, declared
// capabilities, log level and resource subscriptions. A stdio connection has
// one; the HTTP transport keeps one per `Mcp-Session-Id`.
import { notification } from "./codec.ts";
import type { ServerChange } from "./server-changes.ts";
import type { ClientCapabilities, Implementation, JsonRpcNotification, LoggingLevel } from "./types.ts";

export class LegacySession {
  protocolVersion: string | undefined;
  clientInfo: Implementation | undefined;
  clientCapabilities: ClientCapabilities = {};
  logLevel: LoggingLevel | undefined;
  initialized = false;
  lastActivity = Date.now();
  readonly subscriptions = new Set<string>();

  constructor(
    readonly id: string,
    /** Delivers a notification that belongs to no request (list changes, resource updates). */
    private readonly sendUnrelated: (message: JsonRpcNotification) => void,
  ) {}

  /** Called by the server for every change; forwards the ones this client asked for. */
  deliverChange(change: ServerChange): void {
    if (!this.protocolVersion) return;
    if (change.kind === "resource-updated") {
      if (this.subscriptions.has(change.uri)) {
        this.sendUnrelated(notification("notifications/resources/updated", { uri: change.uri }));
      }
      return;
    }
    this.sendUnrelated(notification(`notifications/${change.kind}/list_changed`));
  }
}
