/**
 * Each golden package, end to end: the generated server as a real process (stdio and Streamable HTTP),
 * the generated client, and a real upstream REST API on 127.0.0.1. Every tool is called, every resource
 * read and every prompt fetched, and the answers are checked against the spec.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect as connectNotes } from "../../generated/notes/src/client.ts";
import { connect as connectTasks } from "../../generated/tasks/src/client.ts";
import { connect as connectWeather } from "../../generated/weather/src/client.ts";
import { compileSchema } from "../../runtime/protocol/compile-schema.ts";
import { ROOT, type RunningHttpServer, serverCommand, startHttpServer, startUpstream } from "./support.ts";

type Upstream = Awaited<ReturnType<typeof startUpstream>>;
const text = (result: { content?: Array<{ type: string; text?: string }> }) =>
  result.content?.map((c) => c.text ?? "").join("") ?? "";

/** Checks a structured result against the tool's own outputSchema, the way a careful client would. */
function expectMatchesOutputSchema(schema: object | undefined, value: unknown) {
  expect(schema).toBeDefined();
  const validate = compileSchema(schema!);
  expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
}

const weatherApi = () =>
  startUpstream({
    "GET /forecast/*": (r) => {
      if (r.headers.authorization !== "Bearer weather-token") return { status: 401, json: { error: "bad token" } };
      const days = Number(r.query.get("days") ?? 3);
      const city = decodeURIComponent(r.path.split("/")[2]);
      return {
        json: {
          city,
          days: Array.from({ length: days }, (_, i) => ({
            date: `2026-11-2${i}`,
            highC: 10 + i,
            lowC: 2 + i,
            summary: "cloudy",
          })),
        },
      };
    },
    "POST /observations": (r) => ({ status: 201, json: { accepted: true, received: JSON.parse(r.body) } }),
    "GET /alerts": () => ({ json: [{ id: "a1", level: "yellow" }] }),
    "GET /cities/*": (r) => ({ json: { city: decodeURIComponent(r.path.split("/")[2]), tempC: 12 } }),
  });

for (const transport of ["stdio", "http"] as const) {
  describe(`weather over ${transport}`, () => {
    let upstream: Upstream;
    let http: RunningHttpServer | undefined;
    let client: Awaited<ReturnType<typeof connectWeather>>;

    beforeAll(async () => {
      upstream = await weatherApi();
      const env = { WEATHER_TOKEN: "weather-token" };
      if (transport === "http") {
        http = await startHttpServer(`${ROOT}/generated/weather`, ["--base-url", upstream.url], env);
        client = await connectWeather({ url: http.url });
      } else {
        client = await connectWeather({
          ...serverCommand(`${ROOT}/generated/weather`, ["--base-url", upstream.url]),
          env: { ...process.env, ...env } as Record<string, string>,
        });
      }
    });
    afterAll(async () => {
      await client?.close();
      await http?.stop();
      await upstream?.close();
    });

    it("lists exactly the spec's tools, with their schemas and annotations", async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual([
        "get_forecast",
        "report_observation",
        "reset_station",
        "convert_temperature",
      ]);
      const forecast = tools[0];
      // openWorldHint: true is MCP's default: tools/list leaves it out (normalize/listed-tool.ts), meaning the same.
      expect(forecast.annotations).toEqual({ readOnlyHint: true });
      expect((forecast.inputSchema.properties as Record<string, Record<string, unknown>>).city["x-mcp-header"]).toBe(
        "City",
      );
    });

    it("forwards get_forecast to the upstream with path, query and bearer token", async () => {
      const { tools } = await client.listTools();
      const result = await client.callTool("get_forecast", { city: "São Paulo", days: 2 });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent?.city).toBe("São Paulo");
      expect(result.structuredContent?.days).toHaveLength(2);
      expectMatchesOutputSchema(tools[0].outputSchema, result.structuredContent);
      const request = upstream.requests.at(-1)!;
      expect([request.method, request.path, request.query.get("days")]).toEqual([
        "GET",
        "/forecast/S%C3%A3o%20Paulo",
        "2",
      ]);
    });

    it("forwards report_observation as a JSON body", async () => {
      const result = await client.callTool("report_observation", {
        station: "north",
        temperatureC: -3.5,
        conditions: "snow",
      });
      expect(result.isError).toBeFalsy();
      const request = upstream.requests.at(-1)!;
      expect([request.method, request.path, request.headers["content-type"]]).toEqual([
        "POST",
        "/observations",
        "application/json",
      ]);
      expect(JSON.parse(request.body)).toEqual({ station: "north", temperatureC: -3.5, conditions: "snow" });
      expect(result.structuredContent).toEqual({
        accepted: true,
        received: { station: "north", temperatureC: -3.5, conditions: "snow" },
      });
    });

    it("serves convert_temperature from the user's handler, structured and mirrored as text", async () => {
      const result = await client.callTool("convert_temperature", { value: 100, from: "C" });
      expect(result.structuredContent).toEqual({ value: 212, unit: "F" });
      expect(JSON.parse(text(result))).toEqual({ value: 212, unit: "F" });
    });

    it("rejects arguments that break the inputSchema with an isError result saying why", async () => {
      const result = await client.callTool("convert_temperature", { value: "hot", from: "K" } as never);
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/value|from/);
    });

    it("reads every resource: static, forwarded, handler and template", async () => {
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(["weather://stations", "weather://alerts/active", "weather://about"]);
      const stations = await client.readResource("weather://stations");
      expect(stations.contents[0]).toMatchObject({
        uri: "weather://stations",
        mimeType: "application/json",
        text: '["north","south","east","west"]',
      });
      const alerts = await client.readResource("weather://alerts/active");
      expect(JSON.parse((alerts.contents[0] as { text: string }).text)).toEqual([{ id: "a1", level: "yellow" }]);
      const about = await client.readResource("weather://about");
      expect((about.contents[0] as { text: string }).text).toContain("# Weather 1.2.0");
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["weather://city/{city}"]);
      const city = await client.readResource("weather://city/Oslo");
      expect(JSON.parse((city.contents[0] as { text: string }).text)).toEqual({ city: "Oslo", tempC: 12 });
    });

    it("gets every prompt: a template filled from arguments, and a handler", async () => {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name)).toEqual(["summarize_forecast", "packing_list"]);
      const summary = await client.getPrompt("summarize_forecast", { city: "Lyon", tone: "cheerful" });
      expect(summary.messages.map((m) => [m.role, (m.content as { text: string }).text])).toEqual([
        ["user", "Summarize the forecast for Lyon in three sentences, in a cheerful tone."],
        ["assistant", "I will fetch the forecast for Lyon first."],
      ]);
      const packing = await client.getPrompt("packing_list", { city: "Rome", days: "4" });
      expect((packing.messages[0].content as { text: string }).text).toContain("Rome for 4 days");
      await expect(client.getPrompt("summarize_forecast", {} as never)).rejects.toThrow(/city/);
    });

    it("completes prompt arguments and template variables from the spec's value lists", async () => {
      const prompt = await client.complete(
        { type: "ref/prompt", name: "summarize_forecast" },
        { name: "city", value: "l" },
      );
      expect(prompt.completion.values).toEqual(["Lyon"]);
      const template = await client.complete(
        { type: "ref/resource", uri: "weather://city/{city}" },
        { name: "city", value: "" },
      );
      expect(template.completion.values).toEqual(["Paris", "Lyon", "Oslo", "Rome", "São Paulo"]);
    });
  });
}

for (const transport of ["stdio", "http"] as const) {
  describe(`notes over ${transport}: every tool, resource and prompt served by handlers`, () => {
    let http: RunningHttpServer | undefined;
    let client: Awaited<ReturnType<typeof connectNotes>>;
    beforeAll(async () => {
      if (transport === "http") {
        http = await startHttpServer(`${ROOT}/generated/notes`);
        client = await connectNotes({ url: http.url });
      } else client = await connectNotes(serverCommand(`${ROOT}/generated/notes`));
    });
    afterAll(async () => {
      await client?.close();
      await http?.stop();
    });

    it("creates, searches, reads and deletes notes", async () => {
      const created = await client.callTool("notes.create", { title: "Groceries", body: "eggs, milk", tags: ["home"] });
      const id = created.structuredContent!.id;
      expect(id).toMatch(/^n\d+$/);
      const found = await client.callTool("notes.search", { query: "milk", tag: "home" });
      expect(found.structuredContent).toEqual({ results: [{ id, title: "Groceries" }] });
      const index = await client.readResource("notes://index");
      expect(JSON.parse((index.contents[0] as { text: string }).text)).toEqual([{ id, title: "Groceries" }]);
      const note = await client.readResource(`notes://note/${id}`);
      expect((note.contents[0] as { text: string }).text).toBe("# Groceries\n\neggs, milk\n");
      const review = await client.getPrompt("weekly_review", { focus: "food" });
      expect((review.messages[0].content as { text: string }).text).toContain("- Groceries");
      const deleted = await client.callTool("notes.delete", { id });
      expect(text(deleted)).toBe(`Deleted note ${id}.`);
      // ctx.notFound: -32602 for this 2026-07-28 client (resources.mdx), -32002 for a 2025 one (below).
      await expect(client.readResource(`notes://note/${id}`)).rejects.toMatchObject({
        code: -32602,
        message: `No note ${id}`,
        data: { uri: `notes://note/${id}` },
      });
    });

    it("answers a missing note with the 2025 era's -32002 to a 2025-11-25 client", async () => {
      const target = http ? { url: http.url } : serverCommand(`${ROOT}/generated/notes`);
      const legacy = await connectNotes(target, { protocolVersion: "2025-11-25" });
      try {
        await expect(legacy.readResource("notes://note/n404")).rejects.toMatchObject({
          code: -32002,
          message: "No note n404",
        });
      } finally {
        await legacy.close();
      }
    });
  });
}

for (const transport of ["stdio", "http"] as const)
  describe(`tasks over ${transport}: every tool forwarded with an API key header`, () => {
    let upstream: Upstream;
    let http: RunningHttpServer | undefined;
    let client: Awaited<ReturnType<typeof connectTasks>>;
    beforeAll(async () => {
      upstream = await startUpstream({
        "GET /projects/*/tasks": (r) => ({
          json: { tasks: [{ id: 7, title: "Ship", status: r.query.get("status") }] },
        }),
        "POST /projects/*/tasks": (r) => ({ status: 201, json: { id: 8, ...JSON.parse(r.body) } }),
        "PUT /tasks/*/close": (r) =>
          r.path === "/tasks/404/close" ? { status: 404, json: { error: "no such task" } } : { status: 204 },
        "GET /tasks/*": (r) => ({ json: { id: Number(r.path.split("/")[2]), title: "Ship" } }),
      });
      const env = { TASKS_API_KEY: "k-123" };
      if (transport === "http") {
        http = await startHttpServer(`${ROOT}/generated/tasks`, ["--base-url", upstream.url], env);
        client = await connectTasks({ url: http.url });
      } else {
        client = await connectTasks({
          ...serverCommand(`${ROOT}/generated/tasks`, ["--base-url", upstream.url]),
          env: { ...process.env, ...env } as Record<string, string>,
        });
      }
    });
    afterAll(async () => {
      await client?.close();
      await http?.stop();
      await upstream?.close();
    });

    it("calls every tool and reads the template through the upstream", async () => {
      const listed = await client.callTool("list_tasks", { project: "apollo", status: "open" });
      expect(listed.structuredContent).toEqual({ tasks: [{ id: 7, title: "Ship", status: "open" }] });
      expect(upstream.requests.at(-1)!.headers["x-api-key"]).toBe("k-123");
      const created = await client.callTool("create_task", { project: "apollo", title: "Test", urgent: true });
      expect(created.structuredContent).toEqual({ id: 8, title: "Test", urgent: true });
      const closed = await client.callTool("close_task", { id: 7 });
      expect([closed.isError ?? false, text(closed)]).toEqual([false, "Upstream API answered 204"]);
      expect(upstream.requests.at(-1)!.method + upstream.requests.at(-1)!.path).toBe("PUT/tasks/7/close");
      const task = await client.readResource("tasks://task/7");
      expect(JSON.parse((task.contents[0] as { text: string }).text)).toEqual({ id: 7, title: "Ship" });
      const standup = await client.getPrompt("standup", { project: "apollo" });
      expect((standup.messages[0].content as { text: string }).text).toBe(
        "Draft my stand-up update for project apollo.",
      );
    });

    it("turns an upstream error into an isError result naming the status", async () => {
      const result = await client.callTool("close_task", { id: 404 } as never);
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/^Upstream API answered 404 Not Found/);
    });
  });
