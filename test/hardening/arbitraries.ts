/**
 * fast-check arbitraries for hostile mcpgen inputs: spec-language documents whose names, schemas,
 * descriptions and refs come from alphabets chosen to break generated code, docs and the rules.
 */
import fc from "fast-check";

/** Pieces that end literals, comments, templates and Markdown, or read differently than they run. */
const NASTY_PIECES = [
  "*/",
  "/*",
  "//",
  "${",
  "}",
  "`",
  '"',
  "'",
  "\\",
  "\\u0022",
  "\n",
  "\r\n",
  "\u2028",
  "\u2029",
  "\u0000",
  "\u202e",
  "\u2066",
  "\ufeff",
  "{{",
  "}}",
  "{{{",
  "</script>",
  "<!--",
  "|",
  "#",
  "```",
  "%",
  "%0A",
  "=?base64?",
  "?=",
  "😀",
  "é",
  "ß",
  " ",
  "\t",
  "-",
  "_",
  ".",
  "/",
  "{",
  "$",
  "__proto__",
  "constructor",
  "process.exit(77)",
  // Markdown and HTML that would format, link or open markup in the generated README.
  "<img src=x onerror=alert(1)>",
  "[x](javascript:alert(1))",
  "![i](http://evil.example/i.png)",
  "<https://evil.example>",
  "*",
  "_",
  "~~",
  "&lt;",
  "&",
  ">",
  "- ",
  "1. ",
  "---",
  "===",
  "\\|",
];
/** Object.prototype's names: as property, argument or parameter names they must be plain names. */
export const PROTOTYPE_NAMES = [
  "constructor",
  "__proto__",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
];
const PLAIN = "abcxyzABZ0189";

/** A string made of nasty pieces and plain letters. */
export const nastyText = fc
  .array(fc.oneof(fc.constantFrom(...NASTY_PIECES), fc.constantFrom(...PLAIN.split(""))), { maxLength: 12 })
  .map((parts) => parts.join(""));

/** Property names: hostile text, and often exactly a prototype name. */
export const propertyName = fc.oneof(
  { weight: 3, arbitrary: nastyText },
  { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) },
);

/** Names: mostly valid-looking (so generation gets far), some colliding after normalization, some reserved words. */
export const nastyName = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "a-b",
      "a_b",
      "a.b",
      "A_B",
      "aB",
      "a__b",
      "_",
      "-",
      ".",
      "1abc",
      "default",
      "class",
      ...PROTOTYPE_NAMES,
      "then",
      "await",
      "delete",
      "new",
      "Tool",
      "ToolMap",
      "Handlers",
      "x".repeat(128),
      "x".repeat(129),
      "a$b",
      "ünïcode",
    ),
  },
  { weight: 2, arbitrary: nastyText },
);

const leaf = fc.oneof(
  fc.constant({ type: "string" }),
  fc.constant({ type: "integer" }),
  fc.constant({ type: "number" }),
  fc.constant({ type: "boolean" }),
  fc.constant({ type: "null" }),
  fc.constant({}),
  fc.constant(true),
  fc.constant(false),
  fc.record({ type: fc.constant("string"), enum: fc.array(nastyText, { minLength: 1, maxLength: 4 }) }),
  fc.record({ const: fc.oneof(nastyText, fc.integer(), fc.constant(null)) }),
  fc.record({ type: fc.constant("string"), default: nastyText, examples: fc.array(nastyText, { maxLength: 2 }) }),
  fc.record({ type: fc.constant("string"), pattern: fc.constantFrom("^a+$", "(", "[", "\\", "(a+)+$", "\\p{L}") }),
  fc.record({ type: fc.constant("string"), format: fc.constantFrom("date", "email", "uri", "bogus", "") }),
  fc.record({
    $ref: fc.constantFrom("#/$defs/a", "#/$defs/missing", "#", "#/", "http://evil.example/x.json", "#/$defs/a~1b"),
  }),
  fc.record({ type: fc.constantFrom("string", "object", "array", "bogus", 7) as fc.Arbitrary<unknown> }),
  fc.record({ type: fc.array(fc.constantFrom("string", "null", "integer"), { minLength: 1, maxLength: 3 }) }),
);

/** A JSON Schema (or something close to one) with nasty keys and text. */
export const schema: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("object"), tie("array"), tie("combo")),
  object: fc.record(
    {
      type: fc.constant("object"),
      description: nastyText,
      properties: fc.dictionary(nastyName, tie("property"), { maxKeys: 4 }),
      required: fc.array(nastyName, { maxLength: 2 }),
      additionalProperties: fc.oneof(fc.boolean(), tie("node")),
      $defs: fc.dictionary(fc.constantFrom("a", "a/b", "b"), tie("node"), { maxKeys: 2 }),
    },
    { requiredKeys: ["type"] },
  ),
  property: fc.oneof(
    tie("node"),
    fc.record({ type: fc.constantFrom("string", "integer", "boolean", "number", "object"), "x-mcp-header": nastyName }),
  ),
  array: fc.record(
    { type: fc.constant("array"), items: tie("node"), minItems: fc.integer({ min: -1, max: 3 }) },
    { requiredKeys: ["type"] },
  ),
  combo: fc.oneof(
    fc.record({ oneOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ allOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
  ),
})).node;

/** A root input/output schema: usually an object (so tools validate), sometimes anything at all. */
const rootSchema = fc.oneof(
  { weight: 5, arbitrary: schema.map((s) => (typeof s === "object" && s !== null ? { ...s, type: "object" } : s)) },
  { weight: 1, arbitrary: schema },
);

const httpBinding = fc.record(
  {
    method: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "get", "TRACE", ""),
    path: fc.oneof(
      fc.constantFrom("/x", "/x/{id}", "/x/{a}/{b}", "x", "/{", "/{}", "/{id", "//evil.example/x", "http://evil/x"),
      nastyText.map((t) => `/${t}`),
    ),
  },
  { requiredKeys: ["method", "path"] },
);

const tool = fc.record(
  {
    name: nastyName,
    title: nastyText,
    description: nastyText,
    inputSchema: rootSchema,
    outputSchema: rootSchema,
    annotations: fc.record({ readOnlyHint: fc.boolean(), title: nastyText }, { requiredKeys: [] }),
    http: httpBinding,
  },
  { requiredKeys: ["name", "inputSchema"] },
);

const resource = fc.record(
  {
    uri: fc.oneof(fc.constantFrom("x://a", "file:///etc/passwd", "x://a b", "nope", "x://a/{b}"), nastyText),
    name: nastyName,
    description: nastyText,
    mimeType: fc.constantFrom("text/plain", "application/json", "bogus", "text/plain; charset=utf-8", ""),
    text: nastyText,
  },
  { requiredKeys: ["uri", "name"] },
);

const resourceTemplate = fc.record(
  {
    uriTemplate: fc.oneof(
      fc.constantFrom("x://t/{id}", "x://t/{+path}", "x://t/{id", "x://t/{}", "x://t/{a,b}", "x://t/{?q}"),
      nastyText,
    ),
    name: nastyName,
    description: nastyText,
    completions: fc.dictionary(fc.constantFrom("id", "path", "nope", "q"), fc.array(nastyText, { maxLength: 3 }), {
      maxKeys: 2,
    }),
  },
  { requiredKeys: ["uriTemplate", "name"] },
);

const prompt = fc.record(
  {
    name: nastyName,
    description: nastyText,
    arguments: fc.array(
      fc.record({ name: nastyName, description: nastyText, required: fc.boolean() }, { requiredKeys: ["name"] }),
      { maxLength: 3 },
    ),
    messages: fc.array(
      fc.record({
        role: fc.constantFrom("user", "assistant", "system"),
        content: fc.record({
          type: fc.constantFrom("text", "image"),
          text: fc.oneof(
            nastyText,
            nastyName.map((n) => `{{${n}}}`),
          ),
        }),
      }),
      { maxLength: 2 },
    ),
  },
  { requiredKeys: ["name"] },
);

const upstream = fc.record(
  {
    baseUrl: fc.constantFrom(
      "https://api.example.com/v1",
      "http://127.0.0.1:9",
      "not a url",
      "javascript:alert(1)",
      "",
    ),
    auth: fc.oneof(
      fc.record({ type: fc.constant("bearer"), env: fc.constantFrom("TOKEN", "MY_TOKEN", "1BAD", "A B", "") }),
      fc.record({
        type: fc.constant("apiKey"),
        in: fc.constantFrom("header", "query", "cookie"),
        name: nastyName,
        env: fc.constantFrom("KEY", "X"),
      }),
      fc.record({ type: fc.constantFrom("basic", "oauth"), env: fc.constantFrom("CREDS") }),
    ),
    timeoutMs: fc.oneof(fc.integer({ min: -5, max: 100_000 }), fc.constant("10")),
  },
  { requiredKeys: ["baseUrl"] },
);

/** A whole spec-language document, sometimes with a stray or missing top-level part. */
export const specDocument = fc.record(
  {
    server: fc.record(
      {
        name: nastyName,
        version: fc.constantFrom("1.0.0", "1.0", "x", "0.0.0-rc.1+build"),
        title: nastyText,
        description: nastyText,
        instructions: nastyText,
      },
      { requiredKeys: ["name", "version"] },
    ),
    upstream,
    tools: fc.array(tool, { maxLength: 3 }),
    resources: fc.array(resource, { maxLength: 2 }),
    resourceTemplates: fc.array(resourceTemplate, { maxLength: 2 }),
    prompts: fc.array(prompt, { maxLength: 2 }),
  },
  { requiredKeys: ["server"] },
);

// ---- Plausible documents: valid structure, hostile text. Most of them must generate, so the
// property reaches render and tsc rather than stopping at the rules. ----

/** Valid tool/prompt names, many of which collide once turned into TypeScript identifiers. */
const validName = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_.-]{1,12}$/),
  fc.constantFrom("a-b", "a_b", "a.b", "A_B", "aB", "a__b", "_", "-", ".", "1abc", "default", "class", "constructor"),
  fc.constantFrom("__proto__", "toString", "then", "Tool", "ToolMap", "Handlers", "x".repeat(128), "Input", "Output"),
);
/** Text with no prompt placeholder braces (those are checked against the arguments). */
const prose = nastyText.map((t) => t.replaceAll("{{", "{ {").replaceAll("}}", "} }"));

export const validSchema: fc.Arbitrary<Record<string, unknown>> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.record({ type: fc.constant("string"), description: nastyText }, { requiredKeys: ["type"] }),
    fc.record({ type: fc.constant("string"), enum: fc.uniqueArray(nastyText, { minLength: 1, maxLength: 4 }) }),
    fc.record({ type: fc.constant("string"), default: nastyText, examples: fc.array(nastyText, { maxLength: 2 }) }),
    fc.record({ const: nastyText }),
    fc.record({ type: fc.constant("integer"), minimum: fc.integer({ max: 0 }), maximum: fc.integer({ min: 1 }) }),
    fc.constant({ type: "number" }),
    fc.constant({ type: "boolean" }),
    fc.constant({ type: ["string", "null"] }),
    fc.constant({}),
    fc.constant({ $ref: "#/$defs/shared" }),
    tie("object"),
    fc.record({ type: fc.constant("array"), items: tie("node") }),
    fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
  ),
  object: fc.dictionary(propertyName, tie("node"), { maxKeys: 4 }).chain((properties) =>
    fc.record({
      type: fc.constant("object"),
      title: nastyText,
      description: nastyText,
      properties: fc.constant(properties),
      required: fc.subarray(Object.keys(properties)),
      additionalProperties: fc.boolean(),
    }),
  ),
})).node as fc.Arbitrary<Record<string, unknown>>;

const rootObject = fc
  .tuple(
    validSchema,
    fc.dictionary(propertyName, validSchema, { maxKeys: 4 }),
    fc.option(validSchema, { nil: undefined }),
  )
  .map(([shared, properties, header]) => {
    const root: Record<string, unknown> = {
      type: "object",
      description: "root",
      properties: { ...properties },
      $defs: { shared },
    };
    if (header) (root.properties as Record<string, unknown>).region = { type: "string", "x-mcp-header": "Region" };
    return root;
  });

const plausibleTool = fc
  .record(
    {
      name: validName,
      title: nastyText,
      description: nastyText,
      inputSchema: rootObject,
      outputSchema: fc.option(rootObject, { nil: undefined }),
      bound: fc.constantFrom(undefined, "GET", "POST", "DELETE"),
    },
    { requiredKeys: ["name", "inputSchema", "bound"] },
  )
  .map(({ bound, ...tool }) => {
    if (!bound) return tool;
    // An http binding with a path parameter the schema declares, required and a string.
    // A copy: fast-check replays generated values while shrinking, so they must never be mutated.
    const input = structuredClone(tool.inputSchema) as { properties: Record<string, unknown>; required?: string[] };
    input.properties.id = { type: "string", description: "path parameter" };
    input.required = [...new Set([...(input.required ?? []), "id"])];
    return { ...tool, inputSchema: input, http: { method: bound, path: "/items/{id}" } };
  });

const plausiblePrompt = fc
  .record({
    name: validName,
    description: nastyText,
    arguments: fc.uniqueArray(fc.record({ name: propertyName, description: nastyText, required: fc.boolean() }), {
      selector: (a) => a.name,
      maxLength: 3,
    }),
    text: prose,
  })
  .map(({ text, ...p }) => ({
    ...p,
    messages: [
      { role: "user", content: { type: "text", text: `${text} ${p.arguments.map((a) => `{{${a.name}}}`).join(" ")}` } },
    ],
  }));

export const plausibleDocument = fc
  .record({
    server: fc.record(
      {
        name: nastyText,
        version: fc.constant("1.0.0"),
        title: nastyText,
        description: nastyText,
        instructions: nastyText,
      },
      { requiredKeys: ["name", "version"] },
    ),
    tools: fc.uniqueArray(plausibleTool, { selector: (t) => t.name, maxLength: 4 }),
    resources: fc.array(
      fc.record({
        name: validName,
        title: nastyText,
        description: nastyText,
        mimeType: fc.constant("text/plain"),
        text: nastyText,
      }),
      { maxLength: 2 },
    ),
    resourceTemplates: fc.array(
      fc.record({
        name: validName,
        description: nastyText,
        completions: fc.array(nastyText, { maxLength: 3 }),
      }),
      { maxLength: 2 },
    ),
    prompts: fc.uniqueArray(plausiblePrompt, { selector: (p) => p.name, maxLength: 2 }),
  })
  .map((doc) => ({
    ...doc,
    server: { ...doc.server, name: doc.server.name || "x" },
    upstream: { baseUrl: "https://api.example.com/v1", auth: { type: "bearer", env: "FUZZ_TOKEN" } },
    resources: doc.resources.map((r, i) => ({ ...r, uri: `res://r${i}` })),
    resourceTemplates: doc.resourceTemplates.map(({ completions, ...t }, i) => ({
      ...t,
      uriTemplate: `tpl://t${i}/{id}`,
      completions: { id: completions },
    })),
  }));
