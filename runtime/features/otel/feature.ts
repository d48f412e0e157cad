// The `otel` feature: --otel, OpenTelemetry traces of each request and upstream call (server-spans.ts), exported over
// OTLP/HTTP as OpenTelemetry's variables say (tracing.ts). Without --otel it adds nothing and loads no library.
import type { Feature, FeatureInput, FeatureSetup } from "../../package/feature.ts";
import { log } from "../../server/log.ts";
import type { McpServer } from "../../server/server.ts";
import { serverInstrument } from "./server-spans.ts";
import { startTracing, type Tracing } from "./tracing.ts";

/** Set by configure with --otel: starts the SDK once the server (whose name is the default service name) exists. */
let start: ((server: McpServer) => Promise<Tracing | undefined>) | undefined;

export const otelFeature: Feature = {
  name: "otel",
  configure,
  serve(server) {
    if (!start) return;
    const ready = start(server);
    start = undefined;
    // Spans are sent in batches: the last ones go out before a stdio server exits.
    server.onClose(() => ready.then((tracing) => tracing?.flush()));
  },
};

function configure({ values, sources, http, env }: FeatureInput): FeatureSetup | string {
  const captureArgs = values["otel-capture-args"] === true;
  if (values.otel !== true) {
    if (captureArgs)
      return `${sources["otel-capture-args"]} records tool arguments in spans: it needs --otel (MCP_OTEL=1)`;
    return {};
  }
  let resolve: (tracing: Promise<Tracing | undefined>) => void = () => {};
  const ready = new Promise<Tracing | undefined>((settle) => {
    resolve = settle;
  });
  start = (server) => {
    resolve(begin(server, env));
    return ready;
  };
  return { server: { instrument: serverInstrument(ready, { transport: http ? "tcp" : "pipe", captureArgs }) } };
}

async function begin(server: McpServer, env: NodeJS.ProcessEnv): Promise<Tracing | undefined> {
  try {
    const { name, version } = server.info;
    const tracing = await startTracing({
      serviceName: name,
      serviceVersion: version,
      env,
      warn: (line) => log("warn", line),
    });
    if (tracing.endpoint) log("info", `traces to ${tracing.endpoint}`, { url: tracing.endpoint });
    else
      log(
        "warn",
        "--otel: no OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), so spans are sent nowhere; their ids still go into JSON logs and upstream traceparent headers",
      );
    return tracing;
  } catch (error) {
    log("error", `--otel: OpenTelemetry could not start (${(error as Error).message}); serving without traces`);
    return undefined;
  }
}
