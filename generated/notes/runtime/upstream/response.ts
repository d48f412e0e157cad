// Upstream answers as MCP results: JSON objects become structuredContent (plus text), other text stays
// text, images become image content, non-2xx answers become errors. A body longer than the cap arrives
// cut (body.ts) and is passed on as text with a note; cut JSON is never structuredContent.

import type { ContentBlock, ReadResourceResult } from "../protocol/types.ts";
import type { ToolHandlerResult } from "../server/types.ts";
import type { UpstreamResponse } from "./types.ts";

const EXCERPT = 500;

export const isJson = (type: string) => /^application\/([\w.+-]+\+)?json\b/i.test(type);
const isText = (type: string) => type === "" || /^text\/|xml|javascript|yaml|x-www-form-urlencoded/i.test(type);
/** Answers passed on as text: capped in characters and redacted. Everything else is bytes. */
export const isTextual = (type: string) => isJson(type) || isText(type);

/** The note that says an answer was cut, and how to see more. */
const cutNote = (limit: number) =>
  `[cut: the upstream API's answer is longer than ${limit} characters; only the first ${limit} are shown ` +
  "(raise --max-upstream-body / MCP_MAX_UPSTREAM_BODY to see more)]";

/** The first `limit` characters of a cut body, with no partial credential at the cut. */
function cutText(response: UpstreamResponse, limit: number): string {
  const text = response.body.toString("utf8").slice(0, limit);
  return response.redact ? response.redact.cutEnd(text) : text;
}

/** A tool result from an upstream response: JSON objects as structuredContent, errors as isError. */
export function toolResultFrom(response: UpstreamResponse): ToolHandlerResult {
  return toolAnswerFrom(response).result;
}

/**
 * The tool result, plus what the response budget (package/response-budget.ts) works on: the parsed JSON
 * answer of a 2xx response (redacted like structuredContent, arrays too) and the Link header.
 */
export type ToolAnswer = { result: ToolHandlerResult; json?: unknown; link?: string };

export function toolAnswerFrom(response: UpstreamResponse): ToolAnswer {
  const link = response.link === undefined ? {} : { link: response.link };
  const answer = answerOf(response);
  // Only the JSON branch below answers with the parsed value; every other one is a plain result.
  return "json" in answer ? { ...(answer as ToolAnswer), ...link } : { result: answer, ...link };
}

function answerOf(response: UpstreamResponse): ToolHandlerResult | ToolAnswer {
  const ok = response.status >= 200 && response.status < 300;
  const limit = response.cutAt;
  if (!ok) {
    const body = limit === undefined ? response.body.toString("utf8") : cutText(response, limit);
    const excerpt = truncate(body, EXCERPT);
    const text = `Upstream API answered ${response.status} ${response.statusText}${excerpt ? `: ${excerpt}` : ""}`;
    return { isError: true, content: [{ type: "text", text }] };
  }
  if (response.body.length === 0)
    return { content: [{ type: "text", text: `Upstream API answered ${response.status}` }] };
  if (limit !== undefined) {
    if (isJson(response.contentType)) {
      // Cut JSON is no longer JSON: it cannot be structuredContent, nor meet an outputSchema. An error result
      // says so plainly and still carries the text, so the model sees the data and why it is partial.
      return {
        isError: true,
        content: [
          { type: "text", text: `${cutNote(limit)} The answer was JSON; it is sent as text, not structuredContent.` },
          { type: "text", text: cutText(response, limit) },
        ],
      };
    }
    if (isText(response.contentType))
      return { content: [{ type: "text", text: `${cutText(response, limit)}\n${cutNote(limit)}` }] };
    const note = `Upstream API answered more than ${limit} bytes of ${response.contentType}; not passed on`;
    return { isError: true, content: [{ type: "text", text: note }] };
  }
  if (isJson(response.contentType)) {
    const text = response.body.toString("utf8");
    try {
      const parsed: unknown = JSON.parse(text);
      // The text was redacted already; a credential can survive only behind JSON escapes (\u0073ecret, \/).
      const value = response.redact && text.includes("\\") ? response.redact.value(parsed) : parsed;
      const content: ContentBlock[] = [{ type: "text", text: text }];
      if (value !== null && typeof value === "object" && !Array.isArray(value)) {
        return { result: { content, structuredContent: value as Record<string, unknown> }, json: value };
      }
      return { result: { content }, json: value };
    } catch {
      return { content: [{ type: "text", text: text }] };
    }
  }
  if (response.contentType.startsWith("image/")) {
    return {
      content: [
        { type: "image", data: response.body.toString("base64"), mimeType: response.contentType.split(";")[0] },
      ],
    };
  }
  if (isText(response.contentType)) return { content: [{ type: "text", text: response.body.toString("utf8") }] };
  const note = `Upstream API answered ${response.body.length} bytes of ${response.contentType}`;
  return { content: [{ type: "text", text: note }] };
}

/** Resource contents from an upstream response; a non-2xx answer is an error the caller turns into JSON-RPC. */
export function resourceContentsFrom(
  uri: string,
  mimeType: string | undefined,
  response: UpstreamResponse,
): ReadResourceResult {
  if (response.status < 200 || response.status >= 300) {
    throw new Error(`Upstream API answered ${response.status} ${response.statusText} for ${uri}`);
  }
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

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… [truncated ${text.length - limit} characters]`;
}
