// A small OTLP/HTTP receiver on 127.0.0.1 for the tracing tests: it decodes what either exporter sends (POST
// /v1/traces, an ExportTraceServiceRequest as protobuf, OTLP's default, or as JSON, ids in hex) into flat spans.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeTraceRequest } from "./otlp-protobuf.ts";

type AnyValue = { stringValue?: string; intValue?: number | string; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano?: string;
  endTimeUnixNano?: string;
  attributes?: KeyValue[];
  status?: { code?: number; message?: string };
  links?: { traceId: string; spanId: string }[];
};
type ExportRequest = {
  resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
};

export type ReceivedSpan = {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string; // "" for a root span
  name: string;
  kind: "internal" | "server" | "client" | "producer" | "consumer" | "unspecified";
  attributes: Record<string, string | number | boolean>;
  status: number; // 0 unset, 1 ok, 2 error
  start: string; // Unix time in nanoseconds, decimal (compare as BigInt)
  end: string;
  links: { traceId: string; spanId: string }[];
};

const KINDS = ["unspecified", "internal", "server", "client", "producer", "consumer"] as const;

function plain(value: AnyValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  return value.doubleValue ?? "";
}

/** A time as either encoding gives it (a decimal string, or a number in JSON); "0" when absent. */
const nanos = (value: unknown) => (typeof value === "string" || typeof value === "number" ? String(value) : "0");

const attributesOf = (list: KeyValue[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, plain(value)]));

export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== "POST" || req.url !== "/v1/traces") {
      res.writeHead(404).end();
      return;
    }
    const contentType = String(req.headers["content-type"]);
    contentTypes.push(contentType);
    const bytes = Buffer.concat(chunks);
    const body = (
      contentType.startsWith("application/x-protobuf") ? decodeTraceRequest(bytes) : JSON.parse(bytes.toString("utf8"))
    ) as ExportRequest;
    for (const resource of body.resourceSpans ?? []) {
      const service = String(attributesOf(resource.resource?.attributes)["service.name"] ?? "");
      for (const scope of resource.scopeSpans ?? [])
        for (const span of scope.spans ?? [])
          spans.push({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? "",
            name: span.name,
            kind: KINDS[span.kind] ?? "unspecified",
            attributes: attributesOf(span.attributes),
            status: span.status?.code ?? 0,
            start: nanos(span.startTimeUnixNano),
            end: nanos(span.endTimeUnixNano),
            links: span.links ?? [],
          });
    }
    // An empty ExportTraceServiceResponse: no bytes in protobuf, `{}` in JSON.
    const protobuf = contentType.startsWith("application/x-protobuf");
    res
      .writeHead(200, { "content-type": protobuf ? "application/x-protobuf" : "application/json" })
      .end(protobuf ? "" : "{}");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    /** Waits until a span matches (the exporters send in batches). */
    async waitFor(match: (span: ReceivedSpan) => boolean, timeoutMs = 15_000): Promise<ReceivedSpan> {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = spans.find(match);
        if (found) return found;
        if (Date.now() > until) throw new Error(`no such span; received: ${spans.map((s) => s.name).join(", ")}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
