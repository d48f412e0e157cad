// The `metrics` feature: --metrics, Prometheus metrics at /metrics (runtime/features/metrics/metrics.ts,
// prom-client).
import type { Feature } from "../../package/feature.ts";
import { createMetrics } from "./metrics.ts";

export const metricsFeature: Feature = { name: "metrics", http: { createMetrics } };
