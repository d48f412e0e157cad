// Upstream answers as MCP results: JSON objects become structuredContent (plus text), other text stays
// text, images become image content, large bodies are cut with a note, non-2xx answers become errors.
import type { ToolHandlerResult } from "./server-types.ts";
import type { ContentBlock, ReadResourceResult } from "./types.ts";
import type { UpstreamResponse } from "./upstream-types.ts";

const EXCERPT = 500;
const MAX_TEXT = 1_000_000;

const isJson = (type: string) => /^application\/([\w.+-]+\+)?json\b/i.test(type);
const isText = (type: string) => type === "" || /^text\/|xml|javascript|yaml|x-www-form-urlencoded/i.test(type);

/** A tool result from an upstream response: JSON objects as structuredContent, errors as isError. */
export function toolResultFrom(response: UpstreamResponse): ToolHandlerResult {
  const ok = response.status >= 200 && response.status < 300;
  if (!ok) {
    const excerpt = truncate(response.body.toString("utf8"), EXCERPT);
    const text = `Upstream API answered ${response.status} ${response.statusText}${excerpt ? `: ${excerpt}` : ""}`;
    return { isError: true, content: [{ type: "text", text }] };
  }
  if (response.body.length === 0)
    return { content: [{ type: "text", text: `Upstream API answered ${response.status}` }] };
  if (isJson(response.contentType)) {
    const text = response.body.toString("utf8");
    try {
      const value: unknown = JSON.parse(text);
      const content: ContentBlock[] = [{ type: "text", text: truncate(text, MAX_TEXT) }];
      if (value !== null && typeof value === "object" && !Array.isArray(value)) {
        return { content, structuredContent: value as Record<string, unknown> };
      }
      return { content };
    } catch {
      return { content: [{ type: "text", text: truncate(text, MAX_TEXT) }] };
    }
  }
  if (response.contentType.startsWith("image/")) {
    return {
      content: [
        { type: "image", data: response.body.toString("base64"), mimeType: response.contentType.split(";")[0] },
      ],
    };
  }
  if (isText(response.contentType))
    return { content: [{ type: "text", text: truncate(response.body.toString("utf8"), MAX_TEXT) }] };
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
  if (isJson(response.contentType) || isText(response.contentType)) {
    return { contents: [{ uri, mimeType: type, text: response.body.toString("utf8") }] };
  }
  return { contents: [{ uri, mimeType: type, blob: response.body.toString("base64") }] };
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… [truncated ${text.length - limit} characters]`;
}
