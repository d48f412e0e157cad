/**
 * Injection corpus, proven by equivalence: every payload is put in every free-text place of a spec
 * (descriptions, titles, enum values, defaults, examples, const, prompt text, resource text, completion
 * values, server instructions), and the generated code must be the same program as for harmless text.
 * "The same program" is checked on the token stream of every generated .ts/.js file, with literals and
 * names as one kind of token and comments ignored: text that broke out of a literal or a comment would
 * add tokens. Then one server built from all payloads at once runs, lists exactly the spec's tools
 * verbatim, and none of the payloads' code runs.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { generate } from "../../generator/index.ts";
import { PROPERTY_DESCRIPTION_LENGTH } from "../../generator/normalize/compact-schema.ts";
import { listedTool } from "../../generator/normalize/listed-tool.ts";
import { connect, type McpClient } from "../../runtime/index.ts";
import { scratchDir, serverCommand } from "../generate/support.ts";
import { runCase } from "./pipeline.ts";

const dir = scratchDir("injection-corpus");
const MARKER = join(dir, "PWNED");
/** What every payload tries to run: it would leave a marker file and kill the server. */
const RUN = `require('fs').writeFileSync(${JSON.stringify(MARKER)}, '1'); process.exit(77)`;

const PAYLOADS = [
  `*/ ${RUN} /*`,
  `"); ${RUN}; ("`,
  `'); ${RUN}; ('`,
  `\`; ${RUN}; \``,
  `\${${RUN}}`,
  `</script><script>${RUN}</script>`,
  "{{header}} {{{title}}} {{> partial}} {{#each tools}}x{{/each}} {{!comment}}",
  "line\nbreak\r\n# Heading\n| a | b |\n---",
  "sep\u2028ara\u2029tors",
  "back\\slash \\u0022 \\n \\",
  "nul\u0000 rlo\u202e lri\u2066 zwj\u200d bom\ufeff",
  "lone \ud800 surrogate",
  `\`\`\`\n\`\`\`js\n${RUN}\n\`\`\``,
  "<!-- --> ]]> <img src=x onerror=alert(1)> &lt;script&gt;",
  "$& $' $` $1 $$ $<name>", // String.prototype.replace patterns
  "//# sourceMappingURL=data:x\n#!/bin/sh\n'use strict'",
  `@ts-ignore */ // @ts-nocheck\n/* eslint-disable */ import("${MARKER}")`,
  "[link](javascript:alert(1)) <https://evil.example>",
  "__proto__ constructor prototype toString",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template placeholder is the payload
  "\\\\\\\\'\"`${}\\`",
];

/** A spec with `text(slot)` in every free-text place; names stay fixed (they are checked, not escaped). */
function spec(text: (slot: string) => string) {
  return {
    server: {
      name: "corpus",
      version: "1.0.0",
      title: text("server.title"),
      description: text("server.description"),
      instructions: text("server.instructions"),
    },
    tools: [
      {
        name: "corpus.tool",
        title: text("tool.title"),
        description: text("tool.description"),
        inputSchema: {
          type: "object",
          title: text("input.title"),
          description: text("input.description"),
          properties: {
            choice: {
              type: "string",
              description: text("choice.description"),
              enum: [text("enum.0"), text("enum.1")],
              default: text("enum.0"),
              examples: [text("enum.1")],
            },
            fixed: { const: text("const") },
            plain: { type: "string", title: text("plain.title"), description: text("plain.description") },
            nested: {
              type: "object",
              description: text("nested.description"),
              properties: { deep: { type: "string", default: text("deep.default"), pattern: "^.*$" } },
            },
          },
          required: ["plain"],
        },
        outputSchema: {
          type: "object",
          description: text("output.description"),
          properties: { echo: { type: "string", description: text("echo.description") } },
          required: ["echo"],
        },
        annotations: { title: text("annotations.title"), readOnlyHint: true },
      },
    ],
    resources: [
      {
        uri: "corpus://static",
        name: text("resource.name"),
        title: text("resource.title"),
        description: text("resource.description"),
        mimeType: "text/plain",
        text: text("resource.text"),
      },
    ],
    resourceTemplates: [
      {
        uriTemplate: "corpus://item/{id}",
        name: text("template.name"),
        description: text("template.description"),
        completions: { id: [text("completion.0"), text("completion.1")] },
      },
    ],
    prompts: [
      {
        name: "corpus.prompt",
        title: text("prompt.title"),
        description: text("prompt.description"),
        arguments: [{ name: "who", description: text("argument.description"), required: true }],
        // Prompt text may not hold {{...}} naming no argument (validate says so): braces are defused here.
        messages: [{ role: "user", content: { type: "text", text: `${defuse(text("prompt.text"))} {{who}}` } }],
      },
    ],
  };
}

/** Prompt text may not hold {{...}} naming no argument (validate says so), so its braces are defused. */
const defuse = (text: string) => text.replaceAll("{", "(");

/** The token kinds of a file: literals and identifiers collapse to one kind; comments and layout vanish. */
function shape(source: string, file: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, source);
  const kinds: string[] = [];
  const atoms = new Set([
    ts.SyntaxKind.Identifier,
    ts.SyntaxKind.StringLiteral,
    ts.SyntaxKind.NoSubstitutionTemplateLiteral,
    ts.SyntaxKind.NumericLiteral,
    ts.SyntaxKind.PrivateIdentifier,
  ]);
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.Unknown) throw new Error(`${file}: a character no TypeScript token starts with`);
    kinds.push(atoms.has(kind) ? "atom" : ts.SyntaxKind[kind]);
  }
  // Layout, as Biome lays out a long text's line: a union's leading `|` and a trailing comma carry no
  // meaning, and a payload's length alone decides whether a line breaks and so whether they appear.
  return kinds.filter(
    (kind, i) =>
      !(kind === "BarToken" && ["ColonToken", "FirstAssignment", "OpenParenToken"].includes(kinds[i - 1])) &&
      !(kind === "CommaToken" && ["CloseBracketToken", "CloseParenToken", "CloseBraceToken"].includes(kinds[i + 1])),
  );
}

async function render(name: string, text: (slot: string) => string) {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, stringify(spec(text)));
  const outcome = await runCase(file, join(dir, `${name}-out`));
  if (outcome.kind !== "generated") throw new Error(`${name}: ${outcome.codes.join(", ")}`);
  // Handler files of free-text-named resources are named from that text (made safe, with a hash), so
  // they are compared by position rather than by name.
  const code = outcome.files.filter((f) => /^src\/.*\.[jt]s$/.test(f.path));
  return new Map(code.map((f, i) => [f.path.startsWith("src/handlers/") ? `handler #${i}` : f.path, f.content]));
}

describe("the injection corpus", () => {
  it.each(PAYLOADS.map((p, i) => [i, JSON.stringify(p).slice(0, 60), p] as const))(
    "payload %i %s generates the same program as harmless text",
    async (i, _label, payload) => {
      const harmless = await render(`harmless-${i}`, (slot) => `harmless ${slot}`);
      const hostile = await render(`hostile-${i}`, (slot) =>
        slot.startsWith("enum.") || slot.startsWith("completion.") ? `${payload} ${slot}` : payload,
      );
      expect([...hostile.keys()]).toEqual([...harmless.keys()]);
      for (const [path, code] of harmless) {
        expect(shape(hostile.get(path) ?? "", path), path).toEqual(shape(code, path));
      }
    },
  );
});

describe("a server built from every payload at once", () => {
  const all = PAYLOADS.join(" | ");
  const text = (slot: string) => (slot.startsWith("enum.") || slot.startsWith("completion.") ? `${all} ${slot}` : all);
  const out = join(dir, "all-out");
  let client: McpClient;

  beforeAll(async () => {
    writeFileSync(join(dir, "all.yaml"), stringify(spec(text)));
    const result = await generate(join(dir, "all.yaml"), out);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    client = await connect(serverCommand(out));
  }, 60_000);
  afterAll(() => client?.close());

  it("lists exactly the spec's tools, prompts and resources, verbatim, and runs none of the payloads", async () => {
    const expected = spec(text);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["corpus.tool"]);
    // tools/list serves the tool compacted (listed-tool.ts): link targets and texts past the cut go, the
    // rest arrives verbatim.
    const listed = listedTool(expected.tools[0], { descriptionLength: PROPERTY_DESCRIPTION_LENGTH });
    expect(tools[0]).toMatchObject({ title: all, description: listed.description, annotations: listed.annotations });
    expect(tools[0].inputSchema).toEqual(listed.inputSchema);
    expect(tools[0].outputSchema).toEqual(listed.outputSchema);
    expect(client.server.instructions).toBe(all);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["corpus.prompt"]);
    const resource = await client.readResource("corpus://static");
    expect(resource.contents[0]).toMatchObject({ text: all });
    const prompt = await client.getPrompt("corpus.prompt", { who: "me" });
    expect((prompt.messages[0].content as { text: string }).text).toBe(`${defuse(all)} me`);
    expect(existsSync(MARKER)).toBe(false);
  });
});
