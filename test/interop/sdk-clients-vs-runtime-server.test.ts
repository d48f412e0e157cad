// The official SDK clients drive our runtime server (peers/runtime-server.ts) as a real child
// process, over stdio and over Streamable HTTP on 127.0.0.1:
//   SDK v1 client  -> 2025 era (initialize handshake, sessions)
//   SDK v2 client  -> pinned to 2026-07-28 (server/discover, per-request _meta), no fallback
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningServer, startServerProcess } from "../conformance/fixture-process.ts";
import { REPO_ROOT } from "../conformance/harness.ts";
import { assertCancellationReachesServer, assertPeerErrors, assertPeerSurface } from "./peer-assertions.ts";
import { PEER_SERVER_INFO } from "./peer-fixture.ts";
import { type ConnectedClient, connectSdkV1, connectSdkV2, type Endpoint } from "./sdk-clients.ts";

const RUNTIME_SERVER = join(REPO_ROOT, "test/interop/peers/runtime-server.ts");

let http: RunningServer;
beforeAll(async () => {
  http = await startServerProcess(RUNTIME_SERVER, ["http"]);
});
afterAll(async () => {
  await http?.stop();
});

const endpoints: Record<string, () => Endpoint> = {
  stdio: () => ({ kind: "stdio", file: RUNTIME_SERVER }),
  http: () => ({ kind: "http", url: http.url }),
};

async function using(client: ConnectedClient, run: (client: ConnectedClient) => Promise<void>) {
  try {
    await run(client);
  } finally {
    await client.close();
  }
}

describe.concurrent("SDK v1 client (2025 era) -> runtime server", () => {
  for (const [kind, endpoint] of Object.entries(endpoints)) {
    test(kind, async () => {
      await using(await connectSdkV1(endpoint()), async (client) => {
        expect(client.serverInfo).toMatchObject(PEER_SERVER_INFO);
        // The v1 HTTP transport records the version the initialize handshake settled on.
        if (kind === "http") expect(client.protocolVersion).toBe("2025-11-25");
        await assertPeerSurface(client.peer, { progressMayLoseTail: true });
        await assertPeerErrors(client.peer, "legacy");
        await assertCancellationReachesServer(client.peer, `v1-${kind}`);
      });
    });
  }
});

describe.concurrent("SDK v2 client pinned to 2026-07-28 -> runtime server", () => {
  for (const [kind, endpoint] of Object.entries(endpoints)) {
    test(kind, async () => {
      await using(await connectSdkV2(endpoint()), async (client) => {
        expect(client.protocolVersion).toBe("2026-07-28");
        expect(client.serverInfo).toMatchObject(PEER_SERVER_INFO);
        await assertPeerSurface(client.peer);
        await assertPeerErrors(client.peer, "modern");
        await assertCancellationReachesServer(client.peer, `v2-${kind}`);
      });
    });
  }
});
