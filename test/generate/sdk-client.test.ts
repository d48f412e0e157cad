/**
 * The generated weather server driven by the official MCP SDK clients, not by our own: v1
 * (@modelcontextprotocol/sdk, 2025 era) and v2 (@modelcontextprotocol/client, pinned to 2026-07-28),
 * over stdio and Streamable HTTP, with its http-bound tools forwarding to a real upstream.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConnectedClient, connectSdkV1, connectSdkV2, type Endpoint } from "../interop/sdk-clients.ts";
import { ROOT, type RunningHttpServer, startHttpServer, startUpstream } from "./support.ts";

const PKG = `${ROOT}/generated/weather`;
type Upstream = Awaited<ReturnType<typeof startUpstream>>;

const cases = [
  ["v1", "stdio", connectSdkV1],
  ["v1", "http", connectSdkV1],
  ["v2", "stdio", connectSdkV2],
  ["v2", "http", connectSdkV2],
] as const;

for (const [sdk, transport, connectSdk] of cases) {
  describe(`official SDK ${sdk} client → generated weather server over ${transport}`, () => {
    let upstream: Upstream;
    let http: RunningHttpServer | undefined;
    let client: ConnectedClient;

    beforeAll(async () => {
      upstream = await startUpstream({
        "GET /forecast/*": (r) => ({
          json: { city: decodeURIComponent(r.path.split("/")[2]), days: [{ date: "2026-11-22", highC: 9, lowC: 1 }] },
        }),
      });
      const args = ["--base-url", upstream.url];
      let endpoint: Endpoint = { kind: "stdio", file: `${PKG}/src/server.ts`, args };
      if (transport === "http") {
        http = await startHttpServer(PKG, args, { WEATHER_TOKEN: "sdk-token" });
        endpoint = { kind: "http", url: http.url };
      }
      client = await connectSdk(endpoint);
    });
    afterAll(async () => {
      await client?.close();
      await http?.stop();
      await upstream?.close();
    });

    it("sees the spec's tools and calls them", async () => {
      expect(client.serverInfo?.name).toBe("weather");
      const { tools } = await client.peer.listTools();
      expect(tools.map((t) => t.name)).toEqual([
        "get_forecast",
        "report_observation",
        "reset_station",
        "convert_temperature",
      ]);
      const converted = await client.peer.callTool("convert_temperature", { value: 32, from: "F" });
      expect(converted.structuredContent).toEqual({ value: 0, unit: "C" });
      const forecast = await client.peer.callTool("get_forecast", { city: "Nice" });
      if (transport === "http") {
        expect(forecast.structuredContent).toEqual({ city: "Nice", days: [{ date: "2026-11-22", highC: 9, lowC: 1 }] });
        expect(upstream.requests.at(-1)?.headers.authorization).toBe("Bearer sdk-token");
      } else {
        // The SDKs' stdio transports start servers with a minimal environment (no WEATHER_TOKEN), and
        // the server says so instead of calling the upstream without credentials.
        expect(forecast).toMatchObject({
          isError: true,
          content: [
            { type: "text", text: expect.stringContaining("set WEATHER_TOKEN: the upstream API needs credentials") },
          ],
        });
        expect(upstream.requests).toHaveLength(0);
      }
    });

    it("reads resources and gets prompts", async () => {
      const stations = await client.peer.readResource("weather://stations");
      expect(stations.contents[0]).toMatchObject({ text: '["north","south","east","west"]' });
      const prompt = await client.peer.getPrompt("summarize_forecast", { city: "Nice" });
      expect((prompt.messages[0].content as { text: string }).text).toBe(
        "Summarize the forecast for Nice in three sentences, in a  tone.",
      );
    });
  });
}
