// What the HTTP transport knows of one request for its logs and metrics (issue 18 §3), beside it in a WeakMap.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { JsonRpcMessage } from "../../protocol/types.ts";
import { boundLogValue } from "../../server/log.ts";

export type RequestRecord = {
  id: string;
  started: number;
  method?: string;
  tool?: string;
  era?: "2025" | "2026";
  errorCode?: number;
  toolError?: boolean; // a tools/call answered with isError: true (the tool failed, the protocol did not)
  trace?: Record<string, string>; // --otel: the server span's trace_id and span_id
};

// On the request under a symbol (a response finds it through res.req): WeakMap entries cost GC ephemeron work.
const RECORD = Symbol("mcpgen.requestRecord");
type Recorded = IncomingMessage & { [RECORD]?: RequestRecord };
/** Ids a proxy or client may set: long enough for a UUID or a trace id, nothing that could forge a log line. */
const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function startRecord(req: IncomingMessage): RequestRecord {
  const given = req.headers["x-request-id"];
  const id = typeof given === "string" && VALID_ID.test(given) ? given : randomUUID();
  const record: RequestRecord = { id, started: performance.now() };
  (req as Recorded)[RECORD] = record;
  return record;
}

export function noteAnswer(res: ServerResponse, message: JsonRpcMessage | undefined): void {
  const record = (res.req as Recorded | undefined)?.[RECORD];
  if (!record || !message) return;
  if ("error" in message && message.error) record.errorCode = message.error.code;
  else if ("result" in message && (message.result as { isError?: unknown }).isError === true) record.toolError = true;
}

export function noteRequest(req: IncomingMessage, message: JsonRpcMessage, era: "2025" | "2026"): void {
  const record = (req as Recorded)[RECORD];
  if (!record) return;
  record.era = era;
  if (!("method" in message)) return;
  // Both are the client's text: kept bounded (they live as long as the request and feed logs and metrics).
  record.method = boundLogValue(message.method);
  const name = message.params?.name;
  if (message.method === "tools/call" && typeof name === "string") record.tool = boundLogValue(name);
}

export function recordOf(req: IncomingMessage): RequestRecord | undefined {
  return (req as Recorded)[RECORD];
}
