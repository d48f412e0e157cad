/**
 * One official SDK client session with the GitHub server (all of @octokit/openapi) in a serving mode,
 * behind Prism: what the dynamic-mode and code-mode end-to-end suites share. Generates into `out`
 * while Prism reads the document (a minute or more on a busy machine), then serves over HTTP.
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect } from "vitest";
import { generate } from "../../generator/index.ts";
import { ROOT, type RunningHttpServer, startHttpServer } from "../generate/support.ts";
import { type Prism, startPrism } from "./prism.ts";

export const GITHUB = join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");

export type GithubSession = { client: Client; stop(): Promise<void> };

export async function githubSession(out: string, mode: "dynamic" | "code", name: string): Promise<GithubSession> {
  let prism: Prism | undefined;
  let server: RunningHttpServer | undefined;
  const client = new Client({ name, version: "1.0.0" });
  const stop = async () => {
    await client.close();
    await server?.stop();
    await prism?.stop();
  };
  try {
    const starting = startPrism(GITHUB, { dynamic: true, startTimeoutMs: 240_000 }).then((started) => {
      prism = started; // so stop() ends it even when generating failed
      return started;
    });
    starting.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
    // The mode served is the one feature the package needs (GitHub's 1,223 tools alone would bring dynamic).
    const result = await generate(GITHUB, out, { features: [mode] });
    const { url } = await starting;
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    server = await startHttpServer(out, ["--base-url", url, "--mode", mode], { GITHUB_V3_REST_API_TOKEN: "t" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    return { client, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
