// Where a server's operator messages go (issue 18 §3): lines of text on stderr, as always, or with
// --log-format json one JSON object per line ({"time","level","msg",...}) that a log pipeline can parse,
// plus an access line per HTTP request. Nothing here ever sees arguments, results or tokens: callers pass
// only what is safe to keep.
export type LogFormat = "text" | "json";
export type LogLevel = "info" | "warn" | "error";
export type LogFields = Record<string, string | number | boolean | undefined>;

let format: LogFormat = "text";

export function setLogFormat(next: LogFormat): void {
  format = next;
}

export function logFormat(): LogFormat {
  return format;
}

export function log(level: LogLevel, msg: string, fields: LogFields = {}): void {
  if (format === "text") {
    process.stderr.write(`${msg}\n`);
    return;
  }
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`);
}

/** The access line of one HTTP request; JSON logs only (text mode keeps stderr as quiet as before). */
export function logRequest(fields: LogFields): void {
  if (format === "json") log("info", "request", fields);
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
