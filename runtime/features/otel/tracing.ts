// The OpenTelemetry SDK as the server (--otel) and the generated client (startTracing) set it up: a tracer provider
// with OpenTelemetry's standard environment (endpoint, service name, sampler), AsyncLocalStorage context and the
// W3C propagators. Loaded with import() only when tracing is turned on: a server without --otel loads none of it.
import type * as Api from "@opentelemetry/api";

export type Tracing = {
  api: typeof Api;
  tracer: Api.Tracer;
  /** W3C Trace Context and Baggage, which MCP's `_meta` carries (SEP-414). */
  propagator: Api.TextMapPropagator;
  /** W3C Trace Context only: what goes to the upstream API (the client's baggage is not passed on to it). */
  traceContext: Api.TextMapPropagator;
  /** Sends the spans still buffered; call it before exiting. */
  flush(): Promise<void>;
  /** Where spans go (the OTLP/HTTP traces URL), or undefined: made, never sent. */
  endpoint: string | undefined;
};

export type TracingOptions = {
  /** OTEL_SERVICE_NAME wins over it. */
  serviceName: string;
  serviceVersion?: string;
  env?: NodeJS.ProcessEnv;
  /** Told of a setting it cannot use (an unknown sampler). */
  warn?: (line: string) => void;
};

/** The traces URL from the standard variables: the traces-specific one as given, else the base plus /v1/traces. */
export function tracesEndpoint(env: NodeJS.ProcessEnv): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(/\/+$/, "")}/v1/traces` : undefined;
}

export async function startTracing(options: TracingOptions): Promise<Tracing> {
  const env = options.env ?? process.env;
  const [api, hooks, core, sdk, resources] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/context-async-hooks"),
    import("@opentelemetry/core"),
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/resources"),
  ]);
  const endpoint = tracesEndpoint(env);
  const processors = [];
  if (endpoint) {
    const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY);
    processors.push(
      new sdk.BatchSpanProcessor({
        exporter: await exporterFor(endpoint, env, options.warn),
        scheduledDelayMillis: Number.isFinite(delay) && delay >= 0 ? delay : 1000,
      }),
    );
  }
  const provider = new sdk.TracerProvider({
    resource: resources.resourceFromAttributes({
      "service.name": env.OTEL_SERVICE_NAME?.trim() || options.serviceName,
      ...(options.serviceVersion ? { "service.version": options.serviceVersion } : {}),
    }),
    sampler: samplerOf(sdk, env, options.warn),
    spanProcessors: processors,
  });
  const traceContext = new core.W3CTraceContextPropagator();
  const propagator = new core.CompositePropagator({ propagators: [traceContext, new core.W3CBaggagePropagator()] });
  // Global when nothing else set them first (the user's handlers then see the same tracer); false otherwise.
  const contextManager = new hooks.AsyncLocalStorageContextManager().enable();
  if (!api.context.setGlobalContextManager(contextManager)) contextManager.disable(); // the application's stays
  api.trace.setGlobalTracerProvider(provider);
  api.propagation.setGlobalPropagator(propagator);
  return {
    api,
    tracer: provider.getTracer("mcpgen", options.serviceVersion),
    propagator,
    traceContext,
    flush: () => provider.forceFlush(),
    endpoint,
  };
}

type Sdk = typeof import("@opentelemetry/sdk-trace");

/** OTLP over HTTP as OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL says: `http/protobuf` (the specification's default) or
 * `http/json`; gRPC is not offered (it would add a gRPC stack to every package with the feature). */
async function exporterFor(url: string, env: NodeJS.ProcessEnv, warn?: (line: string) => void) {
  const variable = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() ? "TRACES_PROTOCOL" : "PROTOCOL";
  const protocol = env[`OTEL_EXPORTER_OTLP_${variable}`]?.trim().toLowerCase() || "http/protobuf";
  if (protocol === "http/json")
    return new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter({ url });
  if (protocol !== "http/protobuf")
    warn?.(
      `OTEL_EXPORTER_OTLP_${variable}=${protocol} is not a protocol this server speaks (http/protobuf, http/json): sending http/protobuf to ${url}`,
    );
  return new (await import("@opentelemetry/exporter-trace-otlp-proto")).OTLPTraceExporter({ url });
}

/** OTEL_TRACES_SAMPLER (and OTEL_TRACES_SAMPLER_ARG, a ratio) as the OpenTelemetry specification names them. */
function samplerOf(sdk: Sdk, env: NodeJS.ProcessEnv, warn?: (line: string) => void): Api.Sampler {
  const name = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || "parentbased_always_on";
  const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  const ratio = arg && Number(arg) >= 0 && Number(arg) <= 1 ? Number(arg) : 1;
  const parentBased = (root: Api.Sampler) => new sdk.ParentBasedSampler({ root });
  switch (name) {
    case "always_on":
      return new sdk.AlwaysOnSampler();
    case "always_off":
      return new sdk.AlwaysOffSampler();
    case "traceidratio":
      return new sdk.TraceIdRatioBasedSampler(ratio);
    case "parentbased_always_off":
      return parentBased(new sdk.AlwaysOffSampler());
    case "parentbased_traceidratio":
      return parentBased(new sdk.TraceIdRatioBasedSampler(ratio));
    case "parentbased_always_on":
      return parentBased(new sdk.AlwaysOnSampler());
    default:
      warn?.(
        `OTEL_TRACES_SAMPLER=${name} is not a sampler this server knows (always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio): using parentbased_always_on`,
      );
      return parentBased(new sdk.AlwaysOnSampler());
  }
}
