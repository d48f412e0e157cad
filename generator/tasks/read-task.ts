/**
 * Reading a written task binding (the spec language's `task:`, OpenAPI's `x-mcp-task`) into TaskBinding's fields.
 * The spec language's JSON schema has checked its shape already; `x-mcp-task` has no schema, so every field
 * that is not of its type is reported here (TASK_EXTENSION_INVALID) and left out. What makes a well-typed
 * binding unusable (a path parameter no param fills, a pointer that is none) is generator/rules/tasks.ts's.
 */
import type { Report } from "../diagnostics/diagnostic.ts";
import { closest } from "../diagnostics/spelling.ts";
import type { TaskNode } from "../ir.ts";
import { childPointer } from "../source/json-pointer.ts";

type Obj = { [key: string]: unknown };
const isObj = (value: unknown): value is Obj => value !== null && typeof value === "object" && !Array.isArray(value);

/** A cancel as written: OpenAPI may name the cancelling operation (`operationId`) instead of method and path. */
export type WrittenCancel = { method?: string; path?: string; params?: Record<string, string>; operationId?: string };
export type WrittenTask = Partial<Omit<TaskNode, "kind" | "loc" | "source" | "style" | "cancel">> & {
  cancel?: WrittenCancel;
};

const FIELDS: Record<string, readonly string[]> = {
  "": ["poll", "status", "result", "error", "cancel", "pollIntervalMs", "resultSchema"],
  poll: ["headers", "link", "path", "params"],
  status: ["pointer", "completed", "failed", "cancelled"],
  result: ["pointer", "link", "header"],
  cancel: ["method", "path", "params", "operationId"],
};

/** Reads `value` (at `pointer`); every problem goes to `report` under `code`. */
export function readTask(value: unknown, pointer: string, report: Report): WrittenTask | undefined {
  const problem = (at: string, message: string, hint?: string) =>
    report("TASK_EXTENSION_INVALID", at, message, hint ? { hint, at: "key" } : {});
  if (!isObj(value)) {
    problem(pointer, `a task binding must be a mapping, not ${describe(value)}`);
    return undefined;
  }
  const object = (key: string): Obj | undefined => {
    const field = value[key];
    if (field === undefined) return undefined;
    const at = childPointer(pointer, key);
    if (!isObj(field)) {
      problem(at, `${key} must be a mapping, not ${describe(field)}`);
      return undefined;
    }
    unknownKeys(field, FIELDS[key], at, problem);
    return field;
  };
  unknownKeys(value, FIELDS[""], pointer, problem);
  const read = new Reader(problem);
  const poll = object("poll");
  const status = object("status");
  const result = object("result");
  const cancel = object("cancel");
  const at = (key: string, field?: string) => childPointer(field ? childPointer(pointer, key) : pointer, field ?? key);
  const out: WrittenTask = {};
  if (poll) {
    out.poll = {
      ...read.headers(poll.headers, at("poll", "headers")),
      ...read.string("link", poll.link, at("poll", "link")),
      ...read.string("path", poll.path, at("poll", "path")),
      ...read.params(poll.params, at("poll", "params")),
    };
  }
  if (status) {
    const pointerField = read.string("pointer", status.pointer, at("status", "pointer"));
    if (status.pointer === undefined) problem(at("status"), "status needs pointer: where the job's state is read");
    if (pointerField.pointer !== undefined)
      out.status = {
        pointer: pointerField.pointer,
        completed: read.values(status.completed, at("status", "completed")) ?? [],
        failed: read.values(status.failed, at("status", "failed")) ?? [],
        ...optional("cancelled", read.values(status.cancelled, at("status", "cancelled"))),
      };
  }
  if (result) {
    out.result = {
      ...read.string("pointer", result.pointer, at("result", "pointer")),
      ...read.string("link", result.link, at("result", "link")),
      ...lower(read.string("header", result.header, at("result", "header"))),
    };
  }
  Object.assign(out, read.string("error", value.error, at("error")));
  if (cancel) {
    const method = read.string("method", cancel.method, at("cancel", "method"));
    out.cancel = {
      ...(method.method ? { method: method.method.toUpperCase() } : {}),
      ...read.string("path", cancel.path, at("cancel", "path")),
      ...read.params(cancel.params, at("cancel", "params")),
      ...read.string("operationId", cancel.operationId, at("cancel", "operationId")),
    };
  }
  const interval = value.pollIntervalMs;
  if (interval !== undefined) {
    if (typeof interval === "number" && Number.isInteger(interval) && interval >= 100) out.pollIntervalMs = interval;
    else problem(at("pollIntervalMs"), `pollIntervalMs must be a whole number of milliseconds, at least 100`);
  }
  return out;
}

/** Reads typed fields, reporting each mistyped one. */
class Reader {
  constructor(private readonly problem: (at: string, message: string) => void) {}

  string<K extends string>(key: K, value: unknown, at: string): { [P in K]?: string } {
    if (value === undefined) return {};
    if (typeof value === "string") return { [key]: value } as { [P in K]?: string };
    this.problem(at, `${key} must be a string, not ${describe(value)}`);
    return {};
  }

  /** Header names, compared without case: the catalog holds them in lower case. */
  headers(value: unknown, at: string): { headers?: string[] } {
    if (value === undefined) return {};
    if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string" && v !== ""))
      return { headers: value.map((v: string) => v.toLowerCase()) };
    this.problem(at, "headers must be a non-empty list of header names");
    return {};
  }

  /** `{ param: pointer }`: where each path parameter's value is read in the start answer. */
  params(value: unknown, at: string): { params?: Record<string, string> } {
    if (value === undefined) return {};
    if (isObj(value) && Object.values(value).every((v) => typeof v === "string"))
      return { params: { ...(value as Record<string, string>) } };
    this.problem(at, "params must map each path parameter to a JSON pointer into the start answer, e.g. { id: /id }");
    return {};
  }

  /** Terminal values, compared as text: YAML's `true` and `"true"` are the same value. */
  values(value: unknown, at: string): string[] | undefined {
    if (value === undefined) return undefined;
    const scalar = (v: unknown) => typeof v === "string" || typeof v === "boolean" || typeof v === "number";
    if (Array.isArray(value) && value.every(scalar)) return value.map(String);
    this.problem(at, "must be a list of values (strings, booleans or numbers)");
    return undefined;
  }
}

function unknownKeys(
  value: Obj,
  known: readonly string[],
  at: string,
  problem: (at: string, m: string, h?: string) => void,
) {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const guess = closest(key, known);
    problem(
      childPointer(at, key),
      `unknown field '${key}'`,
      guess ? `did you mean '${guess}'?` : `the fields are ${known.join(", ")}`,
    );
  }
}

function lower(field: { header?: string }): { header?: string } {
  return field.header === undefined ? {} : { header: field.header.toLowerCase() };
}

function optional<K extends string, T>(key: K, value: T | undefined): { [P in K]?: T } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: T };
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return `${typeof value} ${JSON.stringify(value)}`;
}
