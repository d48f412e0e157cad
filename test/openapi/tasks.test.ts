/**
 * Long-running operations in OpenAPI documents (issue 30): each detected style (202 + Location, Azure, Google
 * Operation), x-mcp-task winning over detection, x-mcp-task's shape checks, and the validate rules pointing into
 * the document; every diagnostic with its file:line:col. Real loads of real files, through load and validate.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DiagnosticBag } from "../../generator/diagnostics/diagnostic.ts";
import type { ServerNode, TaskNode, ToolNode } from "../../generator/ir.ts";
import { load } from "../../generator/load.ts";
import { validate } from "../../generator/validate.ts";
import { mcpgen } from "../cli/run.ts";
import { ROOT, scratchDir } from "../generate/support.ts";

const dir = scratchDir("openapi-tasks");
let counter = 0;

function write(text: string): string {
  const file = join(dir, `doc${counter++}.yaml`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, text);
  return file;
}

function run(paths: string, more = "") {
  const file = write(`${head}paths:\n${paths}${more}`);
  const bag = new DiagnosticBag();
  const loaded = load(file, bag);
  if (loaded) validate(loaded.server, loaded.report);
  const sorted = bag.sorted();
  const diagnostics = sorted.map((d) => ({
    code: d.code,
    severity: d.severity,
    at: `${d.line}:${d.col}`,
    message: d.message,
  }));
  return { server: loaded?.server as ServerNode, diagnostics, hints: sorted.map((d) => d.hint), file };
}

const head = "openapi: 3.1.0\ninfo: { title: Jobs, version: 1.0.0 }\nservers: [{ url: 'https://api.example.com' }]\n";
const tool = (server: ServerNode, name: string) => server.tools.find((t) => t.name === name) as ToolNode;
/** The binding as the catalog states it: what the rules and the renderer read, without the generator's fields. */
const binding = (server: ServerNode, name: string) => {
  const task = tool(server, name).http?.task as TaskNode | undefined;
  if (!task) return undefined;
  const { kind: _kind, loc: _loc, source: _source, ...rest } = task;
  return rest;
};
const codes = (diagnostics: Array<{ code: string; at: string }>) => diagnostics.map((d) => `${d.code} ${d.at}`);

const operation = `components:
  schemas:
    Operation:
      type: object
      properties: { name: { type: string }, done: { type: boolean }, response: { type: object }, error: { type: object } }
`;

describe("202 with a poll header", () => {
  it("is a location task polling the documented headers, Operation-Location first; the 202 body is no outputSchema", () => {
    const { server, diagnostics } = run(`  /exports:
    post:
      operationId: startExport
      responses:
        "202":
          description: started
          headers:
            Location: { schema: { type: string } }
            Operation-Location: { schema: { type: string } }
          content:
            application/json:
              schema: { type: object, properties: { id: { type: string } } }
`);
    expect(binding(server, "startExport")).toEqual({
      style: "location",
      poll: { headers: ["operation-location", "location"] },
    });
    expect(tool(server, "startExport").outputSchema).toBeUndefined();
    expect(diagnostics).toEqual([
      {
        code: "TASK_DETECTED",
        severity: "info",
        at: "9:9",
        message: expect.stringContaining("startExport answers 202 with a Operation-Location or Location header"),
      },
    ]);
  });

  it("is no task without such a header (a 202 alone says nothing about where to poll)", () => {
    const { server, diagnostics } = run(`  /exports:
    post:
      operationId: startExport
      responses:
        "202":
          description: queued
          content:
            application/json:
              schema: { type: object, properties: { id: { type: string } } }
`);
    expect(tool(server, "startExport").http?.task).toBeUndefined();
    expect(tool(server, "startExport").outputSchema).toMatchObject({ type: "object" });
    expect(diagnostics).toEqual([]);
  });
});

describe("Azure long-running operations", () => {
  const azure = (op: string) =>
    run(`  /vms/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
${op}`);
  const status = { pointer: "/status", completed: ["Succeeded"], failed: ["Failed"], cancelled: ["Canceled"] };
  const poll = { headers: ["azure-asyncoperation", "operation-location", "location"] };

  it("POST with x-ms-long-running-operation reads the result at Location (Azure's default for POST)", () => {
    const { server, diagnostics } = azure(`    post:
      operationId: restartVm
      x-ms-long-running-operation: true
      responses: { "202": { description: accepted } }
`);
    expect(binding(server, "restartVm")).toEqual({
      style: "azure",
      poll,
      status,
      result: { header: "location" },
      error: "/error",
    });
    expect(codes(diagnostics)).toEqual(["TASK_DETECTED 9:7"]);
  });

  it("PUT: the result is the final status document (original-uri), and a diagnostic says so", () => {
    const { server, diagnostics } = azure(`    put:
      operationId: createVm
      x-ms-long-running-operation: true
      responses: { "201": { description: created } }
`);
    expect(binding(server, "createVm")).toEqual({ style: "azure", poll, status, error: "/error" });
    expect(codes(diagnostics)).toEqual(["TASK_DETECTED 9:7", "TASK_RESULT_IS_STATUS 9:7"]);
    expect(diagnostics[1].message).toContain("original-uri (the default for PUT)");
  });

  it("an Azure-AsyncOperation header alone detects it; final-state-via: azure-async-operation is reported where written", () => {
    const { server, diagnostics } = azure(`    post:
      operationId: resizeVm
      x-ms-long-running-operation-options: { final-state-via: azure-async-operation }
      responses:
        "202":
          description: accepted
          headers:
            Azure-AsyncOperation: { schema: { type: string } }
`);
    expect(binding(server, "resizeVm")).toEqual({ style: "azure", poll, status, error: "/error" });
    expect(codes(diagnostics)).toEqual(["TASK_RESULT_IS_STATUS 9:46", "TASK_DETECTED 11:9"]);
  });
});

describe("Google Operations", () => {
  const start = `  /v1/instances:
    post:
      operationId: createInstance
      responses:
        "200":
          description: the operation
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Operation" }
`;
  const getOperation = `  /v1/{name}:
    get:
      operationId: getOperation
      parameters: [{ name: name, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: the operation
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Operation" }
`;

  it("with a GET answering the same Operation, poll that GET with the Operation's name until done", () => {
    const { server, diagnostics } = run(start + getOperation, operation);
    expect(binding(server, "createInstance")).toEqual({
      style: "google-operation",
      poll: { path: "/v1/{name}", params: { name: "/name" } },
      status: { pointer: "/done", completed: ["true"], failed: [] },
      error: "/error",
      result: { pointer: "/response" },
    });
    // The poll GET itself answers an Operation too, but is no job start.
    expect(tool(server, "getOperation").http?.task).toBeUndefined();
    expect(codes(diagnostics)).toEqual(["TASK_DETECTED 9:9"]);
  });

  it("without such a GET, no task and a warning suggesting x-mcp-task", () => {
    const { server, diagnostics } = run(start, operation);
    expect(tool(server, "createInstance").http?.task).toBeUndefined();
    expect(diagnostics).toEqual([
      { code: "TASK_POLL_UNKNOWN", severity: "warning", at: "9:9", message: expect.stringContaining("createInstance") },
    ]);
  });
});

describe("x-mcp-task", () => {
  const jobs = (
    extension: string,
    responses = `"202": { description: started, headers: { Location: { schema: { type: string } } } }`,
  ) =>
    run(`  /jobs:
    post:
      operationId: startJob
      responses: { ${responses} }
      x-mcp-task: ${extension}
  /jobs/{id}:
    get:
      operationId: getJob
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses: { "200": { description: the job } }
    delete:
      operationId: cancelJob
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses: { "204": { description: cancelled } }
`);

  it("wins over detection: a status document, cancel by operationId, resultSchema as the outputSchema", () => {
    const { server, diagnostics } = jobs(`
        poll: { path: "/jobs/{id}", params: { id: /id } }
        status: { pointer: /state, completed: [done, true], failed: [failed] }
        result: { pointer: /output }
        cancel: { operationId: cancelJob, params: { id: /id } }
        pollIntervalMs: 500
        resultSchema: { type: object, properties: { rows: { type: integer } } }`);
    expect(binding(server, "startJob")).toEqual({
      style: "status",
      poll: { path: "/jobs/{id}", params: { id: "/id" } },
      status: { pointer: "/state", completed: ["done", "true"], failed: ["failed"] },
      result: { pointer: "/output" },
      cancel: { method: "DELETE", path: "/jobs/{id}", params: { id: "/id" } },
      pollIntervalMs: 500,
    });
    expect(tool(server, "startJob").outputSchema).toMatchObject({ type: "object", properties: { rows: {} } });
    expect(diagnostics).toEqual([]);
  });

  it("without poll: the 202's documented headers, else Operation-Location then Location", () => {
    expect(binding(jobs("{ cancel: { method: DELETE } }").server, "startJob")).toEqual({
      style: "location",
      poll: { headers: ["location"] },
      cancel: { method: "DELETE" },
    });
    const bare = jobs("{ error: /error }", `"200": { description: started }`);
    expect(binding(bare.server, "startJob")).toEqual({
      style: "location",
      poll: { headers: ["operation-location", "location"] },
      error: "/error",
    });
    expect(bare.diagnostics).toEqual([]);
  });

  it("a shape that is not TaskBinding's is reported at the field, with a did-you-mean", () => {
    expect(codes(jobs("true").diagnostics)).toEqual(["TASK_EXTENSION_INVALID 9:19"]);
    const { diagnostics, hints } = jobs(`
        pol: { headers: [location] }
        status: { completed: [done] }
        pollIntervalMs: 5
        cancel: { operationId: stopJob }
        resultSchema: Job`);
    expect(diagnostics.map((d) => `${d.code} ${d.at} ${d.message}`)).toEqual([
      "TASK_EXTENSION_INVALID 10:9 unknown field 'pol'",
      "TASK_EXTENSION_INVALID 11:17 status needs pointer: where the job's state is read",
      "TASK_EXTENSION_INVALID 12:25 pollIntervalMs must be a whole number of milliseconds, at least 100",
      "TASK_CANCEL_OPERATION_UNKNOWN 13:32 cancel.operationId 'stopJob' is the operationId of no operation in the document",
      "TASK_EXTENSION_INVALID 14:23 resultSchema must be a schema object (or a $ref to one)",
    ]);
    expect(hints[0]).toBe("did you mean 'poll'?");
  });

  it("validate's rules point into the document: a poll path parameter no param fills, a pointer that is none", () => {
    const { diagnostics } = jobs(`
        poll: { path: "/jobs/{id}" }
        status: { pointer: state, completed: [done], failed: [] }`);
    expect(codes(diagnostics)).toEqual(["TASK_PARAM_MISSING 10:23", "TASK_POINTER_INVALID 11:28"]);
  });
});

describe("x-mcp-task paths the document does not have", () => {
  it("warns at the path: a poll path no GET answers, a cancel path that takes another method", () => {
    const { diagnostics } = run(`  /jobs:
    post:
      operationId: startJob
      responses: { "200": { description: started } }
      x-mcp-task:
        poll: { path: "/job/{id}", params: { id: /id } }
        cancel: { method: POST, path: "/jobs/{jobId}", params: { jobId: /id } }
  /jobs/{id}:
    get: { operationId: getJob, responses: { "200": { description: the job } } }
    delete: { operationId: cancelJob, responses: { "204": { description: cancelled } } }
`);
    expect(diagnostics.map((d) => `${d.code} ${d.severity} ${d.at} ${d.message}`)).toEqual([
      "TASK_PATH_UNDOCUMENTED warning 10:23 poll.path '/job/{id}' is the path of no operation in the document",
      "TASK_PATH_UNDOCUMENTED warning 11:39 cancel.path '/jobs/{jobId}' is called with POST, but the document's operations there take GET, DELETE",
    ]);
  });
});

describe("mcpgen validate", () => {
  it("prints a detection as info, exit 0, and counts it apart from warnings", () => {
    const file = write(`${head}paths:
  /exports:
    post:
      operationId: startExport
      responses:
        "202": { description: started, headers: { Location: { schema: { type: string } } } }
`);
    const result = mcpgen(ROOT, "validate", file);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${file}:9:9: info TASK_DETECTED: startExport answers 202 with a Location header`);
    expect(result.stderr).toContain("0 errors, 0 warnings, 1 info");
  });
});
