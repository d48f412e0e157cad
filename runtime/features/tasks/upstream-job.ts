// Following an upstream job (docs/long-running.md): where to poll it, found in the start answer,
// and what one poll says: still working (202, or a status document's non-terminal value), finished (the result,
// fetched where the binding says), or failed. A poll is a GET of the same origin only: credentials never leave it.
import type { TaskBinding } from "../../package/catalog-types.ts";
import { retryAfterMs } from "../../upstream/response.ts";
import type { UpstreamResponse } from "../../upstream/types.ts";
import type { JobState } from "./task-store.ts";

export type PollOutcome =
  | { state: "working"; message?: string; retryAfterMs?: number }
  | { state: "done"; answer: UpstreamResponse }
  | { state: "result-at"; url: string }
  | { state: "cancelled" }
  | { state: "failed-upstream"; answer: UpstreamResponse; message: string };

/** A JSON pointer's value (RFC 6901), or undefined. */
export function atPointer(value: unknown, pointer: string): unknown {
  if (pointer === "") return value;
  let here = value;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (here === null || typeof here !== "object" || !Object.hasOwn(here, key)) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

export function jsonOf(response: UpstreamResponse): unknown {
  try {
    return JSON.parse(response.body.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** A JSON value as an upstream answer of its own (a status document's `result`), for the tool's result pipeline. */
export function answerWith(value: unknown, like: UpstreamResponse): UpstreamResponse {
  const body = Buffer.from(JSON.stringify(value ?? null));
  return { status: 200, statusText: "OK", contentType: "application/json", body, redact: like.redact };
}

/** `{name}`s of a path filled from the start answer (`params`: name → pointer), each value URL-encoded but `/`. */
function filledPath(path: string, params: Record<string, string> | undefined, start: unknown): string | undefined {
  let missing = false;
  const filled = path.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    const value = params && Object.hasOwn(params, name) ? atPointer(start, params[name]) : undefined;
    if (typeof value !== "string" && typeof value !== "number") missing = true;
    return encodeURIComponent(String(value)).replace(/%2F/gi, "/");
  });
  return missing ? undefined : filled;
}

const joined = (base: string, path: string) => `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;

/** Whether the start answer is itself finished: a status document already terminal, or no job at all. */
export function startIsFinal(binding: TaskBinding, start: UpstreamResponse): boolean {
  if (start.status < 200 || start.status >= 300) return true;
  if (binding.status) return statusOf(binding, jsonOf(start)) !== "working";
  return start.status !== 202;
}

/** Where the job is polled (and cancelled), from the start answer; undefined when it names no poll URL. */
export function jobOf(
  tool: string,
  binding: TaskBinding,
  start: UpstreamResponse,
  baseUrl: string,
): JobState | undefined {
  const body = jsonOf(start);
  const requestUrl = start.url ?? baseUrl;
  const resolve = (ref: unknown) =>
    typeof ref === "string" && URL.canParse(ref, requestUrl) ? new URL(ref, requestUrl).href : undefined;
  const { poll } = binding;
  const header = (poll.headers ?? []).map((name) => start.headers?.[name]).find((value) => value !== undefined);
  const path = poll.path === undefined ? undefined : filledPath(poll.path, poll.params, body);
  const pollUrl =
    resolve(header) ?? (poll.link ? resolve(atPointer(body, poll.link)) : undefined) ?? (path && joined(baseUrl, path));
  if (!pollUrl) return undefined;
  const resultUrl = binding.result?.header ? resolve(start.headers?.[binding.result.header]) : undefined;
  const cancelPath = binding.cancel?.path && filledPath(binding.cancel.path, binding.cancel.params, body);
  const cancel = binding.cancel && {
    method: binding.cancel.method,
    url: cancelPath ? joined(baseUrl, cancelPath) : pollUrl,
  };
  return { tool, pollUrl, ...(cancel ? { cancel } : {}), ...(resultUrl ? { resultUrl } : {}) };
}

type Terminal = "working" | "completed" | "failed" | "cancelled";

function statusOf(binding: TaskBinding, document: unknown): Terminal {
  const status = binding.status;
  if (!status) return "completed";
  const value = atPointer(document, status.pointer);
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (status.completed.includes(text)) return "completed";
  if (status.failed.includes(text)) return "failed";
  if (status.cancelled?.includes(text)) return "cancelled";
  return "working";
}

/** What one poll answer says about the job. */
export function pollOutcome(binding: TaskBinding, job: JobState, answer: UpstreamResponse): PollOutcome {
  const retryAfter = retryAfterMs(answer.headers?.["retry-after"]);
  const later = (message?: string) => ({
    state: "working" as const,
    ...(message ? { message } : {}),
    ...(retryAfter ? { retryAfterMs: retryAfter } : {}),
  });
  // Throttled or briefly down: try again later (the task's TTL bounds how long).
  if (answer.status === 429 || answer.status >= 500)
    return later(`the upstream answered ${answer.status}; polling again`);
  if (answer.status === 202) return later();
  if (answer.status >= 300) return { state: "done", answer };
  const document = jsonOf(answer);
  const status = statusOf(binding, document);
  if (status === "working") {
    const value = binding.status ? atPointer(document, binding.status.pointer) : undefined;
    return later(
      value === undefined ? undefined : `upstream status: ${typeof value === "string" ? value : JSON.stringify(value)}`,
    );
  }
  const error = binding.error === undefined ? undefined : atPointer(document, binding.error);
  if (status === "failed" || (status === "completed" && error !== undefined && error !== null)) {
    const message = `The upstream job failed${error === undefined ? "" : `: ${JSON.stringify(error)}`}`;
    return { state: "failed-upstream", answer: answerWith(error ?? document, answer), message };
  }
  if (status === "cancelled") return { state: "cancelled" };
  const result = binding.result;
  if (result?.pointer !== undefined)
    return { state: "done", answer: answerWith(atPointer(document, result.pointer), answer) };
  if (result?.link !== undefined) {
    const link = atPointer(document, result.link);
    const base = answer.url ?? job.pollUrl;
    if (typeof link === "string" && URL.canParse(link, base))
      return { state: "result-at", url: new URL(link, base).href };
    return {
      state: "failed-upstream",
      answer,
      message: `The finished job's answer has no result link at ${result.link}`,
    };
  }
  if (job.resultUrl) return { state: "result-at", url: job.resultUrl };
  return { state: "done", answer };
}
