/**
 * The spec language's `upstream.auth` is lowered to a security scheme every binding requires (OpenAPI's
 * form), so the runtime has one credential path. The requests a generated server sends must not change:
 * for each form (bearer, basic, apiKey in a header, apiKey in the query) and for specs/weather.yaml, a
 * package is generated and run against an upstream on 127.0.0.1 that records what reaches it; the
 * expected requests are exactly what the former `upstream.auth` path sent (this file passes on it too).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { generate } from "../../generator/index.ts";
import { connect, type McpClient } from "../../runtime/index.ts";
import { type RecordedRequest, ROOT, scratchDir, startUpstream } from "./support.ts";

const SECRET = "s3cret+/=value-9f2c"; // URL-encoding changes it
type Upstream = Awaited<ReturnType<typeof startUpstream>>;

const tools = [
  {
    name: "get_item",
    inputSchema: {
      type: "object",
      properties: { id: { type: "string" }, verbose: { type: "boolean" } },
      required: ["id"],
    },
    http: { method: "GET", path: "/items/{id}" },
  },
  {
    name: "add_item",
    inputSchema: { type: "object", properties: { label: { type: "string" } } },
    http: { method: "POST", path: "/items" },
  },
  // The upstream reflects what it was sent: the credential must come back redacted.
  { name: "reflect", inputSchema: { type: "object" }, http: { method: "GET", path: "/reflect" } },
];

/** A generated package's server (its own runtime copy) on 127.0.0.1, and a client of it. */
async function serve(pkg: string, env: NodeJS.ProcessEnv, upstream: Upstream) {
  const { createAppServer } = await import(pathToFileURL(join(pkg, "src/app.ts")).href);
  const { serveHttp } = await import(pathToFileURL(join(pkg, "runtime/transport/http/server.ts")).href);
  const server = createAppServer({ env, baseUrl: upstream.url });
  const handle = await serveHttp(server, { host: "127.0.0.1", port: 0 });
  const client = await connect({ url: handle.url });
  const close = async () => {
    await client.close();
    await handle.close();
  };
  return { client, close };
}

/** The parts of a request credentials could touch. */
const sent = (r: RecordedRequest) => ({
  method: r.method,
  path: r.path,
  query: r.query.toString(),
  authorization: r.headers.authorization,
  "x-api-key": r.headers["x-api-key"],
  cookie: r.headers.cookie,
  "content-type": r.headers["content-type"],
  body: r.body,
});

const FORMS = {
  bearer: { auth: { type: "bearer", env: "T" }, header: { authorization: `Bearer ${SECRET}` }, query: "" },
  basic: {
    auth: { type: "basic", env: "T" },
    header: { authorization: `Basic ${Buffer.from(SECRET).toString("base64")}` },
    query: "",
  },
  apiKeyHeader: {
    auth: { type: "apiKey", in: "header", name: "X-Api-Key", env: "T" },
    header: { "x-api-key": SECRET },
    query: "",
  },
  apiKeyQuery: {
    auth: { type: "apiKey", in: "query", name: "key", env: "T" },
    header: {},
    query: `key=${encodeURIComponent(SECRET).replace(/%20/g, "+")}`,
  },
} as const;

describe("spec-language upstream.auth: the same outgoing requests as before it became a security scheme", () => {
  let upstream: Upstream;
  const open: Array<{ close(): Promise<unknown> }> = [];
  beforeAll(async () => {
    upstream = await startUpstream({
      "GET /items/*": () => ({ json: { ok: true } }),
      "POST /items": () => ({ status: 201, json: { ok: true } }),
      "GET /reflect": (r) => ({ status: 500, json: { headers: r.headers, query: r.query.toString() } }),
    });
  });
  afterAll(async () => {
    for (const thing of open) await thing.close();
    await upstream.close();
  });

  for (const [form, { auth, header, query }] of Object.entries(FORMS)) {
    it(`${form}: the credential goes where upstream.auth says, and never comes back`, async () => {
      const dir = scratchDir(`spec-auth-${form}`);
      const spec = join(dir, "spec.yaml");
      writeFileSync(
        spec,
        stringify({
          server: { name: form, version: "1.0.0" },
          upstream: { baseUrl: "https://x.example", auth },
          tools,
        }),
      );
      const result = await generate(spec, join(dir, "pkg"));
      expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      const { client, close } = await serve(join(dir, "pkg"), { T: SECRET }, upstream);
      open.push({ close });

      const before = upstream.requests.length;
      await client.callTool("get_item", { id: "a b", verbose: true });
      await client.callTool("add_item", { label: "new" });
      const reflected = await client.callTool("reflect", {});
      const plain = { authorization: undefined, "x-api-key": undefined, cookie: undefined, ...header };
      const withQuery = (own: string) => [own, query].filter(Boolean).join("&");
      expect(upstream.requests.slice(before).map(sent)).toEqual([
        {
          ...plain,
          method: "GET",
          path: "/items/a%20b",
          query: withQuery("verbose=true"),
          "content-type": undefined,
          body: "",
        },
        {
          ...plain,
          method: "POST",
          path: "/items",
          query: withQuery(""),
          "content-type": "application/json",
          body: '{"label":"new"}',
        },
        { ...plain, method: "GET", path: "/reflect", query: withQuery(""), "content-type": undefined, body: "" },
      ]);
      const echoed = JSON.stringify(reflected);
      expect(reflected.isError).toBe(true);
      expect(echoed).toContain("[REDACTED]");
      for (const leak of [SECRET, encodeURIComponent(SECRET), Buffer.from(SECRET).toString("base64")])
        expect(echoed).not.toContain(leak);
    });
  }

  it("without the variable, no request is sent and the error names the variable", async () => {
    const dir = scratchDir("spec-auth-missing");
    const spec = join(dir, "spec.yaml");
    writeFileSync(
      spec,
      stringify({
        server: { name: "missing", version: "1.0.0" },
        upstream: { baseUrl: "https://x.example", auth: { type: "bearer", env: "MISSING_UPSTREAM_TOKEN" } },
        tools,
      }),
    );
    await generate(spec, join(dir, "pkg"));
    const { client, close } = await serve(join(dir, "pkg"), {}, upstream);
    open.push({ close });
    const before = upstream.requests.length;
    const result = await client.callTool("get_item", { id: "x" });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("MISSING_UPSTREAM_TOKEN");
    expect(upstream.requests.length).toBe(before);
  });
});

describe("specs/weather.yaml: the bearer token on every forwarded call", () => {
  let upstream: Upstream;
  let client: McpClient;
  let close: () => Promise<unknown>;
  beforeAll(async () => {
    upstream = await startUpstream({
      "GET /forecast/*": () => ({ json: { city: "Nice", days: [] } }),
      "POST /observations": () => ({ status: 201, json: { accepted: true } }),
      "GET /alerts": () => ({ json: [] }),
      "GET /cities/*": () => ({ json: {} }),
    });
    const dir = scratchDir("spec-auth-weather");
    const result = await generate(join(ROOT, "specs/weather.yaml"), join(dir, "pkg"));
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    ({ client, close } = await serve(join(dir, "pkg"), { WEATHER_TOKEN: SECRET }, upstream));
  });
  afterAll(async () => {
    await close?.();
    await upstream?.close();
  });

  it("tools, http resources and templates send `Authorization: Bearer <WEATHER_TOKEN>` and nothing else", async () => {
    await client.callTool("get_forecast", { city: "Nice", days: 2 });
    await client.callTool("report_observation", { station: "north", temperatureC: 3 });
    await client.readResource("weather://alerts/active");
    await client.readResource("weather://city/Nice");
    const auth = { authorization: `Bearer ${SECRET}`, "x-api-key": undefined, cookie: undefined };
    expect(upstream.requests.map(sent)).toEqual([
      { ...auth, method: "GET", path: "/forecast/Nice", query: "days=2", "content-type": undefined, body: "" },
      {
        ...auth,
        method: "POST",
        path: "/observations",
        query: "",
        "content-type": "application/json",
        body: '{"station":"north","temperatureC":3}',
      },
      { ...auth, method: "GET", path: "/alerts", query: "", "content-type": undefined, body: "" },
      { ...auth, method: "GET", path: "/cities/Nice", query: "", "content-type": undefined, body: "" },
    ]);
  });
});
