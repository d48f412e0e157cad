/**
 * Long-running operations found in an OpenAPI document (issue 30, docs/long-running.md): a 202
 * with a poll header, Azure's long-running operations, Google's `Operation`. Each detection is reported
 * (TASK_DETECTED, severity info) at what it was found from, so users see why a tool became a task.
 * `x-mcp-task` (task-extension.ts) wins over all of these.
 */
import type { Report } from "../diagnostics/diagnostic.ts";
import type { SourceLoc, TaskNode } from "../ir.ts";
import { deref, isJson, type Json, METHODS, token } from "./document.ts";

/** One operation of the document, for the lookups a binding needs (a Google poll GET, a cancel operationId). */
export type OperationRef = { method: string; path: string; op: Json; pointer: string };

export type TaskContext = {
  root: Json;
  report: Report;
  loc: (pointer: string) => SourceLoc;
  /** Every operation of the document, selected or not (a cancel operation need not be a tool). */
  operations: () => readonly OperationRef[];
};

/** The operation being mapped. */
export type TaskSubject = { op: Json; method: string; path: string; pointer: string };

/** Poll headers in order of preference, as the catalog names them (lower case). */
const LOCATION_HEADERS = ["operation-location", "location"];
const AZURE_HEADERS = ["azure-asyncoperation", "operation-location", "location"];

/** Every operation of the document in document order (paths, then METHODS order). */
export function documentOperations(root: Json): OperationRef[] {
  const out: OperationRef[] = [];
  for (const [path, rawItem] of Object.entries(isJson(root.paths) ? root.paths : {})) {
    const item = deref(root, rawItem);
    if (!item) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (isJson(op)) out.push({ method, path, op, pointer: `/paths/${token(path)}/${method}` });
    }
  }
  return out;
}

/** The documented 2xx codes of an operation, sorted, with their (dereferenced) responses. */
export function successResponses(root: Json, op: Json): Array<{ code: string; response: Json }> {
  const responses = isJson(op.responses) ? op.responses : {};
  return Object.keys(responses)
    .filter((code) => /^2\d\d$/.test(code))
    .sort()
    .flatMap((code) => {
      const response = deref(root, responses[code]);
      return response ? [{ code, response }] : [];
    });
}

/** The lower-cased names of a response's documented headers. */
function headerNames(response: Json): Set<string> {
  return new Set(Object.keys(isJson(response.headers) ? response.headers : {}).map((name) => name.toLowerCase()));
}

/** The poll headers the 202 answer documents, in order of preference (empty without a 202 or such headers). */
export function documentedPollHeaders(root: Json, op: Json): string[] {
  const accepted = successResponses(root, op).find(({ code }) => code === "202");
  if (!accepted) return [];
  const names = headerNames(accepted.response);
  return LOCATION_HEADERS.filter((name) => names.has(name));
}

/** The task an operation's own documentation implies, or undefined (then the tool answers as any other). */
export function detectTask(subject: TaskSubject, ctx: TaskContext): TaskNode | undefined {
  return azureTask(subject, ctx) ?? locationTask(subject, ctx) ?? googleTask(subject, ctx);
}

function operationName({ op, method, path }: TaskSubject): string {
  return typeof op.operationId === "string" ? op.operationId : `${method.toUpperCase()} ${path}`;
}

function locationTask(subject: TaskSubject, ctx: TaskContext): TaskNode | undefined {
  const headers = documentedPollHeaders(ctx.root, subject.op);
  if (headers.length === 0) return undefined;
  const at = `${subject.pointer}/responses/202`;
  ctx.report(
    "TASK_DETECTED",
    at,
    `${operationName(subject)} answers 202 with a ${headers.map(headerCase).join(" or ")} header: its tool is served as a task that polls that URL until 200 (or 303)`,
    { at: "key" },
  );
  return { kind: "task", loc: ctx.loc(at), source: "detected", style: "location", poll: { headers } };
}

/**
 * Azure: x-ms-long-running-operation, or an Azure-AsyncOperation header on a success answer. Where the result is
 * read follows final-state-via (Azure's defaults: location for POST, the original URI for PUT and PATCH).
 */
function azureTask(subject: TaskSubject, ctx: TaskContext): TaskNode | undefined {
  const { op, method } = subject;
  const flagged = op["x-ms-long-running-operation"] === true;
  const withHeader = successResponses(ctx.root, op).find(({ response }) =>
    headerNames(response).has("azure-asyncoperation"),
  );
  if (!flagged && !withHeader) return undefined;
  const at = flagged
    ? `${subject.pointer}/x-ms-long-running-operation`
    : `${subject.pointer}/responses/${withHeader!.code}`;
  const options = isJson(op["x-ms-long-running-operation-options"]) ? op["x-ms-long-running-operation-options"] : {};
  const written = typeof options["final-state-via"] === "string" ? options["final-state-via"] : undefined;
  const finalVia = written ?? (method.toLowerCase() === "post" ? "location" : "original-uri");
  const how = flagged ? "x-ms-long-running-operation: true" : "an Azure-AsyncOperation header";
  ctx.report(
    "TASK_DETECTED",
    at,
    `${operationName(subject)} is an Azure long-running operation (${how}): its tool is served as a task that polls the Azure-AsyncOperation (else Operation-Location, Location) URL until status is Succeeded, Failed or Canceled`,
    { at: "key" },
  );
  const result = finalVia === "location" ? { result: { header: "location" } } : {};
  if (!result.result) {
    ctx.report(
      "TASK_RESULT_IS_STATUS",
      written ? `${subject.pointer}/x-ms-long-running-operation-options/final-state-via` : at,
      `${operationName(subject)}: final-state-via is ${finalVia}${written ? "" : ` (the default for ${method.toUpperCase()})`}, so the task's result is the final status document`,
      { at: "key" },
    );
  }
  return {
    kind: "task",
    loc: ctx.loc(at),
    source: "detected",
    style: "azure",
    poll: { headers: [...AZURE_HEADERS] },
    status: { pointer: "/status", completed: ["Succeeded"], failed: ["Failed"], cancelled: ["Canceled"] },
    error: "/error",
    ...result,
  };
}

/** The schema object a success answer's JSON media type names (its $refs followed), and that media's schema as written. */
function jsonSchemaOf(root: Json, response: Json): { schema: Json; written: unknown } | undefined {
  const content = isJson(response.content) ? response.content : {};
  const type = Object.keys(content).find((t) => /^application\/(.+\+)?json\b/i.test(t));
  const media = type ? content[type] : undefined;
  if (!isJson(media)) return undefined;
  const schema = deref(root, media.schema);
  return schema ? { schema, written: media.schema } : undefined;
}

/** Google's `Operation`: an object with `name` (string) and `done` (boolean). */
function isOperationSchema(root: Json, schema: Json): boolean {
  const properties = isJson(schema.properties) ? schema.properties : {};
  const name = deref(root, properties.name);
  const done = deref(root, properties.done);
  return name?.type === "string" && done?.type === "boolean";
}

function sameSchema(a: Json, b: Json): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** A GET answering an Operation is the poll itself (operations.get), not a job start. */
function googleTask(subject: TaskSubject, ctx: TaskContext): TaskNode | undefined {
  if (subject.method.toLowerCase() === "get") return undefined;
  const first = successResponses(ctx.root, subject.op)[0];
  const answer = first && jsonSchemaOf(ctx.root, first.response);
  if (!answer || !isOperationSchema(ctx.root, answer.schema)) return undefined;
  const at = `${subject.pointer}/responses/${first.code}`;
  const poll = ctx.operations().find((candidate) => {
    if (candidate.method !== "get" || candidate.pointer === subject.pointer) return false;
    if ((candidate.path.match(/\{[^{}]+\}/g) ?? []).length !== 1) return false;
    const ok = successResponses(ctx.root, candidate.op).find(({ code }) => code === "200");
    const schema = ok && jsonSchemaOf(ctx.root, ok.response);
    return schema !== undefined && sameSchema(schema.schema, answer.schema);
  });
  if (!poll) {
    ctx.report(
      "TASK_POLL_UNKNOWN",
      at,
      `${operationName(subject)} answers a Google Operation (name, done), but no GET with one path parameter answers the same schema: the tool answers the Operation as it is`,
      { at: "key" },
    );
    return undefined;
  }
  const param = /\{([^{}]+)\}/.exec(poll.path)![1];
  ctx.report(
    "TASK_DETECTED",
    at,
    `${operationName(subject)} answers a Google Operation (name, done) that GET ${poll.path} polls: its tool is served as a task that ends when done is true, with the Operation's response (or error)`,
    { at: "key" },
  );
  return {
    kind: "task",
    loc: ctx.loc(at),
    source: "detected",
    style: "google-operation",
    poll: { path: poll.path, params: { [param]: "/name" } },
    status: { pointer: "/done", completed: ["true"], failed: [] },
    error: "/error",
    result: { pointer: "/response" },
  };
}

/** operation-location → Operation-Location, for messages. */
function headerCase(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => `${dash}${c.toUpperCase()}`);
}
