// A REST job API on 127.0.0.1, as long-running operations are usually wrapped: POST /exports starts a job and
// answers 202 with a Location; the Location answers 202 (running) `runningPolls` times, then the result. Each
// job's behaviour is chosen by the start request's `mode`; every request is recorded.
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type JobMode = "ok" | "fail" | "never" | "elsewhere" | "see-other" | "status-doc";
type Job = { id: string; mode: JobMode; polls: number; cancelled: boolean; rows: number };
export type JobRequest = { method: string; path: string; body: string; authorization?: string };

export type JobApi = {
  url: string;
  requests: JobRequest[];
  jobs: Map<string, Job>;
  starts(): number;
  close(): Promise<void>;
};

export async function startJobApi(runningPolls = 2): Promise<JobApi> {
  const requests: JobRequest[] = [];
  const jobs = new Map<string, Job>();
  let next = 1;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const path = new URL(req.url ?? "/", "http://job-api").pathname;
    requests.push({ method: req.method ?? "", path, body, authorization: req.headers.authorization });
    const send = (status: number, json?: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { ...(json === undefined ? {} : { "content-type": "application/json" }), ...headers });
      res.end(json === undefined ? undefined : JSON.stringify(json));
    };
    if (req.method === "POST" && path === "/exports") {
      const { mode = "ok", rows = 42 } = body ? (JSON.parse(body) as { mode?: JobMode; rows?: number }) : {};
      const id = String(next++);
      jobs.set(id, { id, mode, polls: 0, cancelled: false, rows });
      const location = mode === "elsewhere" ? `http://localhost:${port}/exports/${id}` : `/exports/${id}`;
      return send(202, { id, state: "queued" }, { location, "retry-after": "0" });
    }
    const match = /^\/exports\/(\d+)(\/result)?$/.exec(path);
    const job = match && jobs.get(match[1]);
    if (!job) return send(404, { error: `no export ${path}` });
    const result = { id: job.id, url: `http://127.0.0.1:${port}/files/${job.id}.csv`, rows: job.rows, format: "csv" };
    if (match[2]) return send(200, result);
    if (req.method === "DELETE") {
      job.cancelled = true;
      return send(204);
    }
    job.polls++;
    if (job.cancelled) return send(200, { id: job.id, state: "cancelled" });
    const running = job.mode === "never" || job.polls <= runningPolls;
    if (job.mode === "status-doc") {
      if (running) return send(200, { id: job.id, state: "running" });
      return send(200, { id: job.id, state: "done", result: { rows: job.rows } });
    }
    if (running) return send(202, { id: job.id, state: "running" }, { "retry-after": "0" });
    if (job.mode === "fail") return send(422, { error: "the export failed: table is locked" });
    if (job.mode === "see-other") return send(303, undefined, { location: `/exports/${job.id}/result` });
    return send(200, result);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    jobs,
    starts: () => requests.filter((request) => request.method === "POST").length,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
