// Multi Round-Trip Requests, server side (2026 era): handlers re-run on each retry; an unanswered input
// throws InputRequiredSignal (an `input_required` result). Answers so far travel in a sealed `requestState`
// bound to the method, the salient params, the caller and an expiry: no tampering, no replay elsewhere.
import { createHash } from "node:crypto";
import { isObject } from "../protocol/codec.ts";
import { invalidParams } from "../protocol/errors.ts";
import type { InputRequest, InputRequiredResult, InputResponse, JsonObject } from "../protocol/types.ts";
import type { TokenSealer } from "./sealed-token.ts";

export class InputRequiredSignal extends Error {
  constructor(readonly requests: Record<string, InputRequest>) {
    super("Input required");
    this.name = "InputRequiredSignal";
  }
}

/** Keys of inputs answered only through the sealed requestState, never by an answer sent without it. */
export const CONFIRMATION_KEY_PREFIX = "confirm-";

type StatePayload = {
  v: 1;
  m: string;
  d: string;
  p: string;
  exp: number;
  a: Record<string, InputResponse>;
  k: string[];
};

export type MrtrBinding = { method: string; params: JsonObject; principal: string };

/** The answers a retry carries, after verifying its requestState. Throws -32602 on tampering or mismatch. */
export function collectAnswers(sealer: TokenSealer, binding: MrtrBinding): Record<string, InputResponse> {
  const { requestState, inputResponses } = binding.params;
  if (requestState === undefined) {
    // Answers are client-supplied data either way; without state there are simply no earlier rounds to
    // trust (MRTR lets a stateless server take them). A confirmation is the exception: it must answer a
    // question this server asked, which only the sealed state proves, or a client could skip the question.
    return isObject(inputResponses)
      ? (Object.fromEntries(
          Object.entries(inputResponses).filter(
            ([key, answer]) => isObject(answer) && !key.startsWith(CONFIRMATION_KEY_PREFIX),
          ),
        ) as Record<string, InputResponse>)
      : {};
  }
  const payload = typeof requestState === "string" ? sealer.open(requestState) : undefined;
  if (!isStatePayload(payload)) throw invalidParams("requestState failed integrity verification");
  if (payload.exp < Date.now()) throw invalidParams("requestState has expired; retry the original request");
  if (payload.m !== binding.method || payload.d !== salientDigest(binding.method, binding.params))
    throw invalidParams("requestState belongs to a different request");
  if (payload.p !== principalDigest(binding.principal))
    throw invalidParams("requestState belongs to a different caller");
  const answers = { ...payload.a };
  if (isObject(inputResponses)) {
    // Only answers to what we actually asked for count; anything else is ignored (MRTR error handling).
    for (const key of payload.k) if (isObject(inputResponses[key])) answers[key] = inputResponses[key] as InputResponse;
  }
  return answers;
}

export function inputRequiredResult(
  sealer: TokenSealer,
  binding: MrtrBinding,
  answers: Record<string, InputResponse>,
  requests: Record<string, InputRequest>,
  ttlMs: number,
): InputRequiredResult {
  const payload: StatePayload = {
    v: 1,
    m: binding.method,
    d: salientDigest(binding.method, binding.params),
    p: principalDigest(binding.principal),
    exp: Date.now() + ttlMs,
    a: answers,
    k: Object.keys(requests),
  };
  return { resultType: "input_required", inputRequests: requests, requestState: sealer.seal(payload) };
}

/** What identifies "the same request" across retries: the target and its arguments. */
function salientDigest(method: string, params: JsonObject): string {
  const salient = { method, name: params.name, uri: params.uri, arguments: params.arguments };
  return createHash("sha256").update(canonicalJson(salient)).digest("base64url");
}

function principalDigest(principal: string): string {
  return createHash("sha256").update(principal).digest("base64url").slice(0, 22);
}

/** JSON with sorted keys, so equal values always give equal text (and digests). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isObject(value)) {
    const keys = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function isStatePayload(value: unknown): value is StatePayload {
  if (!isObject(value) || value.v !== 1 || typeof value.exp !== "number") return false;
  const strings = [value.m, value.d, value.p].every((field) => typeof field === "string");
  return strings && isObject(value.a) && Array.isArray(value.k);
}
