// The `metrics` feature: --metrics, Prometheus metrics at /metrics (runtime/transport/http/metrics.ts,
// prom-client).
import type { Feature } from "../package/feature.ts";
import { createMetrics } from "../transport/http/metrics.ts";

export const metricsFeature: Feature = { name: "metrics", http: { createMetrics } };
