// Change events inside a server: feature lists changing and resources being
// updated. Legacy sessions and 2026 `subscriptions/listen` streams both listen here.

import { notification } from "../protocol/codec.ts";
import type { JsonRpcNotification, SubscriptionFilter } from "../protocol/types.ts";

export type ServerChange = { kind: "tools" | "prompts" | "resources" } | { kind: "resource-updated"; uri: string };
export type ChangeListener = (change: ServerChange) => void;

export class ChangeHub {
  private readonly listeners = new Set<ChangeListener>();
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

  subscribe(listener: ChangeListener): () => void {
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
  switch (change.kind) {
    case "tools":
      return filter.toolsListChanged ? notification("notifications/tools/list_changed") : undefined;
    case "prompts":
      return filter.promptsListChanged ? notification("notifications/prompts/list_changed") : undefined;
    case "resources":
      return filter.resourcesListChanged ? notification("notifications/resources/list_changed") : undefined;
    case "resource-updated":
      return filter.resourceSubscriptions?.includes(change.uri)
        ? notification("notifications/resources/updated", { uri: change.uri })
        : undefined;
  }
}
