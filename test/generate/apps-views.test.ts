/**
 * Views from the generator (issue 31): each tool's view from its answer schema (a table for a list of objects at
 * the top or under one property, columns picked for reading; a card for an object; the user's own page; none for
 * ui: false), a row's Open (the read-only tool one /{param} deeper), the apps feature on when a tool asks for a
 * view, and every ui:/x-mcp-ui mistake as a diagnostic at its file:line:col. Real loads of real files.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { localRefs } from "../../generator/cli/watch-files.ts";
import { DiagnosticBag } from "../../generator/diagnostics/diagnostic.ts";
import { load } from "../../generator/load.ts";
import { normalize } from "../../generator/normalize/normalize.ts";
import { validate } from "../../generator/validate.ts";
import { answerShape } from "../../generator/views/view-schema.ts";
import { scratchDir } from "./support.ts";

const dir = scratchDir("apps-views");
let counter = 0;

function run(text: string, name = `doc${counter++}.yaml`, features?: string[]) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, text);
  const bag = new DiagnosticBag();
  const loaded = load(file, bag, features ? { features } : {});
  if (loaded) validate(loaded.server, loaded.report);
  const diagnostics = bag
    .sorted()
    .map((d) => ({ code: d.code, at: `${d.line}:${d.col}`, message: d.message, hint: d.hint }));
  const errors = diagnostics.filter((d) => bag.sorted().find((x) => x.code === d.code)?.severity === "error");
  const model = loaded && errors.length === 0 ? normalize(loaded.server, "spec") : undefined;
  const view = (tool: string) => model?.tools.find((t) => t.node.name === tool)?.view;
  return { diagnostics, model, view, features: model?.features.map((f) => f.name) };
}

const head = "openapi: 3.1.0\ninfo: { title: Issues, version: 1.0.0 }\nservers: [{ url: 'https://api.example.com' }]\n";
const path = (name: string) => `{ name: ${name}, in: path, required: true, schema: { type: string } }`;
const issues = `${head}paths:
  /repos/{owner}/{repo}/issues:
    get:
      operationId: listIssues
      parameters: [${path("owner")}, ${path("repo")}]
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/Issue" } } } } }
  /repos/{owner}/{repo}/issues/{issue_number}:
    get:
      operationId: getIssue
      parameters: [${path("owner")}, ${path("repo")}, { name: issue_number, in: path, required: true, schema: { type: integer } }]
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Issue" } } } }
    delete:
      operationId: deleteIssue
      parameters: [${path("owner")}, ${path("repo")}, { name: issue_number, in: path, required: true, schema: { type: integer } }]
      responses: { "204": { description: gone } }
  /search:
    get:
      operationId: search
      x-mcp-ui: table
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  total_count: { type: integer }
                  results: { type: array, items: { $ref: "#/components/schemas/Thing" } }
  /things/{thingId}:
    get:
      operationId: getThing
      x-mcp-ui: false
      parameters: [${path("thingId")}]
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Thing" } } } }
  /stats:
    get:
      operationId: stats
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object, additionalProperties: { type: integer } } } } }
components:
  schemas:
    Thing: { type: object, properties: { name: { type: string }, sizeInBytes: { type: number } } }
    Issue:
      type: object
      required: [id, number, title, state, created_at, user]
      properties:
        id: { type: integer }
        node_id: { type: string }
        url: { type: string, format: uri }
        html_url: { type: string }
        number: { type: integer }
        title: { type: string, title: Issue title }
        state: { type: string }
        body: { anyOf: [{ type: string }, { type: "null" }] }
        created_at: { type: string, format: date-time }
        user: { allOf: [{ type: object, properties: { login: { type: string } } }] }
        labels: { type: array, items: { type: object, properties: { name: { type: string } } } }
        comments: { type: integer }
        locked: { type: boolean }
`;

describe("derivation", () => {
  const { view, features } = run(issues);

  it("turns apps on when an operation asks for a view", () => {
    expect(features).toEqual(["apps"]);
  });

  it("a list answer is a table: identity, state, dates, then the rest; links, opaque ids, long text left out", () => {
    expect(view("listIssues")).toEqual({
      kind: "table",
      columns: [
        { key: "number", label: "Number", format: "integer" },
        { key: "title", label: "Issue title", format: "text" },
        { key: "state", label: "State", format: "text" },
        { key: "created_at", label: "Created at", format: "date-time" },
        { key: "comments", label: "Comments", format: "integer" },
        { key: "locked", label: "Locked", format: "boolean" },
        { key: "user", label: "User", format: "object" },
        { key: "labels", label: "Labels", format: "list" },
      ],
      open: {
        tool: "getIssue",
        label: "Open",
        args: {
          issue_number: { from: "row", key: "number" },
          owner: { from: "input", key: "owner" },
          repo: { from: "input", key: "repo" },
        },
      },
    });
  });

  it("a record is a card of every field but opaque ids, in the schema's order", () => {
    const card = view("getIssue");
    expect(card?.kind).toBe("card");
    expect(card?.kind === "card" && card.fields.map((f) => f.key)).toEqual([
      "id",
      "url",
      "html_url",
      "number",
      "title",
      "state",
      "body",
      "created_at",
      "user",
      "labels",
      "comments",
      "locked",
    ]);
    expect(card?.kind === "card" && card.fields.find((f) => f.key === "html_url")?.format).toBe("link");
  });

  it("a page of results is a table of the one list in it; a map is a card of whatever keys come", () => {
    expect(view("search")).toEqual({
      kind: "table",
      items: "results",
      columns: [
        { key: "name", label: "Name", format: "text" },
        { key: "sizeInBytes", label: "Size in bytes", format: "number" },
      ],
    });
    expect(view("stats")).toEqual({ kind: "card", fields: [] });
  });

  it("ui: false has no view; a tool without an answer has none", () => {
    expect(view("getThing")).toBeUndefined();
    expect(view("deleteIssue")).toBeUndefined();
  });
});

describe("answer shapes read through $ref", () => {
  const item = { type: "object", properties: { id: { type: "integer" } } };
  it("follows #/$defs/ and draft-07's #/definitions/ to a list of objects", () => {
    expect(answerShape({ type: "array", items: { $ref: "#/$defs/Item" }, $defs: { Item: item } }).kind).toBe("list");
    expect(
      answerShape({ type: "array", items: { $ref: "#/definitions/Item" }, definitions: { Item: item } }).kind,
    ).toBe("list");
  });
  it("does not follow a malformed escape or an inherited key, and does not throw", () => {
    expect(answerShape({ type: "array", items: { $ref: "#/$defs/%zz" }, $defs: { Item: item } }).kind).toBe("other");
    expect(answerShape({ type: "array", items: { $ref: "#/$defs/__proto__" }, $defs: {} }).kind).toBe("other");
  });
});

describe("the spec language", () => {
  const spec = (tools: string, features = "") => `server: { name: shop, version: 1.0.0 }
upstream: { baseUrl: https://api.example.com }
${features}tools:
${tools}`;
  const list = `  - name: list_orders
    inputSchema: { type: object }
    outputSchema: { type: object, properties: { orders: { type: array, items: { type: object, properties: { id: { type: string } } } } } }
    http: { method: GET, path: /orders }
`;

  it("serves the user's own page as is, relative to the spec file", () => {
    writeFileSync(join(dir, "orders.html"), "<!doctype html><p>Orders</p>");
    const { view, features } = run(spec(`${list}    ui: ./orders.html\n`));
    expect(view("list_orders")).toEqual({ kind: "html", html: "<!doctype html><p>Orders</p>" });
    expect(features).toEqual(["apps"]);
  });

  it("mcpgen generate --watch watches a view's page like a $ref'd file", () => {
    const file = join(dir, "watched.yaml");
    writeFileSync(file, spec(`${list}    ui: ./orders.html\n  - name: x\n    ui: table\n`));
    expect(localRefs(file)).toEqual([join(dir, "orders.html")]);
  });

  it("without ui: and without the feature, no view; with features: [apps], a table", () => {
    expect(run(spec(list)).view("list_orders")).toBeUndefined();
    const asked = run(spec(list, "features: [apps]\n"));
    expect(asked.diagnostics).toEqual([]);
    expect(asked.view("list_orders")?.kind).toBe("table");
  });

  it("reports each mistake at its place, with what to do", () => {
    const { diagnostics } = run(
      spec(
        `${list}    ui: tabel
  - name: one
    inputSchema: { type: object }
    outputSchema: { type: object, properties: { id: { type: string } } }
    ui: table
  - name: two
    inputSchema: { type: object }
    ui: card
  - name: three
    inputSchema: { type: object }
    ui: true
`,
        "features: [dynamic]\n",
      ),
    );
    const found = diagnostics.map((d) => `${d.code} ${d.at}`);
    expect(found).toEqual(
      expect.arrayContaining([
        "UI_FILE_UNREADABLE 9:9",
        "UI_VIEW_MISMATCH 13:9",
        "UI_VIEW_MISMATCH 16:9",
        "UI_VALUE_INVALID 19:9",
      ]),
    );
    expect(found.filter((f) => f.startsWith("UI_FEATURE_OFF"))).toHaveLength(4);
    const typo = diagnostics.find((d) => d.code === "UI_FILE_UNREADABLE");
    expect(typo?.message).toBe("the page 'tabel' of tool 'list_orders' does not exist");
    expect(typo?.hint).toContain("Did you mean table?");
    expect(diagnostics.find((d) => d.at === "13:9")?.message).toContain(
      "whose answer is an object, not a list of objects",
    );
    expect(diagnostics.find((d) => d.at === "16:9")?.message).toContain("not described (no outputSchema)");
  });
});
