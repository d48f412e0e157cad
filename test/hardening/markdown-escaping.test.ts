/**
 * Issue 11, item 11: the generated README escapes every spec string (SECURITY.md). A hostile spec, in
 * the spec language and in OpenAPI, puts HTML, table pipes, backticks, headings, list markers and link
 * syntax in every string field that reaches the README; the README must keep its own structure: every
 * table row has its header's column count, no HTML, no unsafe link, and the headings are the
 * template's, plus those a description wrote (issue 33 item 6: descriptions are Markdown), nested
 * below the section they sit in.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { generate } from "../../generator/index.ts";
import { scratchDir } from "../generate/support.ts";
import { readmeHeadings, readmeProblems } from "./markdown-check.ts";

const dir = scratchDir("markdown-escaping");

/** Everything Markdown or HTML could act on, on several lines. */
const EVIL = [
  "<img src=x onerror=alert(1)> | col | <script>alert(2)</script>",
  "[link](javascript:alert(3)) ![img](http://evil.example/x.png) <https://evil.example>",
  "`code` ``` fence ~~~ *em* _u_ ~~s~~ $math$ &amp; &lt;b&gt;",
  "# Heading",
  "- item",
  "1. ordered",
  "---",
  "=== | |",
].join("\n");
/** For single-line fields (names, ids): the same without line breaks. */
const EVIL_LINE = EVIL.replace(/\n/g, " ");

function checkReadme(readme: string, headings: unknown[]) {
  expect(readmeProblems(readme)).toEqual([]);
  expect(readmeHeadings(readme), "the template's headings, and the descriptions' nested").toEqual(headings);
}

/** Every feature, so every section of the README that can hold a spec string is checked. */
const EVERY_SECTION = { features: ["all"] };

describe("the generated README of a hostile spec-language spec", () => {
  it("keeps every spec string from formatting, linking, opening HTML or breaking a table", async () => {
    const spec = {
      // Descriptions that start a paragraph start with what would open a block there.
      server: { name: "evil", version: "1.0.0", title: EVIL, description: "---" },
      upstream: { baseUrl: "http://127.0.0.1:9/api", auth: { type: "bearer", env: "EVIL_TOKEN" } },
      tools: [
        {
          name: "evil_tool",
          title: EVIL,
          description: `- ${EVIL}`,
          inputSchema: {
            type: "object",
            properties: {
              [EVIL_LINE]: { type: "string", description: EVIL, default: EVIL, enum: [EVIL, EVIL_LINE] },
              fmt: { type: "string", format: EVIL_LINE, description: EVIL, examples: [EVIL] },
              hdr: { type: "string", "x-mcp-header": "X-`|`", description: EVIL },
              konst: { const: EVIL },
            },
            required: [EVIL_LINE],
          },
          http: { method: "POST", path: "/things/<b>|`x`" },
        },
      ],
      resources: [
        {
          uri: `evil://r/${encodeURIComponent(EVIL_LINE)}`,
          name: EVIL,
          description: EVIL,
          mimeType: "text/plain",
          text: EVIL,
        },
      ],
      resourceTemplates: [{ uriTemplate: "evil://t/{id}", name: EVIL, description: EVIL, mimeType: "text/plain" }],
      prompts: [
        {
          name: "evil_prompt",
          title: EVIL,
          description: `1. ${EVIL}`,
          arguments: [{ name: EVIL_LINE, description: EVIL, required: true }],
          messages: [{ role: "user", content: { type: "text", text: "hi" } }],
        },
      ],
    };
    const file = join(dir, "evil--->.yaml");
    writeFileSync(file, stringify(spec));
    const out = join(dir, "spec-out");
    const result = await generate(file, out, EVERY_SECTION);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const readme = readFileSync(join(out, "README.md"), "utf8");
    expect(readme.split("\n")[0].slice(4, -3)).not.toContain("--");
    checkReadme(readme, [
      expect.stringMatching(/^# /),
      "## Run it",
      "### Connect a client",
      "#### Connecting to a protected server",
      "### Publish and deploy",
      "### Authorization (OAuth)",
      "## Deploy",
      "## Authentication",
      "## Per-user upstream credentials",
      "### Your own hook: src/credentials.ts",
      "### Token exchange (RFC 8693), built in",
      "### Per-user access to the upstream API",
      "## Toolsets",
      "## Responses within a budget",
      "## Code mode",
      "## Long-running operations",
      "## Views (MCP Apps)",
      "## Tools",
      expect.stringMatching(/^### CODE \(/),
      // The tool's and the prompt's descriptions (Markdown) hold `# Heading`: below their `###`.
      "#### Heading",
      "## Resources",
      "## Resource templates",
      "## Prompts",
      expect.stringMatching(/^### CODE \(/),
      "#### Heading",
    ]);
  }, 120_000);
});

describe("the generated README of a hostile OpenAPI document", () => {
  it("escapes security scheme names, server variables and every operation string", async () => {
    const doc = {
      openapi: "3.0.3",
      info: { title: EVIL, description: EVIL, version: "1.0.0" },
      servers: [
        {
          url: "http://127.0.0.1:9/{stage}",
          variables: {
            stage: { default: "<img src=x onerror=alert(1)>|`", enum: ["<img src=x onerror=alert(1)>|`", EVIL_LINE] },
          },
        },
      ],
      components: {
        securitySchemes: {
          key: { type: "apiKey", in: "header", name: "X-Key<script>alert(1)</script>|`" },
          oauth: {
            type: "oauth2",
            flows: { clientCredentials: { tokenUrl: "http://127.0.0.1:9/token?<b>|[x](y)", scopes: {} } },
          },
          // An OAuth2 sign-in (mapped to a token from the environment): the README's Authentication section names it.
          [EVIL_LINE]: {
            type: "oauth2",
            flows: { implicit: { authorizationUrl: "http://127.0.0.1:9/auth?<b>|[x](y)`", scopes: {} } },
          },
        },
      },
      security: [{ key: [] }, { oauth: [] }, { [EVIL_LINE]: [] }],
      tags: [{ name: EVIL_LINE, description: EVIL }],
      paths: {
        "/items/{id}": {
          get: {
            operationId: "getItem",
            // The first tag names the tool's toolset: the README's Toolsets table shows it and its description.
            tags: [EVIL_LINE],
            summary: EVIL,
            description: `+ ${EVIL}`,
            parameters: [
              {
                name: "id",
                in: "path",
                required: true,
                description: EVIL,
                schema: { type: "string", enum: [EVIL_LINE] },
              },
              { name: "q|`<b>`", in: "query", description: EVIL, schema: { type: "string", default: EVIL } },
            ],
            responses: { "200": { description: EVIL } },
          },
        },
      },
    };
    const file = join(dir, "evil-openapi.json");
    writeFileSync(file, JSON.stringify(doc));
    const out = join(dir, "openapi-out");
    const result = await generate(file, out, EVERY_SECTION);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const readme = readFileSync(join(out, "README.md"), "utf8");
    expect(readme).toContain("It reads these environment variables");
    expect(readme).toMatch(/The scheme `+.* is an OAuth2 sign-in \(`implicit`\)/);
    checkReadme(readme, [
      expect.stringMatching(/^# /),
      "## Run it",
      "### Connect a client",
      "#### Connecting to a protected server",
      "### Publish and deploy",
      "### Authorization (OAuth)",
      "## Deploy",
      "## Authentication",
      "## Per-user upstream credentials",
      "### Your own hook: src/credentials.ts",
      "### Token exchange (RFC 8693), built in",
      "### Per-user access to the upstream API",
      "## Toolsets",
      "## Responses within a budget",
      "## Code mode",
      "## Long-running operations",
      "## Views (MCP Apps)",
      // info.description has a heading of its own: a document, in a section of its own, its `# Heading` below.
      "## About the API",
      "### Heading",
      "## Tools",
      expect.stringMatching(/^### CODE/),
      // The operation's summary and description (Markdown) each hold `# Heading`: below the tool's `###`.
      "#### Heading",
      "#### Heading",
    ]);
  }, 120_000);
});
