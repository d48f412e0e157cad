// The `otel` feature's flags (runtime/package/server-flags.ts has the record's fields). Where spans go and which
// are kept is OpenTelemetry's own environment (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER).
import type { FlagSet } from "../../package/server-flags.ts";

export const otelFlags: FlagSet = {
  group: "otel",
  title: "Tracing (OpenTelemetry)",
  flags: [
    {
      flag: "otel",
      env: "MCP_OTEL",
      kind: "boolean",
      default: "false",
      turnsOn: "OpenTelemetry traces",
      help: "trace each request (MCP semantic conventions), continuing the client's trace from _meta.traceparent, with a child span per upstream call; spans go over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (unset: nowhere)",
      doc: "trace each request as an MCP server span (the OpenTelemetry semantic conventions for MCP), continuing the client's trace from `_meta.traceparent` (else the HTTP `traceparent` header), with a child span per upstream call (which gets the W3C headers); spans go over OTLP/HTTP (`OTEL_EXPORTER_OTLP_PROTOCOL`: `http/protobuf`, the default, or `http/json`) to `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), unset: nowhere; `OTEL_SERVICE_NAME` names the service, `OTEL_TRACES_SAMPLER` (and `_ARG`) picks which traces are kept (docs/tracing.md)",
    },
    {
      flag: "otel-capture-args",
      env: "MCP_OTEL_CAPTURE_ARGS",
      kind: "boolean",
      default: "false",
      turnsOn: "tool arguments in spans",
      help: "record each tool call's arguments in its span (gen_ai.tool.call.arguments); off, no argument value, result or token is ever in a span",
    },
  ],
};
