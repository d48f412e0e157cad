/**
 * Issue 14 §4, responses within a budget: a generated server, as a real process, in front of a real
 * upstream on 127.0.0.1 answering 5,000-item lists, driven by the official SDK client (which checks
 * structuredContent against each tool's outputSchema). `--max-response-tokens 1000` (and its env twin)
 * cuts answers at whole items with a note naming the arguments that fetch the rest; `_fields` selects
 * fields and never reaches the upstream; the tokenizer's vocabulary is not even loaded for small answers.
 * The budget is the `budget` feature (issue 28): a package generated without it serves answers whole,
 * still applies `_fields` (a core part), and refuses --max-response-tokens naming the feature.
 */
import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { generate } from "../../generator/index.ts";
import { ROOT, type RunningHttpServer, scratchDir, startHttpProcess } from "./support.ts";

const META = "dev.mcpgen/response";
const N = 5000;
const issue = (i: number) => ({
  number: i,
  title: `Crash when opening file ${i}`,
  state: "open",
  body: `Open file ${i}, press save.`, // 5,000 of them stay under --max-upstream-body's 1,000,000 characters
  user: { login: `user${i}`, id: 1000 + i },
  labels: [{ name: "bug" }],
});
const ISSUES = Array.from({ length: N }, (_, i) => issue(i));

const query = (name: string, type = "integer") => ({ name, in: "query", schema: { type } });
const json = (schema: object) => ({ "200": { description: "ok", content: { "application/json": { schema } } } });
const Issue = { $ref: "#/components/schemas/Issue" };
const OPENAPI = {
  openapi: "3.0.3",
  info: { title: "Budget", version: "1.0.0" },
  servers: [{ url: "http://127.0.0.1:1" }],
  paths: {
    "/issues": {
      get: {
        operationId: "list_issues",
        parameters: [query("page"), query("per_page")],
        responses: json({ type: "array", items: Issue }),
      },
    },
    "/search/issues": {
      get: {
        operationId: "search_issues",
        parameters: [query("q", "string"), query("page"), query("per_page")],
        responses: json({
          type: "object",
          required: ["total_count", "incomplete_results", "items"],
          properties: {
            total_count: { type: "integer" },
            incomplete_results: { type: "boolean" },
            items: { type: "array", minItems: 1, items: Issue },
          },
        }),
      },
    },
    "/customers": {
      get: {
        operationId: "list_customers",
        parameters: [query("starting_after", "string"), query("limit")],
        responses: json({
          type: "object",
          required: ["object", "data", "has_more"],
          properties: {
            object: { type: "string", enum: ["list"] },
            data: {
              type: "array",
              items: {
                type: "object",
                required: ["id", "name"],
                properties: { id: { type: "string" }, name: { type: "string" } },
              },
            },
            has_more: { type: "boolean" },
          },
        }),
      },
    },
    "/users": {
      get: {
        operationId: "list_users",
        parameters: [query("since")],
        responses: json({ type: "array", items: { type: "object" } }),
      },
    },
    "/readme": {
      get: {
        operationId: "get_readme",
        responses: { "200": { description: "ok", content: { "text/plain": { schema: { type: "string" } } } } },
      },
    },
    "/blob": {
      get: {
        operationId: "get_blob",
        responses: json({ type: "object", required: ["content"], properties: { content: { type: "string" } } }),
      },
    },
    "/things": {
      get: {
        operationId: "list_things",
        parameters: [query("_fields", "string")],
        responses: json({ type: "array", items: { type: "object" } }),
      },
    },
  },
  components: {
    schemas: {
      Issue: {
        type: "object",
        required: ["number", "title", "user"],
        properties: {
          number: { type: "integer" },
          title: { type: "string" },
          state: { type: "string" },
          body: { type: "string" },
          user: {
            type: "object",
            required: ["login", "id"],
            properties: { login: { type: "string" }, id: { type: "integer" } },
          },
          labels: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } },
        },
      },
    },
  },
};

/** The spec language: its http tools send arguments by name (no parameter list), so `_fields` must be taken out. */
const SPEC = {
  server: { name: "budget-spec", version: "1.0.0" },
  upstream: { baseUrl: "http://127.0.0.1:1" },
  tools: [
    {
      name: "list_issues",
      inputSchema: { type: "object", properties: { per_page: { type: "integer" } } },
      http: { method: "GET", path: "/issues" },
    },
  ],
};

type Recorded = { path: string; query: URLSearchParams };

/** A real upstream on 127.0.0.1: lists of 5,000, paginated when asked, with Link headers. */
async function startUpstream() {
  const requests: Recorded[] = [];
  let base = "";
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", base);
    requests.push({ path: url.pathname, query: url.searchParams });
    const send = (body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(200, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    const perPage = Number(url.searchParams.get("per_page") ?? N);
    const page = Number(url.searchParams.get("page") ?? 1);
    const pageOf = ISSUES.slice((page - 1) * perPage, page * perPage);
    switch (url.pathname) {
      case "/issues":
        return send(pageOf, { link: `<${base}/issues?page=${page + 1}&per_page=${perPage}>; rel="next"` });
      case "/search/issues":
        return send({ total_count: N, incomplete_results: false, items: pageOf });
      case "/customers":
        return send({
          object: "list",
          data: Array.from({ length: N }, (_, i) => ({ id: `cus_${i}`, name: `Customer number ${i}` })),
          has_more: true,
        });
      case "/users":
        return send(
          Array.from({ length: N }, (_, i) => ({ login: `user${i}`, id: i })),
          { link: `<${base}/users?since=${N}&api_key=upstream-secret>; rel="next"` },
        );
      case "/readme":
        res.writeHead(200, { "content-type": "text/plain" });
        return res.end(Array.from({ length: N }, (_, i) => `line ${i}: some words of the readme`).join("\n"));
      case "/blob":
        return send({ content: "word ".repeat(20_000) });
      default:
        return send([{ a: 1 }]);
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: base, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A module-resolution hook that logs every import of the token vocabulary (o200k-ranks.ts) or of gpt-tokenizer. */
function tokenizerLog(dir: string): { nodeArgs: string[]; file: string } {
  const file = join(dir, "tokenizer.log");
  writeFileSync(
    join(dir, "hook.mjs"),
    `import { appendFileSync } from "node:fs";
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  if (/o200k-ranks|gpt-tokenizer/.test(specifier)) appendFileSync(log, specifier + "\\n");
  return next(specifier, context);
}
`,
  );
  writeFileSync(
    join(dir, "register.mjs"),
    `import { register } from "node:module";
register(${JSON.stringify(pathToFileURL(join(dir, "hook.mjs")).href)}, { data: { log: ${JSON.stringify(file)} } });
`,
  );
  return { nodeArgs: ["--import", pathToFileURL(join(dir, "register.mjs")).href], file };
}

type Result = {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
};

async function sdkClient(url: string) {
  const client = new Client({ name: "budget-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  // The SDK's callTool validates structuredContent against the tool's outputSchema (and throws on a
  // missing one unless isError): every result below has passed it.
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as Result;
  return { client, call };
}

const cutOf = (result: Result) => (result._meta?.[META] as { cut?: Record<string, unknown> } | undefined)?.cut;

describe("--max-response-tokens and _fields over real processes", () => {
  let dir: string;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: RunningHttpServer;
  let sdk: Awaited<ReturnType<typeof sdkClient>>;
  let log: ReturnType<typeof tokenizerLog>;

  beforeAll(async () => {
    dir = scratchDir("response-budget");
    writeFileSync(join(dir, "budget.json"), JSON.stringify(OPENAPI));
    writeFileSync(join(dir, "spec.yaml"), stringify(SPEC));
    for (const [spec, out, features] of [
      ["budget.json", "pkg", ["budget"]],
      ["spec.yaml", "spec-pkg", ["budget"]],
      ["budget.json", "plain-pkg", ["none"]],
    ] as const) {
      const generated = await generate(join(dir, spec), join(dir, out), { features: [...features] });
      expect(generated.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    }
    upstream = await startUpstream();
    log = tokenizerLog(dir);
    server = await startHttpProcess(join(dir, "pkg/src/server.ts"), {}, log.nodeArgs, [
      "--port",
      "0",
      "--base-url",
      upstream.url,
      "--max-response-tokens",
      "1000",
    ]);
    sdk = await sdkClient(server.url);
  }, 120_000);
  afterAll(async () => {
    await sdk?.client.close();
    await server?.stop();
    await upstream?.close();
  });

  it("small answers never load the tokenizer; a large one does", async () => {
    const small = await sdk.call("search_issues", { q: "crash", per_page: 2 });
    expect(small.structuredContent).toEqual({ total_count: N, incomplete_results: false, items: ISSUES.slice(0, 2) });
    expect(small._meta?.[META]).toBeUndefined();
    expect((await sdk.call("list_things")).content[0].text).toBe('[{"a":1}]');
    expect(existsSync(log.file)).toBe(false);
    await sdk.call("list_issues", {});
    // Its own packed vocabulary, never a tokenizer library (the package does not depend on one).
    expect(readFileSync(log.file, "utf8")).toBe("./o200k-ranks.ts\n");
    const deps = JSON.parse(readFileSync(join(dir, "pkg/package.json"), "utf8")).dependencies;
    expect(Object.keys(deps)).not.toContain("gpt-tokenizer");
  });

  it("a top-level array is cut at whole items, with counts and the page/per_page continuation", async () => {
    const result = await sdk.call("list_issues", {});
    const shown = JSON.parse(result.content[0].text!) as unknown[];
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(N);
    expect(shown).toEqual(ISSUES.slice(0, shown.length));
    expect(countTokens(result.content[0].text!)).toBeLessThanOrEqual(1000);
    const k = shown.length;
    expect(result.content[1].text).toContain(`it shows ${k} of the ${N} items`);
    expect(result.content[1].text).toContain(`call again with per_page=${k}, page=2`);
    expect(cutOf(result)).toEqual({
      maxTokens: 1000,
      unit: "items",
      shown: k,
      total: N,
      next: { per_page: k, page: 2 },
    });
    expect(result.structuredContent).toBeUndefined();
    // The continuation fetches exactly the items after the last one shown.
    const next = await sdk.call("list_issues", { per_page: k, page: 2 });
    expect(JSON.parse(next.content[0].text!)).toEqual(ISSUES.slice(k, 2 * k));
  });

  it("_fields selects fields (nested, through the list), is applied before the cut, and is never sent upstream", async () => {
    const whole = (await sdk.call("list_issues", {})) as Result;
    const result = await sdk.call("list_issues", { _fields: ["number", "user.login"] });
    const shown = JSON.parse(result.content[0].text!) as unknown[];
    expect(shown.slice(0, 2)).toEqual([
      { number: 0, user: { login: "user0" } },
      { number: 1, user: { login: "user1" } },
    ]);
    expect(shown.length).toBeGreaterThan(JSON.parse(whole.content[0].text!).length);
    expect(result._meta?.[META]).toMatchObject({ fields: ["number", "user.login"], cut: { shown: shown.length } });
    const sent = upstream.requests.at(-1)!;
    expect(sent.path).toBe("/issues");
    expect([...sent.query.keys()]).toEqual([]);
  });

  it("an object answer keeps its envelope and structuredContent; the SDK client accepts full, _fields, cut and both", async () => {
    const { tools } = await sdk.client.listTools();
    const search = tools.find((t) => t.name === "search_issues")!;
    expect(search.inputSchema.properties?._fields).toMatchObject({ type: "array", items: { type: "string" } });
    expect(JSON.stringify(search.outputSchema)).not.toMatch(/"required"|"minItems"/);

    const cut = await sdk.call("search_issues", { q: "crash" });
    const items = cut.structuredContent?.items as unknown[];
    expect(cut.structuredContent).toEqual({
      total_count: N,
      incomplete_results: false,
      items: ISSUES.slice(0, items.length),
    });
    expect(JSON.parse(cut.content[0].text!)).toEqual(cut.structuredContent);
    expect(cutOf(cut)).toMatchObject({ list: "items", shown: items.length, total: N });

    const fields = await sdk.call("search_issues", { q: "crash", per_page: 3, _fields: ["items.title"] });
    expect(fields.structuredContent).toEqual({ items: ISSUES.slice(0, 3).map((i) => ({ title: i.title })) });
    expect(cutOf(fields)).toBeUndefined();

    const both = await sdk.call("search_issues", { q: "crash", _fields: ["total_count", "items.number"] });
    const numbers = both.structuredContent?.items as Array<{ number: number }>;
    expect(numbers.length).toBeGreaterThan(items.length);
    expect(numbers.length).toBeLessThan(N);
    expect(both.structuredContent?.total_count).toBe(N);
    expect(cutOf(both)).toMatchObject({ shown: numbers.length, total: N });
  });

  it("starting_after continues after the last item shown (Stripe)", async () => {
    const result = await sdk.call("list_customers", {});
    const data = result.structuredContent?.data as Array<{ id: string }>;
    const last = data.at(-1)!.id;
    expect(result.content[1].text).toContain(`call again with starting_after="${last}"`);
    expect(cutOf(result)?.next).toEqual({ starting_after: last });
  });

  it("a Link header's rel=next gives the arguments its URL sets, never a credential in it", async () => {
    const result = await sdk.call("list_users", {});
    expect(result.content[1].text).toContain(`call again with since=${N}`);
    expect(cutOf(result)?.next).toEqual({ since: N });
    expect(JSON.stringify(result)).not.toContain("upstream-secret");
  });

  it("text is cut at whole lines; a non-JSON operation gets no _fields", async () => {
    const { tools } = await sdk.client.listTools();
    expect(tools.find((t) => t.name === "get_readme")?.inputSchema.properties?._fields).toBeUndefined();
    const result = await sdk.call("get_readme");
    const lines = result.content[0].text!.split("\n");
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.at(-1)).toBe(`line ${lines.length - 1}: some words of the readme`);
    expect(result.content[1].text).toContain(`it shows ${lines.length} of the ${N} lines`);
  });

  it("an answer with no list to shorten is left out, with a note naming its fields (isError: the SDK accepts it)", async () => {
    const result = await sdk.call("get_blob");
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/no list that can be shortened.*_fields \(its top-level fields: content\)/);
    expect(result.structuredContent).toBeUndefined();
  });

  it("a real argument named _fields is the operation's own: declared as it is and sent upstream", async () => {
    const { tools } = await sdk.client.listTools();
    expect(tools.find((t) => t.name === "list_things")?.inputSchema.properties?._fields).toEqual({ type: "string" });
    await sdk.call("list_things", { _fields: "a,b" });
    expect(upstream.requests.at(-1)?.query.get("_fields")).toBe("a,b");
  });

  it("spec-language http tools (arguments sent by name) take _fields and never send it", async () => {
    const spec = await startHttpProcess(
      join(dir, "spec-pkg/src/server.ts"),
      { MCP_MAX_RESPONSE_TOKENS: "2000" },
      [],
      ["--port", "0", "--base-url", upstream.url],
    );
    const other = await sdkClient(spec.url);
    try {
      const result = await other.call("list_issues", { per_page: 5000, _fields: ["title"] });
      const sent = upstream.requests.at(-1)!;
      expect([...sent.query.keys()]).toEqual(["per_page"]);
      const shown = JSON.parse(result.content[0].text!) as Array<{ title: string }>;
      expect(shown[0]).toEqual({ title: ISSUES[0].title });
      // MCP_MAX_RESPONSE_TOKENS=2000 set the budget.
      expect(cutOf(result)).toMatchObject({ maxTokens: 2000, shown: shown.length, total: N });
      expect(countTokens(result.content[0].text!)).toBeGreaterThan(1000);
      expect(countTokens(result.content[0].text!)).toBeLessThanOrEqual(2000);
    } finally {
      await other.client.close();
      await spec.stop();
    }
  }, 60_000);

  it("bad values of --max-response-tokens and MCP_MAX_RESPONSE_TOKENS exit 2 with a clear message", () => {
    const script = join(dir, "pkg/src/server.ts");
    const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      spawnSync(process.execPath, ["--import", "tsx", script, ...args], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, ...env },
      });
    for (const bad of ["lots", "0", "-5", "1.5", "499"]) {
      const result = run([`--max-response-tokens=${bad}`]);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`--max-response-tokens must be a whole number >= 500, not '${bad}'`);
      expect(result.stderr).toContain("usage: server");
    }
    const env = run([], { MCP_MAX_RESPONSE_TOKENS: "many" });
    expect(env.status).toBe(2);
    expect(env.stderr).toContain("MCP_MAX_RESPONSE_TOKENS must be a whole number >= 500, not 'many'");
  }, 60_000);

  it("without the budget feature: answers pass whole, _fields still applies, --max-response-tokens exits 2", async () => {
    const plain = join(dir, "plain-pkg");
    expect(existsSync(join(plain, "runtime/features/budget/response-budget.ts"))).toBe(false);
    expect(existsSync(join(plain, "runtime/features/budget/o200k-ranks.ts"))).toBe(false);
    expect(Object.keys(JSON.parse(readFileSync(join(plain, "package.json"), "utf8")).dependencies)).not.toContain(
      "gpt-tokenizer",
    );
    const served = await startHttpProcess(
      join(plain, "src/server.ts"),
      {},
      [],
      ["--port", "0", "--base-url", upstream.url],
    );
    const other = await sdkClient(served.url);
    try {
      const whole = await other.call("list_issues", {});
      expect(JSON.parse(whole.content[0].text!)).toEqual(ISSUES);
      expect(whole.content).toHaveLength(1);
      expect(whole._meta?.[META]).toBeUndefined();
      const fields = await other.call("search_issues", { q: "crash", _fields: ["items.number"] });
      expect(fields.structuredContent).toEqual({ items: ISSUES.map((i) => ({ number: i.number })) });
      expect(fields._meta?.[META]).toEqual({ fields: ["items.number"] });
    } finally {
      await other.client.close();
      await served.stop();
    }
    const run = spawnSync(
      process.execPath,
      ["--import", "tsx", join(plain, "src/server.ts"), "--max-response-tokens", "1000"],
      { cwd: ROOT, encoding: "utf8", input: "" },
    );
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe(
      "--max-response-tokens needs the 'budget' feature, which this package was generated without: add it to the spec's features: list, or to mcpgen generate's --features, and generate again",
    );
  }, 60_000);
});
