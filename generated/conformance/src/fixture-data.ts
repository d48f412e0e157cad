// Shared data of the conformance handlers (user code: mcpgen never writes or touches this file).
import type { ElicitResult, InputRequest, InputResponse } from "../runtime/index.ts";

// A 1x1 red PNG and a minimal WAV, the media the conformance scenarios expect.
export const TEST_IMAGE_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
export const TEST_AUDIO_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function text(value: string) {
  return { content: [{ type: "text" as const, text: value }] };
}

export function elicitationSummary(label: string, result: ElicitResult) {
  return text(`${label}: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
}

export function elicit(message: string, properties: Record<string, unknown>, required: string[]): InputRequest {
  return {
    method: "elicitation/create",
    params: { message, requestedSchema: { type: "object", properties, required } },
  };
}

export function sample(prompt: string, maxTokens: number): InputRequest {
  return {
    method: "sampling/createMessage",
    params: { messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens },
  };
}

export const askName = elicit("What is your name?", { name: { type: "string" } }, ["name"]);

/** A string field of an elicitation answer's content, or "unknown". */
export function contentField(response: InputResponse | undefined, field: string): string {
  const value = (response as { content?: Record<string, unknown> } | undefined)?.content?.[field];
  return typeof value === "string" ? value : "unknown";
}
