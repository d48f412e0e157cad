/**
 * Task tools in generated packages (issue 30): the catalog's `http.task` (TaskBinding, in its own key order),
 * the outputSchema a task tool keeps or loses, the spec language's `task:`, and the `tasks` feature's default.
 * Real `mcpgen generate` runs into scratch directories.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageFeatures } from "../../generator/normalize/features.ts";
import type { CatalogTool } from "../../runtime/package/catalog-types.ts";
import { mcpgen } from "../cli/run.ts";
import { ROOT, scratchDir, serverCommand } from "./support.ts";

function generated(spec: string, name: string, ...flags: string[]) {
  const out = join(scratchDir(`tasks-${name}`), "pkg");
  const run = mcpgen(ROOT, "generate", spec, "--out", out, ...flags);
  expect(run.code, run.stderr + run.stdout).toBe(0);
  const catalog = JSON.parse(readFileSync(join(out, "src/catalog.json"), "utf8")) as { tools: CatalogTool[] };
  const tool = (name: string) => catalog.tools.find((t) => t.name === name) as CatalogTool;
  return { out, run, tool, app: readFileSync(join(out, "src/app.ts"), "utf8") };
}

describe("specs/jobs.yaml", () => {
  const jobs = generated(join(ROOT, "specs/jobs.yaml"), "jobs");

  it("writes each task tool's binding as TaskBinding, keys in the contract's order", () => {
    // Compared as text: the order of keys is part of a deterministic catalog.
    expect(JSON.stringify(jobs.tool("createExport").http?.task)).toBe(
      JSON.stringify({
        style: "location",
        poll: { headers: ["location"] },
        cancel: { method: "DELETE", path: "/exports/{id}", params: { id: "/id" } },
      }),
    );
    expect(JSON.stringify(jobs.tool("renderReport").http?.task)).toBe(
      JSON.stringify({
        style: "status",
        poll: { path: "/renders/{renderId}", params: { renderId: "/id" } },
        status: { pointer: "/state", completed: ["succeeded"], failed: ["failed"], cancelled: ["cancelled"] },
        result: { link: "/resultUrl" },
        error: "/error",
        cancel: { method: "DELETE" },
        pollIntervalMs: 1000,
      }),
    );
    for (const plain of ["listReports", "getExport", "cancelExport", "getRender"])
      expect(jobs.tool(plain).http?.task, plain).toBeUndefined();
  });

  it("gives a task tool the final result's schema (x-mcp-task resultSchema) or none, never the start answer's", () => {
    expect(jobs.tool("createExport").outputSchema).toMatchObject({ properties: { url: { format: "uri" } } });
    expect(jobs.tool("renderReport").outputSchema).toBeUndefined();
    // The same Render schema stays the outputSchema of the ordinary GET that answers it.
    expect(jobs.tool("getRender").outputSchema).toMatchObject({ properties: { state: {} } });
  });

  it("carries the tasks feature by default: src/app.ts hands it to the server, its flags are in --help", () => {
    // One server process started for its --help: over the default 5 s on a busy machine.
    expect(jobs.app).toContain('import { tasksFeature } from "../runtime/features/tasks/feature.ts";');
    expect(jobs.app).toContain("[tasksFeature]");
    // Its flags are data in src/server.ts's table, not its flags.ts (which only the generator reads).
    expect(existsSync(join(jobs.out, "runtime/features/tasks/flags.ts"))).toBe(false);
    expect(readFileSync(join(jobs.out, "src/server.ts"), "utf8")).toContain('group: "tasks"');
    const { command, args } = serverCommand(jobs.out, ["--help"]);
    const help = spawnSync(command, args, { encoding: "utf8", timeout: 30_000 });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout + help.stderr).toContain("Long-running operations (MCP Tasks)");
    expect(help.stdout + help.stderr).toContain("--task-ttl <ms>");
  }, 30_000);

  it("leaves tasks out when a features list does, with a warning per task tool", () => {
    const off = generated(join(ROOT, "specs/jobs.yaml"), "jobs-off", "--features", "dynamic");
    expect(off.app).not.toContain("tasksFeature");
    expect(existsSync(join(off.out, "runtime/features/tasks"))).toBe(false);
    const warnings = (off.run.stdout + off.run.stderr).match(/warning TASK_FEATURE_OFF: tool '(\w+)'/g);
    expect(warnings).toEqual([
      "warning TASK_FEATURE_OFF: tool 'createExport'",
      "warning TASK_FEATURE_OFF: tool 'renderReport'",
    ]);
  });
});

describe("the spec language's task:", () => {
  it("becomes the same TaskBinding whatever order it is written in; its outputSchema is the final result's", () => {
    const dir = scratchDir("tasks-spec");
    const spec = join(dir, "builds.yaml");
    writeFileSync(
      spec,
      `server: { name: builds, version: 1.0.0, registryName: io.github.mcpgen-examples/builds }
upstream: { baseUrl: https://ci.example.com }
tools:
  - name: start_build
    inputSchema: { type: object, properties: { repo: { type: string } }, required: [repo] }
    outputSchema: { type: object, properties: { artifact: { type: string } } }
    http:
      method: POST
      path: /builds
      task:
        cancel: { params: { build: /id, org: /org }, path: "/orgs/{org}/builds/{build}", method: delete }
        pollIntervalMs: 3000
        error: /failure
        result: { header: Content-Location }
        status: { failed: [failed, error], completed: [true], pointer: /finished }
        poll: { params: { id: /id }, path: "/builds/{id}" }
`,
    );
    const { tool, app } = generated(spec, "spec");
    expect(JSON.stringify(tool("start_build").http?.task)).toBe(
      JSON.stringify({
        style: "status",
        poll: { path: "/builds/{id}", params: { id: "/id" } },
        status: { pointer: "/finished", completed: ["true"], failed: ["failed", "error"] },
        result: { header: "content-location" },
        error: "/failure",
        cancel: { method: "DELETE", path: "/orgs/{org}/builds/{build}", params: { build: "/id", org: "/org" } },
        pollIntervalMs: 3000,
      }),
    );
    expect(tool("start_build").outputSchema).toMatchObject({ properties: { artifact: {} } });
    expect(app).toContain("tasksFeature");
  });

  it("task: true on a handler's tool lists it as taking a task and brings the tasks feature", () => {
    const spec = join(scratchDir("tasks-handler"), "crunch.yaml");
    writeFileSync(
      spec,
      `server: { name: crunch, version: 1.0.0 }
tools:
  - name: crunch
    task: true
    inputSchema: { type: object, properties: { n: { type: number } } }
`,
    );
    const { tool, app } = generated(spec, "handler");
    expect(tool("crunch").execution).toEqual({ taskSupport: "optional" });
    expect(app).toContain("tasksFeature");
  });

  it("is checked by the spec schema, each fault once; a resource's http takes no task", () => {
    const spec = join(scratchDir("tasks-spec-bad"), "bad.yaml");
    writeFileSync(
      spec,
      `server: { name: jobs, version: 1.0.0 }
upstream: { baseUrl: https://api.example.com }
tools:
  - name: start_build
    inputSchema: { type: object }
    http:
      method: POST
      path: /builds
      task: { poll: 5, statuz: {} }
resources:
  - { uri: "jobs://all", name: all, http: { method: GET, path: /jobs, task: { poll: {} } } }
`,
    );
    const run = mcpgen(ROOT, "validate", spec, "--format", "json");
    expect(run.code).toBe(1);
    const found = (JSON.parse(run.stdout) as Array<{ code: string; line: number; col: number }>).map(
      (d) => `${d.code} ${d.line}:${d.col}`,
    );
    expect(found).toEqual(["SPEC_WRONG_TYPE 9:21", "SPEC_UNKNOWN_KEY 9:24", "SPEC_UNKNOWN_KEY 11:71"]);
  });
});

describe("packageFeatures", () => {
  it("adds tasks for a task tool unless a list was asked for; all has it", () => {
    const names = (...args: Parameters<typeof packageFeatures>) => packageFeatures(...args).map((f) => f.name);
    expect(names(undefined, 3, { tasks: true })).toEqual(["tasks"]);
    expect(names(undefined, 3, {})).toEqual([]);
    expect(names(undefined, 200, { tasks: true })).toEqual(["dynamic", "tasks"]);
    expect(names(["dynamic"], 3, { tasks: true })).toEqual(["dynamic"]);
    expect(names(["all"], 3)).toContain("tasks");
  });

  it("adds apps when a tool asks for a view unless a list was asked for", () => {
    const names = (...args: Parameters<typeof packageFeatures>) => packageFeatures(...args).map((f) => f.name);
    expect(names(undefined, 3, { views: true })).toEqual(["apps"]);
    expect(names(undefined, 3, { views: true, tasks: true })).toEqual(["tasks", "apps"]);
    expect(names(["dynamic"], 3, { views: true })).toEqual(["dynamic"]);
  });
});
