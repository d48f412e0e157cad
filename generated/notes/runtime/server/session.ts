// A 2025-era client's session (one per stdio connection or `Mcp-Session-Id`), and the server's change events.
import { notification } from "../protocol/codec.ts";
import type {
  ClientCapabilities,
  Implementation,
  JsonRpcNotification,
  LoggingLevel,
  SubscriptionFilter,
} from "../protocol/types.ts";

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
    if (change.kind !== "resource-updated")
      this.sendUnrelated(notification(`notifications/${change.kind}/list_changed`));
    else if (this.subscriptions.has(change.uri))
      this.sendUnrelated(notification("notifications/resources/updated", { uri: change.uri }));
  }
}

/** List changes and resource updates; 2025 sessions and 2026 `subscriptions/listen` streams listen. */
export type ServerChange = { kind: "tools" | "prompts" | "resources" } | { kind: "resource-updated"; uri: string };

export class ChangeHub {
  private readonly listeners = new Set<(change: ServerChange) => void>();
  private muted = false;

  /** Runs `work` without emitting: registrations a client never saw absent are not changes. */
  mute(work: () => void): void {
    const was = this.muted;
    this.muted = true;
    try {
      work();
    } finally {
      this.muted = was;
    }
  }

  subscribe(listener: (change: ServerChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(change: ServerChange): void {
    if (this.muted) return;
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch {
        // One broken subscriber must not starve the others.
      }
    }
  }
}

/** The notification a `subscriptions/listen` stream should carry for a change, if its filter opted in. */
export function notificationForFilter(
  change: ServerChange,
  filter: SubscriptionFilter,
): JsonRpcNotification | undefined {
  if (change.kind === "resource-updated")
    return filter.resourceSubscriptions?.includes(change.uri)
      ? notification("notifications/resources/updated", { uri: change.uri })
      : undefined;
  return filter[`${change.kind}ListChanged`] ? notification(`notifications/${change.kind}/list_changed`) : undefined;
}
