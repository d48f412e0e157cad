// Change notifications across implementations. Every peer server has a "touch" tool that announces a
// tool-list change; the runtime server also announces an update of its static resource.
//   2025 era: unsolicited notifications on the session (stdio pipe, or the HTTP GET stream);
//             resources/subscribe + notifications/resources/updated.
//   2026-07-28: nothing arrives unsolicited; the client opens subscriptions/listen with a filter.
import { join } from "node:path";
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from "@modelcontextprotocol/client";
import { StdioClientTransport as V2Stdio } from "@modelcontextprotocol/client/stdio";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1Stdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as V1Http } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ConnectTarget, JsonRpcNotification } from "../../runtime/index.ts";
import { connect } from "../../runtime/index.ts";
import { type RunningServer, startServerProcess } from "../conformance/fixture-process.ts";
import { REPO_ROOT } from "../conformance/harness.ts";
import { PEER_TOOLS, STATIC_RESOURCE } from "./peer-fixture.ts";

const RUNTIME_SERVER = join(REPO_ROOT, "test/interop/peers/runtime-server.ts");
const V1_SERVER = join(REPO_ROOT, "test/interop/peers/sdk-v1-server.ts");
const V2_SERVER = join(REPO_ROOT, "test/interop/peers/sdk-v2-server.ts");

/** Resolves with the first value `register` delivers, or rejects after `ms`. */
function firstEvent<T>(register: (deliver: (value: T) => void) => void, what: string, ms = 5_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
    register((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

const stdioArgs = (file: string) => ["--import", "tsx", file, "stdio"];

let runtimeHttp: RunningServer;
let v1Http: RunningServer;
let v2Http: RunningServer;
beforeAll(async () => {
  [runtimeHttp, v1Http, v2Http] = await Promise.all([
    startServerProcess(RUNTIME_SERVER, ["http"]),
    startServerProcess(V1_SERVER, ["http"]),
    startServerProcess(V2_SERVER, ["http"]),
  ]);
});
afterAll(async () => {
  await Promise.all([runtimeHttp?.stop(), v1Http?.stop(), v2Http?.stop()]);
});

describe.concurrent("runtime server announces changes", () => {
  for (const kind of ["stdio", "http"] as const) {
    test(`SDK v1 client (2025, ${kind}): tools/list_changed and resources/updated arrive unsolicited`, async () => {
      const client = new V1Client({ name: "sdk-v1-interop", version: "1.0.0" });
      const transport =
        kind === "stdio"
          ? new V1Stdio({ command: process.execPath, args: stdioArgs(RUNTIME_SERVER), cwd: REPO_ROOT, stderr: "pipe" })
          : new V1Http(new URL(runtimeHttp.url));
      await client.connect(transport);
      try {
        const listChanged = firstEvent<unknown>(
          (deliver) => client.setNotificationHandler(ToolListChangedNotificationSchema, deliver),
          "notifications/tools/list_changed",
        );
        const updated = firstEvent<{ params: { uri: string } }>(
          (deliver) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, deliver),
          "notifications/resources/updated",
        );
        await client.subscribeResource({ uri: STATIC_RESOURCE.uri });
        await client.callTool({ name: PEER_TOOLS.touch.name, arguments: {} });
        await listChanged;
        expect((await updated).params.uri).toBe(STATIC_RESOURCE.uri);
      } finally {
        await client.close();
      }
    });

    test(`SDK v2 client (2026-07-28, ${kind}): changes arrive on subscriptions/listen`, async () => {
      const client = new V2Client(
        { name: "sdk-v2-interop", version: "1.0.0" },
        { versionNegotiation: { mode: { pin: "2026-07-28" } } },
      );
      const transport =
        kind === "stdio"
          ? new V2Stdio({ command: process.execPath, args: stdioArgs(RUNTIME_SERVER), cwd: REPO_ROOT, stderr: "pipe" })
          : new V2Http(new URL(runtimeHttp.url));
      await client.connect(transport);
      try {
        const listChanged = firstEvent<unknown>(
          (deliver) => client.setNotificationHandler("notifications/tools/list_changed", deliver),
          "notifications/tools/list_changed",
        );
        const updated = firstEvent<{ params: { uri: string } }>(
          (deliver) => client.setNotificationHandler("notifications/resources/updated", deliver),
          "notifications/resources/updated",
        );
        const subscription = await client.listen({
          toolsListChanged: true,
          resourceSubscriptions: [STATIC_RESOURCE.uri],
        });
        expect(subscription.honoredFilter).toMatchObject({
          toolsListChanged: true,
          resourceSubscriptions: [STATIC_RESOURCE.uri],
        });
        await client.callTool({ name: PEER_TOOLS.touch.name, arguments: {} });
        await listChanged;
        expect((await updated).params.uri).toBe(STATIC_RESOURCE.uri);
        await subscription.close();
        expect(await subscription.closed).toBe("local");
      } finally {
        await client.close();
      }
    });
  }
});

describe.concurrent("runtime client hears SDK servers' changes", () => {
  const v1Targets: Record<string, () => ConnectTarget> = {
    stdio: () => ({ command: process.execPath, args: stdioArgs(V1_SERVER), cwd: REPO_ROOT }),
    http: () => ({ url: v1Http.url }),
  };
  for (const [kind, target] of Object.entries(v1Targets)) {
    test(`SDK v1 server (2025, ${kind}): tools/list_changed arrives unsolicited`, async () => {
      const client = await connect(target(), { probeTimeoutMs: 20_000 });
      try {
        expect(client.era).toBe("legacy");
        const listChanged = firstEvent<JsonRpcNotification>((deliver) => {
          client.onNotification((message) => {
            if (message.method === "notifications/tools/list_changed") deliver(message);
          });
        }, "notifications/tools/list_changed");
        await client.callTool(PEER_TOOLS.touch.name, {});
        await listChanged;
      } finally {
        await client.close();
      }
    });
  }

  const v2Targets: Record<string, () => ConnectTarget> = {
    stdio: () => ({ command: process.execPath, args: stdioArgs(V2_SERVER), cwd: REPO_ROOT }),
    http: () => ({ url: v2Http.url }),
  };
  for (const [kind, target] of Object.entries(v2Targets)) {
    test(`SDK v2 server (2026-07-28, ${kind}): tools/list_changed arrives on listen`, async () => {
      const client = await connect(target(), { probeTimeoutMs: 20_000 });
      try {
        expect(client.era).toBe("modern");
        let deliver: (message: JsonRpcNotification) => void = () => {};
        const listChanged = firstEvent<JsonRpcNotification>((resolve) => {
          deliver = resolve;
        }, "notifications/tools/list_changed");
        const subscription = await client.listen({ toolsListChanged: true }, (message) => {
          if (message.method === "notifications/tools/list_changed") deliver(message);
        });
        expect(subscription.acknowledged).toMatchObject({ toolsListChanged: true });
        await client.callTool(PEER_TOOLS.touch.name, {});
        await listChanged;
      } finally {
        await client.close();
      }
    });
  }
});
