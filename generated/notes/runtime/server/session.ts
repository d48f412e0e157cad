// State of one 2025-era (initialize-based) client: negotiated version, declared
// capabilities, log level and resource subscriptions. A stdio connection has
// one; the HTTP transport keeps one per `Mcp-Session-Id`.
import { notification } from "../protocol/codec.ts";
import type { ClientCapabilities, Implementation, JsonRpcNotification, LoggingLevel } from "../protocol/types.ts";
import type { ServerChange } from "./changes.ts";

/** Resource subscriptions one session may hold, and their URIs' total length: what a session keeps is bounded. */
export const MAX_SUBSCRIPTIONS = 1_000;
export const MAX_SUBSCRIPTION_CHARS = 1024 * 1024;

export class LegacySession {
  protocolVersion: string | undefined;
  clientInfo: Implementation | undefined;
  clientCapabilities: ClientCapabilities = {};
  logLevel: LoggingLevel | undefined;
  initialized = false;
  lastActivity = Date.now();
  readonly subscriptions = new Set<string>();
  private subscriptionChars = 0;

  constructor(
    readonly id: string,
    /** Delivers a notification that belongs to no request (list changes, resource updates). */
    private readonly sendUnrelated: (message: JsonRpcNotification) => void,
  ) {}

  /** Adds a subscription; false when the session already holds as many as it may. */
  subscribe(uri: string): boolean {
    if (this.subscriptions.has(uri)) return true;
    if (this.subscriptions.size >= MAX_SUBSCRIPTIONS) return false;
    if (this.subscriptionChars + uri.length > MAX_SUBSCRIPTION_CHARS) return false;
    this.subscriptions.add(uri);
    this.subscriptionChars += uri.length;
    return true;
  }

  /** Takes the subscriptions another process saved for this session (a shared session store). */
  replaceSubscriptions(uris: string[]): void {
    this.subscriptions.clear();
    this.subscriptionChars = 0;
    for (const uri of uris) this.subscribe(uri);
  }

  unsubscribe(uri: string): void {
    if (this.subscriptions.delete(uri)) this.subscriptionChars -= uri.length;
  }

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
