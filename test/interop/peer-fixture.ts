// The one surface every interop server exposes (runtime server, SDK v1 McpServer, SDK v2 McpServer),
// so a single set of assertions can check any client against any of them.

export const PEER_TOOLS = {
  add: { name: "add", description: "Adds two numbers" },
  echo: { name: "echo", description: "Echoes its text argument" },
  fail: { name: "fail", description: "Always reports a tool error" },
  count: { name: "count", description: "Reports one progress notification per step" },
  ask: { name: "ask", description: "Asks the client for a name (elicitation)" },
  // Cancellation probes: "slow" runs until its signal aborts (or 10 s pass) and records the outcome
  // under the caller's key; "slow_status" reads it back, so a client can see its abort arrive.
  slow: { name: "slow", description: "Waits until cancelled (at most 10 s)" },
  slowStatus: { name: "slow_status", description: "Reports what happened to the slow call with this key" },
  touch: { name: "touch", description: "Announces a tool list change (notifications/tools/list_changed)" },
} as const;

export const KEY_INPUT_SCHEMA = {
  type: "object",
  properties: { key: { type: "string" } },
  required: ["key"],
} as const;

/** Resolves "cancelled" when `signal` aborts, else "finished" after 10 s. */
export function waitForAbort(signal: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve("cancelled");
    const timer = setTimeout(() => resolve("finished"), 10_000);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve("cancelled");
      },
      { once: true },
    );
  });
}

// The "ask" tool's server-to-client input request: a real elicitation/create request in the 2025 era,
// an MRTR input_required round in 2026-07-28. Every interop client answers it with ELICITED_NAME.
export const ASK_ELICITATION = {
  message: "What is your name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
} as const;

export const ELICITED_NAME = "Grace";

export function askText(name: string): string {
  return `Nice to meet you, ${name}`;
}

export const COUNT_INPUT_SCHEMA = {
  type: "object",
  properties: { steps: { type: "integer", minimum: 1, maximum: 10 } },
  required: ["steps"],
} as const;

export function countText(steps: number): string {
  return `counted ${steps}`;
}

export const ADD_INPUT_SCHEMA = {
  type: "object",
  properties: { a: { type: "number" }, b: { type: "number" } },
  required: ["a", "b"],
} as const;

export const ECHO_INPUT_SCHEMA = {
  type: "object",
  properties: { text: { type: "string" } },
  required: ["text"],
} as const;

export const STATIC_RESOURCE = {
  uri: "interop://static/hello",
  name: "hello",
  mimeType: "text/plain",
  text: "hello, interop",
} as const;

export const ITEM_TEMPLATE = {
  uriTemplate: "interop://items/{id}",
  name: "item",
  mimeType: "application/json",
} as const;

export const GREET_PROMPT = { name: "greet", description: "Greets someone", argument: "name" } as const;

export const FAIL_MESSAGE = "deliberate failure";

export function addText(a: number, b: number): string {
  return `sum=${a + b}`;
}

export function itemText(id: string): string {
  return JSON.stringify({ id, kind: "item" });
}

export function greetText(name: string): string {
  return `Hello, ${name}!`;
}

export const PEER_SERVER_INFO = { name: "interop-peer", version: "1.0.0" } as const;
