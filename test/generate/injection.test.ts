/**
 * A hostile spec: every free-text field carries payloads that would break out of a string literal, a
 * comment, a template literal, a Markdown table or an HTML block if they were pasted unescaped. The
 * generated package must compile, run without executing any of it, and report the text back verbatim.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { generate } from "../../generator/index.ts";
import { compactSchema, PROPERTY_DESCRIPTION_LENGTH } from "../../generator/normalize/compact-schema.ts";
import { LISTED_DESCRIPTION, listedTool } from "../../generator/normalize/listed-tool.ts";
import { connect } from "../../runtime/index.ts";
import { readmeHeadings, readmeProblems } from "../hardening/markdown-check.ts";
import { scratchDir, serverCommand, typecheck } from "./support.ts";

const PAYLOADS = [
  "*/ process.exit(77); /*",
  '"); process.exit(77); ("',
  "'); process.exit(77); ('",
  "`; process.exit(77); `",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template placeholder is the payload
  "${process.exit(77)}",
  "</script><script>process.exit(77)</script>",
  "{{header}} {{{title}}} {{#each tools}}x{{/each}}",
  "line\nbreak\r\n# Heading injected\n| a | b |",
  "sep\u2028arator\u2029s",
  "back\\slash \\u0022 \\",
  "nul\u0000 and rlo \u202e evil",
  "```\n```js\nprocess.exit(77)\n```",
  "<!-- comment --> <img src=x onerror=alert(1)>",
];
const hostile = PAYLOADS.join(" | ");
/** Prompt text may not hold {{...}} that names no argument (validate says so), so it gets the rest. */
const hostileProse = PAYLOADS.filter((p) => !p.includes("{{")).join(" | ");

function hostileSpec() {
  return {
    server: { name: `evil ${hostile}`, version: "1.0.0", title: hostile, description: hostile, instructions: hostile },
    tools: [
      {
        name: "evil.tool",
        title: hostile,
        description: hostile,
        inputSchema: {
          type: "object",
          description: hostile,
          properties: {
            [`we"ird*/${PAYLOADS[4]}`]: {
              type: "string",
              description: hostile,
              enum: PAYLOADS,
              default: PAYLOADS[0],
              examples: [PAYLOADS[1]],
            },
            plain: {
              type: "string",
              title: hostile,
              description: hostile,
              "x-mcp-header": "Plain",
              tsType: "any; process.exit(77)",
            },
          },
          required: ["plain"],
        },
        outputSchema: {
          type: "object",
          properties: { echo: { type: "string", description: hostile } },
          required: ["echo"],
        },
      },
    ],
    resources: [{ uri: "evil://resource", name: hostile, description: hostile, mimeType: "text/plain", text: hostile }],
    resourceTemplates: [{ uriTemplate: "evil://item/{id}", name: hostile, description: hostile }],
    prompts: [
      {
        name: "evil.prompt",
        description: hostile,
        arguments: [{ name: `arg ${PAYLOADS[1]}`, description: hostile, required: true }],
        messages: [{ role: "user", content: { type: "text", text: `${hostileProse} {{arg ${PAYLOADS[1]}}}` } }],
      },
    ],
  };
}

describe("a hostile spec", () => {
  const dir = scratchDir("hostile");
  const out = join(dir, "pkg");
  let client: Awaited<ReturnType<typeof connect>>;

  beforeAll(async () => {
    writeFileSync(join(dir, "evil.yaml"), stringify(hostileSpec()));
    const result = await generate(join(dir, "evil.yaml"), out);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    // The tool and template handlers echo what they were given, as a user's code would.
    writeFileSync(
      join(out, "src/handlers/tools/evil.tool.ts"),
      `import type { ToolResult } from "../../../runtime/package/spec-server.ts";
import type { EvilToolInput, EvilToolOutput } from "../../types.ts";
export default async function (args: EvilToolInput): Promise<ToolResult<EvilToolOutput>> {
  return { structuredContent: { echo: args.plain } };
}
`,
    );
    client = await connect(serverCommand(out));
  }, 60_000);
  afterAll(() => client?.close());

  it("generates a package that compiles under tsc --strict", async () => {
    expect(await typecheck(out)).toBe("");
  }, 60_000);

  it("runs without executing any payload and reports every text back verbatim", async () => {
    const spec = hostileSpec();
    expect(client.server.info).toMatchObject({ name: spec.server.name, title: hostile });
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(1);
    // The description is served cut to LISTED_DESCRIPTION characters, its start verbatim.
    expect(tools[0]).toMatchObject({ name: "evil.tool", title: hostile });
    const listed = listedTool({ ...spec.tools[0], title: hostile, description: hostile }, { descriptionLength: 200 });
    expect(tools[0].description).toBe(listed.description);
    expect(String(listed.description).length).toBeLessThanOrEqual(LISTED_DESCRIPTION);
    expect(hostile.startsWith(String(listed.description).slice(0, 100))).toBe(true);
    // tools/list serves schemas compacted (descriptions cut, titles the description says dropped), the
    // texts it keeps verbatim.
    const compacted = compactSchema(spec.tools[0].inputSchema, { descriptionLength: PROPERTY_DESCRIPTION_LENGTH });
    expect(tools[0].inputSchema).toEqual(compacted);
    expect(JSON.stringify(compacted)).toContain(PAYLOADS[0]);
    const result = await client.callTool("evil.tool", { plain: hostile });
    expect(result.structuredContent).toEqual({ echo: hostile });
    const resource = await client.readResource("evil://resource");
    expect(resource.contents[0]).toMatchObject({ text: hostile });
    const prompt = await client.getPrompt("evil.prompt", { [`arg ${PAYLOADS[1]}`]: "filled" });
    expect((prompt.messages[0].content as { text: string }).text).toBe(`${hostileProse} filled`);
  });

  it("keeps the README's structure: no injected HTML or code fences, headings nested, table cells intact", () => {
    const full = readFileSync(join(out, "README.md"), "utf8");
    expect(readmeProblems(full)).toEqual([]);
    const readme = outsideCodeBlocks(full);
    // Descriptions are Markdown (issue 33 item 6): the server's `# Heading injected` makes its description a
    // document, in "## About the API" (###), and a tool's sits below its ### (####), never beside the template's sections.
    const headings = readmeHeadings(full);
    const tools = headings.indexOf("## Tools");
    const depths = (list: string[]) => list.filter((h) => h.endsWith(" Heading injected")).map((h) => h.indexOf(" "));
    expect(headings[tools - 2]).toBe("## About the API");
    expect(depths(headings.slice(0, tools))).toEqual([3]);
    expect(depths(headings.slice(tools)).length).toBeGreaterThan(0);
    for (const depth of depths(headings.slice(tools))) expect(depth).toBeGreaterThanOrEqual(4);
    // HTML is shown as text, `\<script>`: readmeProblems parsed the README and found no HTML node.
    expect(readme).toContain("\\<script>");
    expect(readme).not.toMatch(/^```js$/m);
    // Each table row of the tool's parameters still has exactly 6 cells.
    const rows = readme
      .split("\n")
      .filter((line) => line.startsWith("| `") && line.includes("Mcp-Param") === false && line.includes("`plain`"));
    for (const row of rows) expect(row.split(/(?<!\\)\|/).length - 2).toBe(6);
  });

  it("writes no invisible or bidirectional-override character into code or docs (Trojan Source)", () => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is one of the characters looked for
    const invisible = /[\u2028\u2029\u202a-\u202e\u2066-\u2069\u0000]/;
    for (const file of [
      "src/types.ts",
      "src/definition.ts",
      "src/validators.ts",
      "src/validators/0.cjs",
      "src/app.ts",
      "README.md",
    ]) {
      expect(readFileSync(join(out, file), "utf8"), file).not.toMatch(invisible);
    }
  });

  it("never pastes tsType into the types (json-schema-to-typescript would)", () => {
    expect(readFileSync(join(out, "src/types.ts"), "utf8")).not.toContain("any; process.exit");
  });
});

/** The Markdown outside fenced code blocks (a fence closes only on a line of at least as many backticks). */
function outsideCodeBlocks(markdown: string): string {
  const kept: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const run = /^(`{3,})/.exec(line)?.[1];
    if (fence === undefined && run) fence = run;
    else if (fence !== undefined && run && run.length >= fence.length && line.trim() === run) fence = undefined;
    else if (fence === undefined) kept.push(line);
  }
  expect(fence, "an unclosed code block").toBeUndefined();
  // Inline code spans are literal text too: a span closes on a run of exactly as many backticks.
  return kept.join("\n").replace(/(`+)[\s\S]*?(?<!`)\1(?!`)/g, "");
}
