/**
 * One failing and one passing document per diagnostic code that a spec's content can trigger.
 * `fail` must produce exactly `code` (and nothing else) at `at`; `pass` is the same document fixed
 * and must produce no diagnostic at all. File-level codes (missing file, UTF-8, size...) are in
 * read-source.test.ts, because they need real files rather than text.
 */
import type { Code } from "../../generator/diagnostics/catalog.ts";

export type RuleCase = { code: Code; fail: string; pass: string; at: string };

const head = "server: { name: t, version: 1.0.0 }\n";
const tool = (schema: string, extra = "") => `${head}tools:\n  - name: t1\n    inputSchema: ${schema}\n${extra}`;
const upstream = "upstream: { baseUrl: 'https://api.example.com' }\n";

export const ruleCases: RuleCase[] = [
  { code: "YAML_SYNTAX", fail: `${head}tools: [\n`, pass: `${head}tools: []\n`, at: "3:1" },
  { code: "YAML_DUPLICATE_KEY", fail: `${head}tools: []\ntools: []\n`, pass: `${head}tools: []\n`, at: "3:1" },
  { code: "YAML_MULTIPLE_DOCUMENTS", fail: `${head}---\n${head}`, pass: `---\n${head}`, at: "2:1" },
  { code: "YAML_ALIAS_LIMIT", fail: bomb(), pass: `${head}tools: &t []\nprompts: *t\n`, at: "1:1" },
  { code: "FILE_EMPTY", fail: "# nothing here\n", pass: head, at: "1:1" },
  { code: "SPEC_NOT_MAPPING", fail: "- server\n", pass: head, at: "1:1" },
  { code: "SPEC_UNKNOWN_KEY", fail: `${head}tols: []\n`, pass: `${head}tools: []\n`, at: "2:1" },
  { code: "SPEC_MISSING_FIELD", fail: "server: { name: t }\n", pass: head, at: "1:1" },
  { code: "SPEC_WRONG_TYPE", fail: `${head}tools: {}\n`, pass: `${head}tools: []\n`, at: "2:8" },
  {
    code: "SPEC_INVALID_VALUE",
    fail: `${head}${upstream.replace("}", ", auth: { type: oauth, env: T } }")}`,
    pass: `${head}${upstream.replace("}", ", auth: { type: bearer, env: T } }")}`,
    at: "2:64",
  },
  { code: "SERVER_VERSION_NOT_SEMVER", fail: "server: { name: t, version: v1 }\n", pass: head, at: "1:29" },
  // Clients such as VS Code Copilot and the OpenAI API take 128 tools at most: 129 warns, 128 does not.
  { code: "MANY_TOOLS", fail: manyTools(129), pass: manyTools(128), at: "3:3" },
  {
    code: "UNKNOWN_TOOL_REFERENCE",
    fail: "server: { name: t, version: 1.0.0, instructions: Use `list_alerts` for warnings. }\ntools: [{ name: list_alert, inputSchema: { type: object } }]\n",
    pass: "server: { name: t, version: 1.0.0, instructions: Use `list_alert` for warnings. }\ntools: [{ name: list_alert, inputSchema: { type: object } }]\n",
    at: "1:50",
  },
  {
    code: "NAME_INVALID",
    fail: `${head}prompts:\n  - name: "sum up"\n`,
    pass: `${head}prompts:\n  - name: sum_up\n`,
    at: "3:11",
  },
  {
    code: "NAME_DUPLICATE",
    fail: `${head}prompts: [{ name: a }, { name: a }]\n`,
    pass: `${head}prompts: [{ name: a }, { name: A }]\n`,
    at: "2:32",
  },
  {
    code: "NAME_CASE_CLASH",
    fail: `${head}tools:\n  - { name: purge, inputSchema: { type: object } }\n  - { name: PURGE, inputSchema: { type: object } }\n`,
    pass: `${head}tools:\n  - { name: purge, inputSchema: { type: object } }\n  - { name: purge_all, inputSchema: { type: object } }\n`,
    at: "4:13",
  },
  {
    code: "NAME_LONG",
    fail: `${head}prompts: [{ name: ${"x".repeat(65)} }]\n`,
    pass: `${head}prompts: [{ name: ${"x".repeat(64)} }]\n`,
    at: "2:19",
  },
  {
    code: "TOOLSET_NAME_INVALID",
    fail: `${head}tools:\n  - { name: a, toolset: Pull Requests, inputSchema: { type: object } }\n`,
    pass: `${head}tools:\n  - { name: a, toolset: pull-requests, inputSchema: { type: object } }\n`,
    at: "3:25",
  },
  {
    code: "TOOLSET_NAME_RESERVED",
    fail: `${head}tools:\n  - { name: a, toolset: all, inputSchema: { type: object } }\n`,
    pass: `${head}tools:\n  - { name: a, toolset: everything, inputSchema: { type: object } }\n`,
    at: "3:25",
  },
  {
    code: "TOOL_SCOPE_INVALID",
    fail: `${head}tools:\n  - { name: a, scopes: [ok, "two words"], inputSchema: { type: object } }\n`,
    pass: `${head}tools:\n  - { name: a, scopes: [ok, two:words], inputSchema: { type: object } }\n`,
    at: "3:29",
  },
  {
    code: "RENAMED_FROM_EXISTS",
    fail: `${head}tools:\n  - { name: a, inputSchema: { type: object } }\n  - { name: b, renamedFrom: a, inputSchema: { type: object } }\n`,
    pass: `${head}tools:\n  - { name: a, inputSchema: { type: object } }\n  - { name: b, renamedFrom: z, inputSchema: { type: object } }\n`,
    at: "4:29",
  },
  {
    code: "RENAMED_FROM_DUPLICATE",
    fail: `${head}tools:\n  - { name: b, renamedFrom: z, inputSchema: { type: object } }\n  - { name: c, renamedFrom: z, inputSchema: { type: object } }\n`,
    pass: `${head}tools:\n  - { name: b, renamedFrom: z, inputSchema: { type: object } }\n  - { name: c, renamedFrom: y, inputSchema: { type: object } }\n`,
    at: "4:29",
  },
  {
    code: "RESOURCE_NAME_MISSING",
    fail: `${head}resources: [{ uri: 'a://b', name: " " }]\n`,
    pass: `${head}resources: [{ uri: 'a://b', name: b }]\n`,
    at: "2:35",
  },
  {
    code: "RESOURCE_SOURCE_CONFLICT",
    fail: `${head}resources: [{ uri: 'a://b', name: b, text: x, blob: eA== }]\n`,
    pass: `${head}resources: [{ uri: 'a://b', name: b, text: x }]\n`,
    at: "2:13",
  },
  { code: "SCHEMA_NOT_OBJECT", fail: tool("{ type: array }"), pass: tool("{ type: object }"), at: "4:26" },
  {
    code: "SCHEMA_UNKNOWN_DIALECT",
    fail: tool("{ $schema: 'https://example.com/s', type: object }"),
    pass: tool("{ $schema: 'http://json-schema.org/draft-07/schema#', type: object }"),
    at: "4:29",
  },
  {
    code: "SCHEMA_INVALID",
    fail: tool("{ type: object, properties: { a: { minLength: -1 } } }"),
    pass: tool("{ type: object, properties: { a: { minLength: 1 } } }"),
    at: "4:64",
  },
  {
    code: "SCHEMA_PROTO_PROPERTY",
    fail: tool("{ type: object, properties: { __proto__: { type: string } } }"),
    pass: tool("{ type: object, properties: { proto: { type: string } } }"),
    at: "4:48",
  },
  {
    code: "HEADER_NOT_STRING",
    fail: tool("{ type: object, properties: { a: { type: string, x-mcp-header: 7 } } }"),
    pass: tool("{ type: object, properties: { a: { type: string, x-mcp-header: A7 } } }"),
    at: "4:81",
  },
  {
    code: "HEADER_EMPTY",
    fail: tool("{ type: object, properties: { a: { type: string, x-mcp-header: '' } } }"),
    pass: tool("{ type: object, properties: { a: { type: string, x-mcp-header: A } } }"),
    at: "4:81",
  },
  {
    code: "HEADER_CONTROL_CHAR",
    fail: tool('{ type: object, properties: { a: { type: string, x-mcp-header: "A\\nB" } } }'),
    pass: tool("{ type: object, properties: { a: { type: string, x-mcp-header: A-B } } }"),
    at: "4:81",
  },
  {
    code: "HEADER_NOT_TOKEN",
    fail: tool("{ type: object, properties: { a: { type: string, x-mcp-header: 'A B' } } }"),
    pass: tool("{ type: object, properties: { a: { type: string, x-mcp-header: A_B } } }"),
    at: "4:81",
  },
  {
    code: "HEADER_DUPLICATE",
    fail: tool(
      "{ type: object, properties: { a: { type: string, x-mcp-header: X }, b: { type: string, x-mcp-header: x } } }",
    ),
    pass: tool(
      "{ type: object, properties: { a: { type: string, x-mcp-header: X }, b: { type: string, x-mcp-header: Y } } }",
    ),
    at: "4:119",
  },
  {
    code: "HEADER_TYPE",
    fail: tool("{ type: object, properties: { a: { type: number, x-mcp-header: A } } }"),
    pass: tool("{ type: object, properties: { a: { type: integer, minimum: 0, maximum: 9, x-mcp-header: A } } }"),
    at: "4:81",
  },
  {
    code: "HEADER_PLACEMENT",
    fail: tool("{ type: object, properties: { a: { type: array, items: { type: string, x-mcp-header: A } } } }"),
    pass: tool(
      "{ type: object, properties: { a: { type: object, properties: { b: { type: string, x-mcp-header: A } } } } }",
    ),
    at: "4:103",
  },
  {
    code: "HEADER_INTEGER_RANGE",
    fail: tool("{ type: object, properties: { a: { type: integer, maximum: 1e17, x-mcp-header: A } } }"),
    pass: tool(
      "{ type: object, properties: { a: { type: integer, minimum: -9007199254740991, maximum: 9007199254740991, x-mcp-header: A } } }",
    ),
    at: "4:97",
  },
  {
    code: "HEADER_INTEGER_UNBOUNDED",
    fail: tool("{ type: object, properties: { a: { type: integer, minimum: 0, x-mcp-header: A } } }"),
    pass: tool("{ type: object, properties: { a: { type: integer, minimum: 0, maximum: 100, x-mcp-header: A } } }"),
    at: "4:94",
  },
  {
    code: "SCHEMA_UNKNOWN_KEYWORD",
    fail: tool("{ type: object, properties: { a: { type: string } }, requird: [a] }"),
    pass: tool("{ type: object, properties: { a: { type: string } }, required: [a] }"),
    at: "4:71",
  },
  {
    code: "SCHEMA_NULL_KEYWORD",
    fail: tool("{ type: object, properties: { city: { type: string, description: City name, e.g. Paris } } }"),
    pass: tool('{ type: object, properties: { city: { type: string, description: "City name, e.g. Paris" } } }'),
    at: "4:94",
  },
  {
    code: "SCHEMA_KEY_PROSE",
    fail: tool("{ type: object, properties: { city: { type: string, description: City, for example: Paris } } }"),
    pass: tool('{ type: object, properties: { city: { type: string, description: "City, for example: Paris" } } }'),
    at: "4:89",
  },
  {
    code: "HEADER_SENSITIVE",
    fail: tool("{ type: object, properties: { apiKey: { type: string, x-mcp-header: Key } } }"),
    pass: tool("{ type: object, properties: { region: { type: string, x-mcp-header: Region } } }"),
    at: "4:86",
  },
  {
    code: "RESOURCE_URI_INVALID",
    fail: `${head}resources: [{ uri: stations, name: s }]\n`,
    pass: `${head}resources: [{ uri: 'weather://stations', name: s }]\n`,
    at: "2:20",
  },
  {
    code: "RESOURCE_URI_DUPLICATE",
    fail: `${head}resources: [{ uri: 'a://b', name: b }, { uri: 'a://b', name: c }]\n`,
    pass: `${head}resources: [{ uri: 'a://b', name: b }, { uri: 'a://c', name: c }]\n`,
    at: "2:47",
  },
  {
    code: "TEMPLATE_INVALID",
    fail: `${head}resourceTemplates: [{ uriTemplate: 'a://b/{c', name: t }]\n`,
    pass: `${head}resourceTemplates: [{ uriTemplate: 'a://b/{c}', name: t }]\n`,
    at: "2:36",
  },
  {
    code: "TEMPLATE_VARIABLE_UNNAMED",
    fail: `${head}resourceTemplates: [{ uriTemplate: 'a://b/{+}', name: t }]\n`,
    pass: `${head}resourceTemplates: [{ uriTemplate: 'a://b/{+c}', name: t }]\n`,
    at: "2:36",
  },
  {
    code: "TEMPLATE_DUPLICATE",
    fail: `${head}resourceTemplates: [{ uriTemplate: 'a://{b}', name: t }, { uriTemplate: 'a://{b}', name: u }]\n`,
    pass: `${head}resourceTemplates: [{ uriTemplate: 'a://{b}', name: t }, { uriTemplate: 'a://x/{b}', name: u }]\n`,
    at: "2:73",
  },
  {
    code: "TEMPLATE_NOT_MATCHABLE",
    fail: `${head}resourceTemplates: [{ uriTemplate: 'a://{b}{c}', name: t }]\n`,
    pass: `${head}resourceTemplates: [{ uriTemplate: 'a://{b}/{c}', name: t }]\n`,
    at: "2:36",
  },
  {
    code: "COMPLETION_UNKNOWN_VARIABLE",
    fail: `${head}resourceTemplates: [{ uriTemplate: 'a://{b}', name: t, completions: { c: [x] } }]\n`,
    pass: `${head}resourceTemplates: [{ uriTemplate: 'a://{b}', name: t, completions: { b: [x] } }]\n`,
    at: "2:71",
  },
  {
    code: "MIME_TYPE_INVALID",
    fail: `${head}resources: [{ uri: 'a://b', name: b, mimeType: json }]\n`,
    pass: `${head}resources: [{ uri: 'a://b', name: b, mimeType: application/json }]\n`,
    at: "2:48",
  },
  {
    code: "PROMPT_ARGUMENT_DUPLICATE",
    fail: `${head}prompts: [{ name: p, arguments: [{ name: a }, { name: a }] }]\n`,
    pass: `${head}prompts: [{ name: p, arguments: [{ name: a }, { name: b }] }]\n`,
    at: "2:55",
  },
  {
    code: "PROMPT_PLACEHOLDER_UNKNOWN",
    fail: prompt("[{ name: city }]", "user", "{ type: text, text: 'Hi {{town}}' }"),
    pass: prompt("[{ name: city }]", "user", "{ type: text, text: 'Hi {{city}}' }"),
    at: "5:39",
  },
  {
    code: "PROMPT_ROLE_INVALID",
    fail: prompt("[]", "system", "{ type: text, text: hi }"),
    pass: prompt("[]", "assistant", "{ type: text, text: hi }"),
    at: "5:24",
  },
  {
    code: "PROMPT_CONTENT_INVALID",
    fail: prompt("[]", "user", "{ type: text, body: hi }"),
    pass: prompt("[]", "user", "{ type: text, text: hi }"),
    at: "5:39",
  },
  { code: "HTTP_METHOD_INVALID", fail: bound("FETCH", "/a"), pass: bound("GET", "/a"), at: "6:21" },
  { code: "HTTP_PATH_INVALID", fail: bound("GET", "a/{id"), pass: bound("GET", "/a"), at: "6:32" },
  { code: "HTTP_PATH_PARAM_UNKNOWN", fail: bound("GET", "/a/{nope}"), pass: bound("GET", "/a/{id}"), at: "6:32" },
  {
    code: "HTTP_PATH_PARAM_NOT_REQUIRED",
    fail: bound("GET", "/a/{id}", "[]"),
    pass: bound("GET", "/a/{id}"),
    at: "6:32",
  },
  {
    code: "HTTP_PATH_PARAM_TYPE",
    fail: bound("GET", "/a/{id}", "[id]", "boolean"),
    pass: bound("GET", "/a/{id}", "[id]", "integer"),
    at: "6:32",
  },
  { code: "UPSTREAM_MISSING", fail: bound("GET", "/a").replace(upstream, ""), pass: bound("GET", "/a"), at: "5:11" },
  {
    code: "UPSTREAM_URL_INVALID",
    fail: `${head}upstream: { baseUrl: api.example.com }\n`,
    pass: `${head}${upstream}`,
    at: "2:22",
  },
  {
    code: "AUTH_ENV_INVALID",
    fail: `${head}upstream: { baseUrl: 'https://a.b', auth: { type: bearer, env: 1TOKEN } }\n`,
    pass: `${head}upstream: { baseUrl: 'https://a.b', auth: { type: bearer, env: TOKEN_1 } }\n`,
    at: "2:64",
  },
  // Task bindings (issue 30): `task:` on a tool's http binding
  {
    code: "TASK_PARAM_MISSING",
    fail: tasked("{ poll: { path: '/jobs/{id}' } }"),
    pass: tasked("{ poll: { path: '/jobs/{id}', params: { id: /id } } }"),
    at: "9:29",
  },
  {
    code: "TASK_POLL_MISSING",
    fail: tasked("{ poll: {} }"),
    pass: tasked("{ poll: { headers: [Location] } }"),
    at: "9:21",
  },
  {
    code: "TASK_STATUS_INCOMPLETE",
    fail: tasked("{ poll: { headers: [location] }, status: { pointer: /state } }"),
    pass: tasked("{ poll: { headers: [location] }, status: { pointer: /state, completed: [done], failed: [failed] } }"),
    at: "9:46",
  },
  {
    code: "TASK_POINTER_INVALID",
    fail: tasked("{ poll: { link: status_url } }"),
    pass: tasked("{ poll: { link: /status_url } }"),
    at: "9:29",
  },
  {
    code: "TASK_RESULT_AMBIGUOUS",
    fail: tasked("{ poll: { headers: [location] }, result: { pointer: /a, header: location } }"),
    pass: tasked("{ poll: { headers: [location] }, result: { header: location } }"),
    at: "9:46",
  },
  {
    code: "TASK_METHOD_INVALID",
    fail: tasked("{ poll: { headers: [location] }, cancel: { method: GET } }"),
    pass: tasked("{ poll: { headers: [location] }, cancel: { method: DELETE } }"),
    at: "9:64",
  },
  {
    code: "TASK_FEATURE_OFF",
    fail: tasked("{ poll: { headers: [location] } }", "features: [dynamic]\n"),
    pass: tasked("{ poll: { headers: [location] } }", "features: [dynamic, tasks]\n"),
    at: "10:7",
  },
];

/** A tool bound to POST /jobs whose binding has `task`; `features` a top-level line or nothing. */
function tasked(task: string, features = ""): string {
  const binding = `    http:\n      method: POST\n      path: /jobs\n      task: ${task}\n`;
  return `${head}${features}${upstream}tools:\n  - name: t1\n    inputSchema: { type: object }\n${binding}`;
}

function prompt(args: string, role: string, content: string): string {
  return `${head}prompts:\n  - name: p\n    arguments: ${args}\n    messages: [{ role: ${role}, content: ${content} }]\n`;
}

function bound(method: string, path: string, required = "[id]", type = "string"): string {
  const schema = `{ type: object, properties: { id: { type: ${type} } }, required: ${required} }`;
  return `${head}${upstream}tools:\n  - name: t1\n    inputSchema: ${schema}\n    http: { method: ${method}, path: '${path}' }\n`;
}

/** A spec with `count` trivial tools. */
function manyTools(count: number): string {
  const tools = Array.from({ length: count }, (_, i) => `  - { name: t${i}, inputSchema: { type: object } }\n`);
  return `${head}tools:\n${tools.join("")}`;
}

/** Nine levels of nine aliases each: 9^9 nodes if expanded. */
function bomb(): string {
  const lines = ["a: &a [x, x, x, x, x, x, x, x, x]"];
  for (let i = 1; i < 9; i++) {
    const prev = String.fromCharCode(96 + i);
    const name = String.fromCharCode(97 + i);
    lines.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(", ")}]`);
  }
  return `${lines.join("\n")}\n`;
}
