/**
 * Issue 33 item 6: a spec's Markdown descriptions render as Markdown in the README (mdProse), safely, and
 * one-line contexts get their first sentence as plain text (mdSummary). Real Markdown in, the exact
 * Markdown out, then a re-parse (GFM, mdast) of what a renderer would see: no HTML, no unsafe link, no
 * heading above its context, nothing left open past the description.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import type { Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { renderDocs } from "../../generator/render/docs.ts";
import { mdCode } from "../../generator/render/markdown.ts";
import { firstSentence, mdProse, mdProseParsed, mdSummary } from "../../generator/render/markdown-prose.ts";
import { scratchDir } from "../generate/support.ts";
import { readmeHeadings, readmeProblems } from "../hardening/markdown-check.ts";
import { model, prompt, tool } from "./model.ts";

const parse = (markdown: string) =>
  fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });

/** Every node of a type in the tree a renderer builds from the Markdown. */
function nodes<T extends Nodes["type"]>(markdown: string, type: T): Extract<Nodes, { type: T }>[] {
  const found: Nodes[] = [];
  const walk = (node: Nodes) => {
    if (node.type === type) found.push(node);
    if ("children" in node) for (const child of node.children) walk(child as Nodes);
  };
  walk(parse(markdown));
  return found as Extract<Nodes, { type: T }>[];
}

const API_DOCS = `# Introduction

The **Acme** API manages _orders_. See [the guide](https://docs.acme.example/guide) or [contact us](mailto:api@acme.example).

## Example Request

\`\`\`sh
curl https://api.acme.example/orders
\`\`\`

| field | meaning |
|---|---|
| \`id\` | the order's id |
| \`state\` | *open* or ~~closed~~ |

- one
- two
  1. nested

> A note.`;

describe("mdProse: a description's Markdown as Markdown", () => {
  it("keeps headings, emphasis, links, code blocks, tables, lists and quotes; nests the headings under the title", () => {
    expect(mdProse(API_DOCS, 2)).toBe(`## Introduction

The **Acme** API manages *orders*. See [the guide](https://docs.acme.example/guide) or [contact us](mailto:api@acme.example).

### Example Request

\`\`\`sh
curl https://api.acme.example/orders
\`\`\`

| field   | meaning              |
| ------- | -------------------- |
| \`id\`    | the order's id       |
| \`state\` | *open* or ~~closed~~ |

- one
- two
  1. nested

> A note.`);
  });

  it("shifts headings only as far as the context needs, and clamps at 6", () => {
    expect(mdProse("## Already nested\n\n### Deeper", 2)).toBe("## Already nested\n\n### Deeper");
    expect(mdProse("# Top\n\n## Sub\n\n###### Deepest", 4)).toBe("#### Top\n\n##### Sub\n\n###### Deepest");
    // A setext heading is a heading too.
    expect(mdProse("Top\n===\n\ntext", 4)).toBe("#### Top\n\ntext");
    expect(mdProse("no heading at all", 4)).toBe("no heading at all");
  });

  it("shows raw HTML as text, never as HTML: block and inline, in a list and a table", () => {
    const out = mdProse(
      [
        "<script>alert(1)</script>",
        "",
        "text <img src=x onerror=alert(1)> and <b onclick=x>bold</b> <!-- comment -->",
        "",
        "- <iframe src=javascript:alert(2)></iframe>",
        "",
        "| a |",
        "|---|",
        "| <svg onload=alert(3)> |",
        "",
        "<div>",
        "",
        "# inside a div",
        "",
        "</div>",
      ].join("\n"),
      2,
    );
    expect(nodes(out, "html")).toEqual([]);
    expect(out).toContain("\\<script>alert(1)\\</script>");
    expect(out).toContain("text \\<img src=x onerror=alert(1)> and \\<b onclick=x>bold\\</b> \\<!-- comment -->");
    expect(out).toContain("- \\<iframe src=javascript:alert(2)>\\</iframe>");
    expect(out).toContain("| \\<svg onload=alert(3)> |");
    // What a renderer shows is the HTML's text.
    expect(nodes(out, "text").map((t) => t.value)).toContain("<script>alert(1)</script>");
  });

  it("makes links and images to anything but http, https, mailto or a relative URL inert: their text stays", () => {
    const out = mdProse(
      [
        "[a](javascript:alert(1)) [b](JavaScript:alert(1)) [c](javascript&#58;alert(1)) [d](vbscript:msgbox)",
        "[e](data:text/html,<script>x</script>) [f](file:///etc/passwd) <javascript:alert(2)> [g][ref]",
        "![pic](data:image/png;base64,AAAA) ![](javascript:x) [h](  javascript:alert(3)  )",
        "",
        "[ref]: javascript:alert(4)",
      ].join("\n"),
      2,
    );
    expect(nodes(out, "link")).toEqual([]);
    expect(nodes(out, "image")).toEqual([]);
    expect(nodes(out, "definition")).toEqual([]);
    expect(out).not.toMatch(/\]\(|javascript:alert\(4\)/);
    expect(out).toContain("a b c d");
    expect(out).toContain("pic");
  });

  it("keeps links and images that are safe; a reference becomes an inline link, its definition does not stay", () => {
    const out = mdProse(
      "[web](https://x.example/a?b=1) [rel](./docs/x.md) [frag](#orders) [ref][r] ![logo](https://x.example/l.png)\n\n[r]: http://y.example/ 'Y'",
      2,
    );
    expect(nodes(out, "link").map((l) => l.url)).toEqual([
      "https://x.example/a?b=1",
      "./docs/x.md",
      "#orders",
      "http://y.example/",
    ]);
    expect(nodes(out, "image").map((i) => i.url)).toEqual(["https://x.example/l.png"]);
    // A definition is global to the whole README: one left here could redefine a link elsewhere.
    expect(nodes(out, "definition")).toEqual([]);
  });

  it("closes what the description leaves open: a fence, a list, a quote, a table cannot swallow the README", () => {
    for (const text of [
      "```js\nconst x = 1;\n# not a heading",
      "````\n```\n",
      "- item\n  continued",
      "> quote",
      "| a |\n|---|\n| b",
    ]) {
      const after = parse(`${mdProse(text, 2)}\n\n## Run it\n\nafter`).children.slice(-2);
      expect(
        after.map((node) => node.type),
        text,
      ).toEqual(["heading", "paragraph"]);
    }
    // An unclosed fence is closed with a fence longer than any run of backticks inside.
    expect(mdProse("```\n```` not a close\n", 2)).toBe("`````\n```` not a close\n`````");
  });

  it("evens a table's rows to its header: GFM drops the extra cells and pads the missing ones", () => {
    expect(mdProse("| a | b |\n|---|---|\n| 1 | 2 | 3 |\n| 4 |", 2)).toBe("| a | b |\n| - | - |\n| 1 | 2 |\n| 4 |   |");
  });

  it("shows invisible and bidirectional-override characters, as mdText does (Trojan Source)", () => {
    expect(mdProse("rlo \u202e evil\u0000", 2)).toBe("rlo U+202E evilU+0000");
  });

  it("skips the parser for words and plain punctuation, with the parser's output", () => {
    // Mostly what the fast path takes, and the characters and line starts that must send a text to the parser.
    const piece = fc.oneof(
      {
        weight: 12,
        arbitrary: fc.constantFrom(
          ...["word", "Wörd", "42", " ", ",", ".", ";", "'", '"', "?", "(", ")", "%", "/", "-", "\n", "\n\n"],
        ),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          ...["  ", "\t", "+", "=", "1.", "- ", "#", "*", "_", "www.", "a@b.co", "http://x.example", "    ", "\n---"],
        ),
      },
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const text = pieces.join("");
        expect(mdProse(text, 2)).toBe(text.trim() ? mdProseParsed(text, 2) : "");
      }),
      { numRuns: 400, seed: 33 },
    );
    expect(mdProse("Export a report\n\n\nStarts a job; it ends with the file's URL.", 4)).toBe(
      "Export a report\n\nStarts a job; it ends with the file's URL.",
    );
  });

  it("is empty for no text", () => {
    expect(mdProse(undefined, 2)).toBe("");
    expect(mdProse("  \n ", 2)).toBe("");
  });
});

describe("mdSummary: one line for a table cell", () => {
  it("is the first sentence of the first paragraph, as plain text, escaped for a cell", () => {
    expect(mdSummary("## Pets\n\nEverything about **your** [pets](https://x.example). More below.")).toBe(
      "Everything about your pets.",
    );
    expect(mdSummary(API_DOCS)).toBe("The Acme API manages orders.");
    expect(mdSummary("a | b <i>c</i>. Second")).toBe("a \\| b &lt;i&gt;c&lt;/i&gt;.");
    expect(mdSummary("# Only a heading")).toBe("Only a heading");
    expect(mdSummary("line one\nline two")).toBe("line one line two");
    expect(mdSummary(undefined)).toBe("");
  });

  it("does not end a sentence at an abbreviation", () => {
    expect(firstSentence("City name, e.g. Paris")).toBe("City name, e.g. Paris");
    expect(firstSentence("One of the states, i.e. Open. Or not.")).toBe("One of the states, i.e. Open.");
    expect(firstSentence("Fruit, etc. And more")).toBe("Fruit, etc. And more");
    expect(firstSentence("Really? Yes.")).toBe("Really?");
    expect(firstSentence("the U.S. Census. Next")).toBe("the U.S. Census.");
  });
});

describe("mdCode in a table cell", () => {
  it("keeps a backslash before a pipe from ending the cell (found by the fuzzer once the check parsed the README)", () => {
    for (const name of ["[x](javascript:alert(1))\\|", "\\|[x](javascript:alert(1))", "a\\\\|b", "a|b"]) {
      const row = `| ${mdCode(name)} | after |`;
      const table = parse(`| name | next |\n| --- | --- |\n${row}`);
      const cells = nodes(`| name | next |\n| --- | --- |\n${row}`, "tableCell").slice(2);
      expect(
        cells.map((cell) => cell.children.map((child) => child.type)),
        row,
      ).toEqual([["inlineCode"], ["text"]]);
      expect(table.children).toHaveLength(1);
    }
    expect(mdCode("a\\|b")).toBe("`a\\\\\\|b`");
  });
});

describe("the README with Markdown descriptions", () => {
  it("renders the server's, a tool's and a prompt's description as Markdown, each nested under its heading", () => {
    const readme = renderDocs(
      model({
        description: "# About\n\nSome **bold** text.\n\n```\nunclosed",
        tools: [tool("t1", { description: "# Usage\n\nCall it with `city`.\n\n[evil](javascript:alert(1))" })],
        prompts: [{ ...prompt("p1"), description: "## Notes\n\n- a\n- b" }],
      }),
    );
    expect(readmeProblems(readme)).toEqual([]);
    // A description with headings is a document: its first sentence under the title (plain), the whole in a section of its own.
    expect(readme).toContain("# demo\n\nSome bold text.\n\nVersion `1.0.0`.");
    expect(readme).toContain("## About the API\n\n### About\n\nSome **bold** text.\n\n```\nunclosed\n```\n\n## Tools");
    expect(readme).toContain("### `t1`\n\n#### Usage\n\nCall it with `city`.\n\nevil\n\n");
    expect(readme).toContain("### `p1`\n\n#### Notes\n\n- a\n- b\n");
    expect(readmeHeadings(readme)).toEqual(
      expect.arrayContaining(["## Run it", "## About the API", "### About", "#### Usage", "## Prompts", "#### Notes"]),
    );
  });

  it("keeps one description's link definitions from reaching another's", () => {
    const readme = renderDocs(
      model({
        tools: [
          tool("t1", { description: "[r]: javascript:alert(1)" }),
          tool("t2", { description: "see [x][r] and [r]" }),
        ],
      }),
    );
    expect(readmeProblems(readme)).toEqual([]);
    expect(nodes(readme, "link").filter((link) => /javascript/i.test(link.url))).toEqual([]);
    expect(nodes(readme, "linkReference")).toEqual([]);
  });

  it("readmeProblems finds what mdProse removes (the check is not vacuous)", () => {
    const readme = renderDocs(model({ description: "safe" })).replace(
      "safe",
      "<script>x</script>\n\n[a](javascript:x)\n\n[r]: /x",
    );
    expect(readmeProblems(readme)).toEqual([
      "raw HTML at line 4: <script>x</script>",
      "a link to javascript:x at line 6",
      "a definition at line 8",
    ]);
  });
});

describe("an OpenAPI document's Markdown, end to end", () => {
  it("generates a README whose API description, tool and toolset read as Markdown, safely", async () => {
    const dir = scratchDir("markdown-blocks");
    const doc = {
      openapi: "3.0.3",
      info: {
        title: "Acme Orders",
        version: "1.0.0",
        description:
          "## Introduction\n\nThe **Acme** API. <script>alert(1)</script>\n\n## Authentication\n\nSend a key. [Docs](https://acme.example/docs), [not](javascript:alert(2)).\n\n```\nunclosed fence",
      },
      servers: [{ url: "http://127.0.0.1:9" }],
      tags: [{ name: "orders", description: "## Orders\n\nEverything about **orders**, e.g. Refunds. More text." }],
      paths: {
        "/orders": {
          get: {
            operationId: "listOrders",
            tags: ["orders"],
            summary: "List orders",
            description: "Lists orders.\n\n# Paging\n\n| param | use |\n|---|---|\n| `page` | *which* page |",
            parameters: [
              {
                name: "state",
                in: "query",
                description: "The **state** to filter by. One of `open`, `closed`.",
                schema: { type: "string" },
              },
            ],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    };
    const file = join(dir, "acme.json");
    writeFileSync(file, JSON.stringify(doc));
    const out = join(dir, "out");
    const result = await generate(file, out, {});
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const readme = readFileSync(join(out, "README.md"), "utf8");
    expect(readmeProblems(readme)).toEqual([]);
    // A document (it has headings): under the title its first sentence; the whole in "## About the API", its
    // `##` headings one below that, the HTML as text.
    expect(readme).toContain("# Acme Orders\n\nThe Acme API.\n\nVersion `1.0.0`.");
    expect(readme).toContain(
      "## About the API\n\n### Introduction\n\nThe **Acme** API. \\<script>alert(1)\\</script>\n\n### Authentication\n\nSend a key. [Docs](https://acme.example/docs), not.\n\n```\nunclosed fence\n```\n\n## Tools",
    );
    expect(readme).not.toContain("\\#\\#");
    // The tool: summary and description, its heading below the tool's ###, its table kept.
    expect(readme).toContain(
      "### `listOrders` (List orders)\n\nList orders\n\nLists orders.\n\n#### Paging\n\n| param  | use          |\n| ------ | ------------ |\n| `page` | *which* page |\n",
    );
    // Table cells: the first sentence, plain.
    expect(readme).toMatch(/^\| `orders` \| 1 \| [\d,]+ \| Everything about orders, e\.g\. Refunds\. \|$/m);
    expect(readme).toContain("| The state to filter by. |");
    expect(readmeHeadings(readme).slice(0, 2)).toEqual(["# Acme Orders", "## Run it"]);
  }, 60_000);
});
