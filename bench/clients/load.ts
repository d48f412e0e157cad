// Drives `total` echo calls through a connection with a fixed number in flight,
// timing each round trip. Every answer is checked, so a server that drops or
// mangles calls cannot look fast.
import { performance } from "node:perf_hooks";
import { quantile } from "../lib/stats.ts";
import type { RawConnection } from "./raw-connection.ts";

export type LoadResult = { callsPerSecond: number; p50Ms: number; p99Ms: number };

export const ECHO_TEXT = "hello, mcp";

export async function runEchoLoad(connection: RawConnection, total: number, inFlight: number): Promise<LoadResult> {
  const latencies = new Float64Array(total);
  let issued = 0;
  const worker = async () => {
    while (issued < total) {
      const index = issued++;
      const started = performance.now();
      const result = (await connection.call("tools/call", { name: "echo", arguments: { text: ECHO_TEXT } })) as {
        content?: { text?: string }[];
        isError?: boolean;
      };
      latencies[index] = performance.now() - started;
      if (result?.isError || result?.content?.[0]?.text !== ECHO_TEXT) {
        throw new Error(`unexpected echo answer: ${JSON.stringify(result).slice(0, 300)}`);
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  const elapsed = performance.now() - started;
  latencies.sort();
  return {
    callsPerSecond: (total / elapsed) * 1000,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
  };
}
