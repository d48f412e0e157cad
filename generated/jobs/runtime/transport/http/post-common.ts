// What both POST handlers (post-2025.ts, post-2026.ts) share: their context and small request readers.
import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode } from "../../protocol/constants.ts";
import { McpError } from "../../protocol/errors.ts";
import type { JsonObject, JsonRpcMessage } from "../../protocol/types.ts";
import { decodeHeaderValue } from "./header-encoding.ts";
import type { HttpState } from "./http-state.ts";
import { keepLast } from "./raw-headers.ts";

export type PostHandler = (
  state: HttpState,
  req: IncomingMessage,
  res: ServerResponse,
  message: JsonRpcMessage,
) => Promise<void>;

/** The methods whose target travels in the Mcp-Name header, and the param holding it. */
export const NAMED_METHODS: Record<string, "name" | "uri" | "taskId"> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  // The tasks extension routes a task's requests by its id (tasks.md "Routing Headers").
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

/** 2025-era routing headers, if sent, must match the body, or a proxy could resend an unsafe call (nginx.conf). */
export function routingHeaderMismatch(req: IncomingMessage, method: string, params: JsonObject): string | undefined {
  const sentMethod = header(req, "mcp-method");
  if (sentMethod !== undefined && sentMethod !== method)
    return `Mcp-Method header '${sentMethod}' does not match body method '${method}'`;
  const sentName = header(req, "mcp-name");
  const field = Object.hasOwn(NAMED_METHODS, method) ? NAMED_METHODS[method] : undefined;
  if (sentName === undefined) return undefined;
  if (!field || decodeHeaderValue(sentName) !== params[field])
    return `Mcp-Name header '${sentName}' does not match the body`;
  return undefined;
}

export function isTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout;
}

export function invalidRequest(message: string, data?: unknown) {
  return { code: ErrorCode.InvalidRequest, message, ...(data === undefined ? {} : { data }) };
}

export { repeatedMcpHeader } from "./raw-headers.ts";

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

// Media types parsed per RFC 9110 (§8.3.1, §12.5.1): a substring match takes `text/plain; x=application/json`.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^(${TOKEN})/(${TOKEN})[ \\t]*`);
const PARAMETER = new RegExp(`^;[ \\t]*(?:(${TOKEN})=(${TOKEN}|"(?:[^"\\\\]|\\\\.)*")[ \\t]*)?`);

/** `type/subtype` (lowercased) and its parameters; undefined when it is not valid RFC 9110 syntax. */
function parseMediaType(text: string): { essence: string; params: Map<string, string> } | undefined {
  const head = MEDIA_TYPE.exec(text.trim());
  if (!head) return undefined;
  const params = new Map<string, string>();
  let rest = text.trim().slice(head[0].length);
  while (rest !== "") {
    const param = PARAMETER.exec(rest);
    if (!param) return undefined;
    // An empty parameter (`;;`) is allowed by the grammar and means nothing.
    const value = param[2]?.startsWith('"') ? param[2].slice(1, -1).replace(/\\(.)/g, "$1") : param[2];
    if (param[1] !== undefined) params.set(param[1].toLowerCase(), value);
    rest = rest.slice(param[0].length);
  }
  return { essence: `${head[1]}/${head[2]}`.toLowerCase(), params };
}

/** Whether a Content-Type value names exactly `essence` (e.g. "application/json"), whatever its parameters. */
export function isMediaType(value: string, essence: string): boolean {
  return essenceOf(value) === essence;
}

/** Whether Accept lists text/event-stream itself (not only a wildcard) with a weight above zero. */
export function acceptsSse(req: IncomingMessage): boolean {
  return req.headers.accept !== undefined && acceptValueAllowsSse(req.headers.accept);
}

const essenceOf = keepLast((value: string) => parseMediaType(value)?.essence);
const acceptValueAllowsSse = keepLast(parseAcceptsSse);

function parseAcceptsSse(accept: string): boolean {
  // The comma-separated ranges, commas inside quoted strings left alone.
  for (const range of accept.match(/(?:[^,"]|"(?:[^"\\]|\\[\s\S])*"?)+/g) ?? []) {
    const parsed = parseMediaType(range);
    if (parsed?.essence !== "text/event-stream") continue;
    const weight = parsed.params.get("q");
    if (weight === undefined || !/^0(?:\.0{0,3})?$/.test(weight)) return true;
  }
  return false;
}
