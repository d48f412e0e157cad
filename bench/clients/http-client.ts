// Raw JSON-RPC over Streamable HTTP: one POST per message on keep-alive
// sockets, JSON or SSE answers, the 2025-era Mcp-Session-Id and
// MCP-Protocol-Version headers echoed back. Also starts HTTP servers as child
// processes and waits for their "listening on <url>" line.
import { type ChildProcess, spawn } from "node:child_process";
import { Agent, request } from "node:http";
import type { JsonRpcAnswer } from "./json.ts";
import { type RawConnection, RpcError } from "./raw-connection.ts";
import type { StdioTarget } from "./stdio-client.ts";

export type HttpServerProcess = { url: string; child: ChildProcess; stderr(): string; stop(): Promise<void> };

/** Starts a server that prints `listening on http://…` to stderr once it accepts connections. */
export function startHttpServer(target: StdioTarget, timeoutMs = 30_000): Promise<HttpServerProcess> {
  const child = spawn(target.command, target.args, { cwd: target.cwd, env: target.env ?? process.env, stdio: "pipe" });
  let stderr = "";
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill("SIGKILL"), 2000);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill("SIGTERM");
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`no "listening on" line within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.stdout?.resume();
    child.stderr?.setEncoding("utf8");
    let listening = false;
    child.stderr?.on("data", (chunk: string) => {
      stderr += chunk;
      // Searched only until found: a server writing an access line per request (--log-format json) would make
      // the bench's own client rescan megabytes per chunk.
      const match = listening ? null : /listening on (http:\/\/[^\s"]+)/.exec(stderr);
      if (match) {
        listening = true;
        clearTimeout(timer);
        resolve({ url: match[1], child, stderr: () => stderr, stop });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening: ${stderr}`));
    });
  });
}

/** `extraHeaders`: sent with every POST (e.g. an `authorization` bearer token). */
export function connectHttp(
  url: string,
  server?: HttpServerProcess,
  extraHeaders: Record<string, string> = {},
): RawConnection {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const target = new URL(url);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...extraHeaders,
  };
  let nextId = 1;

  const post = (body: string) =>
    new Promise<{ status: number; type: string; text: string; session?: string }>((resolve, reject) => {
      const req = request(
        { host: target.hostname, port: target.port, path: target.pathname, method: "POST", agent, headers },
        (res) => {
          res.setEncoding("utf8");
          let text = "";
          res.on("data", (chunk: string) => {
            text += chunk;
          });
          res.on("end", () => {
            const session = res.headers["mcp-session-id"];
            resolve({
              status: res.statusCode ?? 0,
              type: res.headers["content-type"] ?? "",
              text,
              session: typeof session === "string" ? session : undefined,
            });
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });

  return {
    pid: server?.child.pid,
    async call(method, params) {
      const id = nextId++;
      const answer = await post(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
      if (answer.session) headers["mcp-session-id"] = answer.session;
      const message = answer.type.includes("text/event-stream")
        ? fromSse(answer.text, id)
        : (JSON.parse(answer.text) as JsonRpcAnswer);
      if (!message) throw new Error(`HTTP ${answer.status}: no response for id ${id} in ${answer.text.slice(0, 500)}`);
      if (message.error !== undefined) throw new RpcError(message.error);
      if (method === "initialize") {
        const version = (message.result as { protocolVersion?: string } | undefined)?.protocolVersion;
        if (version) headers["mcp-protocol-version"] = version;
      }
      return message.result ?? null;
    },
    async notify(method, params) {
      const answer = await post(JSON.stringify({ jsonrpc: "2.0", method, params }));
      if (answer.status >= 400) throw new Error(`HTTP ${answer.status} for ${method}: ${answer.text.slice(0, 500)}`);
    },
    stderr: () => server?.stderr() ?? "",
    async close() {
      agent.destroy();
      await server?.stop();
    },
  };
}

/** The JSON-RPC response with this id among the `data:` fields of an SSE body. */
function fromSse(text: string, id: number): JsonRpcAnswer | undefined {
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trimStart())
      .join("\n");
    if (!data) continue;
    const message = JSON.parse(data) as JsonRpcAnswer;
    if (message.id === id && message.method === undefined) return message;
  }
  return undefined;
}
