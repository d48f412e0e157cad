// Upstream answers as MCP results (JSON objects as structuredContent too, images as image content, non-2xx
// as errors; a cut body as text with a note, never structuredContent), and redacting credentials from them.
import { setOwn } from "../protocol/codec.ts";
import type { ToolHandlerResult } from "../server/types.ts";
import type { Redactor, UpstreamConfig, UpstreamResponse } from "./types.ts";

/** Retry-After in seconds or as an HTTP date, in ms (forward.ts's retries, the tasks feature's polls). */
export function retryAfterMs(text: string | null | undefined): number | undefined {
  const seconds = text ? Number(text) : Number.NaN;
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = text ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export const isJson = (type: string) => /^application\/([\w.+-]+\+)?json\b/i.test(type);
const isText = (type: string) => type === "" || /^text\/|xml|javascript|yaml|x-www-form-urlencoded/i.test(type);
/** Answers passed on as text: capped in characters and redacted. Everything else is bytes. */
export const isTextual = (type: string) => isJson(type) || isText(type);

const cutNote = (limit: number) =>
  `[cut: the upstream API's answer is longer than ${limit} characters; only the first ${limit} are shown ` +
  "(raise --max-upstream-body / MCP_MAX_UPSTREAM_BODY to see more)]";

/** The first `limit` characters of a cut body, with no partial credential at the end. */
function cutText(response: UpstreamResponse, limit: number): string {
  const text = response.body.toString("utf8").slice(0, limit);
  return response.redact ? response.redact.cutEnd(text) : text;
}

/** The result, plus what the response budget works on: a 2xx answer's JSON (redacted, arrays too), the Link header. */
export type ToolAnswer = { result: ToolHandlerResult; json?: unknown; link?: string };

export function toolAnswerFrom(response: UpstreamResponse): ToolAnswer {
  const link = response.link === undefined ? {} : { link: response.link };
  const answer = answerOf(response);
  // Only the JSON branch below answers with the parsed value; every other one is a plain result.
  return "json" in answer ? { ...(answer as ToolAnswer), ...link } : { result: answer, ...link };
}

const textBlock = (text: string) => ({ type: "text" as const, text });

function answerOf(response: UpstreamResponse): ToolHandlerResult | ToolAnswer {
  const ok = response.status >= 200 && response.status < 300;
  const limit = response.cutAt;
  if (!ok) {
    const body = limit === undefined ? response.body.toString("utf8") : cutText(response, limit);
    const excerpt = body.length <= 500 ? body : `${body.slice(0, 500)}… [truncated ${body.length - 500} characters]`;
    const text = `Upstream API answered ${response.status} ${response.statusText}${excerpt ? `: ${excerpt}` : ""}${response.hint ?? ""}`;
    return { isError: true, content: [textBlock(text)] };
  }
  if (response.body.length === 0) return { content: [textBlock(`Upstream API answered ${response.status}`)] };
  if (limit !== undefined) {
    if (isJson(response.contentType)) {
      // Cut JSON is not JSON (so never structuredContent): an error result carries the text and says why.
      const note = `${cutNote(limit)} The answer was JSON; it is sent as text, not structuredContent.`;
      return { isError: true, content: [textBlock(note), textBlock(cutText(response, limit))] };
    }
    if (isText(response.contentType)) return { content: [textBlock(`${cutText(response, limit)}\n${cutNote(limit)}`)] };
    const note = `Upstream API answered more than ${limit} bytes of ${response.contentType}; not passed on`;
    return { isError: true, content: [textBlock(note)] };
  }
  if (isJson(response.contentType)) {
    const text = response.body.toString("utf8");
    try {
      const parsed: unknown = JSON.parse(text);
      // The text was redacted already; a credential can survive only behind JSON escapes (\u0073ecret, \/).
      const value = response.redact && text.includes("\\") ? response.redact.value(parsed) : parsed;
      const isObject = value !== null && typeof value === "object" && !Array.isArray(value);
      const structured = isObject ? { structuredContent: value as Record<string, unknown> } : {};
      return { result: { content: [textBlock(text)], ...structured }, json: value };
    } catch {
      return { content: [textBlock(text)] };
    }
  }
  if (response.contentType.startsWith("image/")) {
    const mimeType = response.contentType.split(";")[0];
    return { content: [{ type: "image", data: response.body.toString("base64"), mimeType }] };
  }
  if (isText(response.contentType)) return { content: [textBlock(response.body.toString("utf8"))] };
  const note = `Upstream API answered ${response.body.length} bytes of ${response.contentType}`;
  return { content: [textBlock(note)] };
}

/** Resource contents from an upstream response; a non-2xx answer is an error the caller turns into JSON-RPC. */
export function resourceContentsFrom(uri: string, mimeType: string | undefined, response: UpstreamResponse) {
  if (response.status < 200 || response.status >= 300)
    throw new Error(`Upstream API answered ${response.status} ${response.statusText} for ${uri}${response.hint ?? ""}`);
  const type = mimeType ?? (response.contentType.split(";")[0] || "application/octet-stream");
  const limit = response.cutAt;
  if (isJson(response.contentType) || isText(response.contentType)) {
    const text =
      limit === undefined ? response.body.toString("utf8") : `${cutText(response, limit)}\n${cutNote(limit)}`;
    return { contents: [{ uri, mimeType: type, text }] };
  }
  if (limit !== undefined) throw new Error(`Upstream API answered more than ${limit} bytes of ${type} for ${uri}`);
  return { contents: [{ uri, mimeType: type, blob: response.body.toString("base64") }] };
}

// An upstream may echo a credential in any form it was sent in: each secret is searched raw, base64-encoded
// (basic auth), URL- and form-encoded (query keys, cookies) and JSON-escaped, in one pattern per secret set.
export const REDACTED = "[REDACTED]";
/** Shorter values are not searched: redacting every "a" or "42" would wreck answers and protect nothing. */
const MIN_SECRET = 4;

function encodings(secret: string): string[] {
  const forms = [
    secret,
    Buffer.from(secret).toString("base64"),
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
  ];
  // basic credentials are `user:password`: the password alone is a secret too.
  const colon = secret.indexOf(":");
  if (colon >= 0 && secret.length - colon - 1 >= MIN_SECRET) forms.push(...encodings(secret.slice(colon + 1)));
  return forms;
}

function redactorFor(secrets: Iterable<string>): Redactor {
  const values = [...new Set(secrets)].filter((s) => s.length >= MIN_SECRET);
  if (values.length === 0)
    return Object.assign((text: string) => text, { none: true, value: (v: unknown) => v, cutEnd: (t: string) => t });
  // Longest first, so a form that contains another is replaced whole.
  const forms = [...new Set(values.flatMap(encodings))].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(forms.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
  const text = (input: string) => (input.length === 0 ? input : input.replace(pattern, REDACTED));
  const value = (input: unknown): unknown => {
    if (typeof input === "string") return text(input);
    if (Array.isArray(input)) return input.map(value);
    if (input !== null && typeof input === "object") {
      const copy: Record<string, unknown> = {};
      // setOwn, not assignment: a key "__proto__" from JSON.parse stays an own property.
      for (const [key, item] of Object.entries(input)) setOwn(copy, text(key), value(item));
      return copy;
    }
    return input;
  };
  const cutEnd = (input: string) => {
    for (const form of forms)
      for (let k = Math.min(form.length - 1, input.length); k >= MIN_SECRET; k--)
        if (input.endsWith(form.slice(0, k))) return input.slice(0, input.length - k) + REDACTED;
    return input;
  };
  return Object.assign(text, { none: false, value, cutEnd });
}

const cache = new WeakMap<UpstreamConfig, { key: string; redactor: Redactor }>();

/** Every credential the config names (not only the ones this call sends), read from the environment. */
export function configuredRedactor(upstream: UpstreamConfig, env: NodeJS.ProcessEnv, extra: string[] = []): Redactor {
  const names = (upstream.securitySchemes ?? []).flatMap((s) => (s.type === "oauth2" ? [s.clientSecretEnv] : [s.env]));
  // An OAuth2 token (in `extra`) changes over time: it is part of the key, so a new one rebuilds the pattern.
  const values = [...new Set([...names.map((name) => env[name] ?? ""), ...extra])].filter((v) => v.length > 0);
  const key = values.join("\0");
  const cached = cache.get(upstream);
  if (cached && cached.key === key) return cached.redactor;
  const redactor = redactorFor(values);
  cache.set(upstream, { key, redactor });
  return redactor;
}
