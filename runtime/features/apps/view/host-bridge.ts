// The view's side of the MCP Apps postMessage protocol (JSON-RPC 2.0 with the host window). Written by hand:
// the SDK's `App` class bundles to 649 KB with the MCP client and zod, against a 40 KB budget for the page.

type Json = Record<string, unknown>;
type Message = { jsonrpc?: string; id?: string | number; method?: string; params?: Json; result?: Json; error?: Json };
type Pending = { resolve: (result: Json) => void; reject: (error: Error) => void };

/** What the view needs of the host: requests answered by id, notifications both ways. */
export type HostBridge = {
  request: (method: string, params: Json) => Promise<Json>;
  notify: (method: string, params: Json) => void;
  on: (method: string, handler: (params: Json) => void) => void;
};

// Host requests the view answers itself: liveness and the last word before the iframe goes away.
const ANSWERED = new Set(["ping", "ui/resource-teardown"]);

export function connectHost(host: Window = window.parent): HostBridge {
  let nextId = 1;
  const pending = new Map<string | number, Pending>();
  const handlers = new Map<string, (params: Json) => void>();
  const send = (message: Message) => host.postMessage({ jsonrpc: "2.0", ...message }, "*");

  window.addEventListener("message", (event: MessageEvent) => {
    // Only the host speaks to the view: another frame's message could forge a result.
    if (event.source !== host) return;
    const message = event.data as Message | null;
    if (!message || typeof message !== "object" || message.jsonrpc !== "2.0") return;
    if (message.method !== undefined) {
      if (message.id === undefined) handlers.get(message.method)?.(message.params ?? {});
      else if (ANSWERED.has(message.method)) send({ id: message.id, result: {} });
      else send({ id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
      return;
    }
    const waiting = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiting || message.id === undefined) return;
    pending.delete(message.id);
    if (message.error) waiting.reject(new Error(String(message.error.message ?? "Request failed")));
    else waiting.resolve(message.result ?? {});
  });

  return {
    request: (method, params) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        send({ id, method, params });
      }),
    notify: (method, params) => send({ method, params }),
    on: (method, handler) => {
      handlers.set(method, handler);
    },
  };
}
