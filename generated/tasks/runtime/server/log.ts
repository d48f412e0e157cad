// Operator messages on stderr: text lines, or with --log-format json one JSON object per line plus an access
// line per HTTP request. Callers pass only what is safe to keep (never arguments, results or tokens).
export type LogFormat = "text" | "json";
export type LogLevel = "info" | "warn" | "error";
export type LogFields = Record<string, string | number | boolean | undefined>;

let format: LogFormat = "text";
let contextFields: (() => LogFields | undefined) | undefined; // --otel: the active span's trace_id and span_id

export function addLogContext(fields: typeof contextFields): void {
  contextFields = fields;
}

export function setLogFormat(next: LogFormat): void {
  format = next;
}

export function log(level: LogLevel, msg: string, fields: LogFields = {}): void {
  const all = contextFields ? { ...contextFields(), ...fields } : fields;
  const line = format === "text" ? msg : JSON.stringify({ time: new Date().toISOString(), level, msg, ...all });
  process.stderr.write(`${line}\n`);
}

/** Characters of one client-chosen value (a method, a tool name) the request record keeps for the log. */
export const MAX_LOG_VALUE_CHARS = 128;
const MAX_LOG_FIELD_CHARS = 256; // every string field of an access line at most: a backstop for fields added later

/** Whether access lines are written (JSON logs): without them a transport skips gathering their fields. */
export function logsRequests(): boolean {
  return format === "json";
}

/** The access line of one HTTP request; JSON logs only (text mode keeps stderr as quiet as before). A client
 * chooses most of its values, and one 3 MB method name must not become a 3 MB log line. */
export function logRequest(fields: LogFields): void {
  if (format !== "json") return;
  const bounded: LogFields = {};
  for (const [key, value] of Object.entries(fields))
    bounded[key] = typeof value === "string" ? boundLogValue(value, MAX_LOG_FIELD_CHARS) : value;
  log("info", "request", bounded);
}

/** A client-chosen text cut for a log line, saying how much was left out. */
export function boundLogValue(text: string, max = MAX_LOG_VALUE_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}...(${text.length - max} more characters)`;
}

/** Upstream calls, for metrics (set by --metrics; a no-op otherwise). */
export type UpstreamObserver = (target: string, status: number | "error", seconds: number) => void;
let upstreamObserver: UpstreamObserver | undefined;

export function observeUpstreamWith(observer: UpstreamObserver | undefined): void {
  upstreamObserver = observer;
}

export function observeUpstream(target: string, status: number | "error", seconds: number): void {
  upstreamObserver?.(target, status, seconds);
}
