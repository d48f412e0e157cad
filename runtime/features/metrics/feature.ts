// The `metrics` feature: --metrics, Prometheus metrics at /metrics (metrics.ts, prom-client).
import type { Feature, FeatureInput, FeatureSetup } from "../../package/feature.ts";
import { createMetrics } from "./metrics.ts";

export const metricsFeature: Feature = { name: "metrics", configure, http: { createMetrics } };

function configure({ values }: FeatureInput): FeatureSetup {
  const metricsPort = values["metrics-port"] as number | undefined;
  if (values.metrics !== true && metricsPort === undefined) return {};
  return { http: { metrics: metricsPort === undefined ? {} : { port: metricsPort } } };
}
