// The `otel` feature: --otel, OpenTelemetry traces of each request and upstream call (server-spans.ts), exported over
// OTLP/HTTP as OpenTelemetry's variables say (tracing.ts). Without --otel it adds nothing and loads no library.
import type { Feature, FeatureInput, FeatureSetup, Instrument } from "../../package/feature.ts";
import { log } from "../../server/log.ts";
import type { McpServer } from "../../server/server.ts";
import { serverInstrument } from "./server-spans.ts";
import { tracedSessions } from "./session-spans.ts";
import { tracedStore } from "./store-spans.ts";
import { startTracing, type Tracing } from "./tracing.ts";

/** Set by configure with --otel: starts the SDK once the server (whose name is the default service name) exists;
 * `idle` settles once the requests being traced have ended. */
let pending:
  | { start(server: McpServer): Promise<Tracing | undefined>; instrument: Instrument & { idle(): Promise<void> } }
  | undefined;

export const otelFeature: Feature = {
  name: "otel",
  configure,
  serve(server) {
    if (!pending) return;
    const { start, instrument } = pending;
    pending = undefined;
    traceRequests(server, instrument);
    const ready = start(server);
    // Spans are sent in batches: once the requests still running have ended, the last ones go out before the
    // server exits (a stdio server, and an HTTP one stopped by SIGTERM, wait for this).
    server.onClose(async () => {
      const tracing = await ready;
      if (tracing) await instrument.idle().then(() => tracing.flush());
    });
  },
};

function configure({ values, sources, http, env, earlier }: FeatureInput): FeatureSetup | string {
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
  const instrument = serverInstrument(ready, { transport: http ? "tcp" : "pipe", captureArgs });
  const start = (server: McpServer) => {
    resolve(begin(server, env));
    return ready;
  };
  pending = { start, instrument };
  // The redis feature's task store (configured before this one; the tasks feature, after, reads it traced).
  const shared = earlier.server?.sharedStore;
  return {
    server: { instrument, ...(shared ? { sharedStore: tracedStore(shared, instrument) } : {}) },
    // The redis feature's sessions (--session-store), whose store the transport opens once listening.
    ...(earlier.http?.sessionStore && { http: { traceSessions: (store) => tracedSessions(store, instrument) } }),
  };
}

/** Each request handled inside its span; the tool a forward (dynamic mode's call_tool) runs in a span of its own. */
function traceRequests(server: McpServer, instrument: Instrument): void {
  const handle = server.handleRequest.bind(server);
  server.handleRequest = (request, channel) => instrument.request(request, channel, () => handle(request, channel));
  const attributes = (tool: string) => ({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": tool });
  server.options.traceForward = (tool, run) => instrument.span(`tools/call ${tool}`, attributes(tool), run);
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
