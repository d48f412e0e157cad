// The weather REST API as the scale-out tests need it: it answers every route of specs/weather.yaml,
// records every request it receives (so a test can prove a call ran upstream at most once), and holds
// any request whose city or station starts with "hang-" until the test releases it (so calls are in
// flight when an instance is killed or stopped).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type UpstreamRecord = { method: string; path: string; key: string; body: string; requestId?: string };

export type RecordingUpstream = {
  url: string;
  records: UpstreamRecord[];
  /** How many requests the upstream received for this city or station. */
  count(key: string): number;
  /** Requests waiting on a hang- key right now. */
  hanging(): number;
  /** Answers every held request, and those arriving later, at once. */
  releaseHangs(): void;
  close(): Promise<void>;
};

export async function startRecordingUpstream(): Promise<RecordingUpstream> {
  const records: UpstreamRecord[] = [];
  const counts = new Map<string, number>();
  let held: Array<() => void> = [];
  let released = false;
  const server = createServer(async (req, res) => {
    const body = await readAll(req);
    const path = new URL(req.url ?? "/", "http://upstream").pathname;
    const key = decodeURIComponent(keyOf(req.method ?? "", path, body));
    const requestId = req.headers["x-request-id"];
    records.push({
      method: req.method ?? "",
      path,
      key,
      body,
      ...(typeof requestId === "string" ? { requestId } : {}),
    });
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (key.startsWith("hang-") && !released) await new Promise<void>((resolve) => held.push(resolve));
    answer(req.method ?? "", path, key, res);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const upstream: RecordingUpstream = {
    url: `http://127.0.0.1:${port}/v1`,
    records,
    count: (key) => counts.get(key) ?? 0,
    hanging: () => held.length,
    releaseHangs() {
      released = true;
      for (const resolve of held) resolve();
      held = [];
    },
    async close() {
      upstream.releaseHangs();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return upstream;
}

/** The city (forecast) or station (observation, reset) a request is about: the test's unique id per call. */
function keyOf(method: string, path: string, body: string): string {
  const forecast = /^\/v1\/forecast\/([^/]+)$/.exec(path);
  if (forecast) return forecast[1];
  const reset = /^\/v1\/stations\/([^/]+)\/reset$/.exec(path);
  if (reset) return reset[1];
  if (method === "POST" && path === "/v1/observations") {
    try {
      return String((JSON.parse(body) as { station?: unknown }).station);
    } catch {
      return "";
    }
  }
  return path;
}

function answer(method: string, path: string, key: string, res: ServerResponse): void {
  const [status, value] = route(method, path, key);
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

function route(method: string, path: string, key: string): [number, unknown] {
  if (method === "GET" && path.startsWith("/v1/forecast/"))
    return [200, { city: key, days: [{ date: "2026-11-24", highC: 12, lowC: 4, summary: "clear" }] }];
  if (method === "POST" && path === "/v1/observations") return [201, { accepted: key }];
  if (method === "POST" && path.endsWith("/reset")) return [200, { station: key, period: 1 }];
  if (method === "GET" && path === "/v1/stations") return [200, [{ id: "st-1", city: "Paris" }]];
  if (method === "GET" && path === "/v1/alerts") return [200, []];
  return [404, { error: `no route ${method} ${path}` }];
}

async function readAll(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}
