/**
 * Views, the parts around the user's own page (issue 31): a page that is not UTF-8, over 1 MB, a directory or
 * outside the folder of the file that names it is UI_FILE_UNREADABLE at the ui: that names it; an object-valued `type` is summarised like any object, not ranked
 * as a table's status column.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DiagnosticBag } from "../../generator/diagnostics/diagnostic.ts";
import { load } from "../../generator/load.ts";
import { normalize } from "../../generator/normalize/normalize.ts";
import { validate } from "../../generator/validate.ts";
import { scratchDir } from "./support.ts";

const dir = scratchDir("apps-views-pages");
mkdirSync(dir, { recursive: true });

function run(name: string, text: string) {
  const file = join(dir, name);
  writeFileSync(file, text);
  const bag = new DiagnosticBag();
  const loaded = load(file, bag, {});
  if (loaded) validate(loaded.server, loaded.report);
  const diagnostics = bag.sorted().map((d) => ({ code: d.code, at: `${d.line}:${d.col}`, message: d.message }));
  const ok = bag.sorted().every((d) => d.severity !== "error");
  const model = loaded && ok ? normalize(loaded.server, "spec") : undefined;
  return { diagnostics, view: (tool: string) => model?.tools.find((t) => t.node.name === tool)?.view };
}

const spec = (page: string) => `server: { name: shop, version: 1.0.0 }
upstream: { baseUrl: https://api.example.com }
tools:
  - name: list_orders
    inputSchema: { type: object }
    http: { method: GET, path: /orders }
    ui: ${page}
`;

describe("the user's own page", () => {
  it("is reported at its ui: when it is not UTF-8, over 1 MB or a directory", () => {
    writeFileSync(join(dir, "latin1.html"), Buffer.from([0x3c, 0x70, 0x3e, 0xe9, 0x74, 0xe9]));
    writeFileSync(join(dir, "big.html"), "x".repeat(1024 * 1024 + 1));
    mkdirSync(join(dir, "folder.html"), { recursive: true });
    const cases = [
      ["latin1.html", "is not UTF-8 text"],
      ["big.html", "is 1024 KB, over the 1 MB a page may be"],
      ["folder.html", "is not a file"],
    ];
    for (const [page, problem] of cases) {
      const { diagnostics } = run(`${page}.yaml`, spec(`./${page}`));
      expect(diagnostics).toEqual([
        {
          code: "UI_FILE_UNREADABLE",
          at: "7:9",
          message: `the page './${page}' of tool 'list_orders' ${problem}`,
        },
      ]);
    }
  });

  it("is read only from inside the folder of the file that names it: no ../, absolute path or link out", () => {
    const inner = join(dir, "inner");
    mkdirSync(inner, { recursive: true });
    writeFileSync(join(dir, "secret.html"), "<p>the generating user's file</p>");
    symlinkSync(join(dir, "secret.html"), join(inner, "link.html"));
    const outside = `is outside ${inner}, the folder of the file that names it`;
    const cases = [
      ["../secret.html", outside],
      [join(dir, "secret.html"), outside],
      ["/proc/self/environ", outside],
      ["./link.html", outside],
    ];
    for (const [index, [page, problem]] of cases.entries()) {
      const { diagnostics, view } = run(`inner/outside-${index}.yaml`, spec(page));
      expect(diagnostics).toEqual([
        { code: "UI_FILE_UNREADABLE", at: "7:9", message: `the page '${page}' of tool 'list_orders' ${problem}` },
      ]);
      expect(view("list_orders")).toBeUndefined();
    }
  });

  it("is served as is when it is UTF-8, whatever it holds", () => {
    writeFileSync(join(dir, "ok.html"), "<p>été ✓</p>\n");
    expect(run("ok.yaml", spec("ok.html")).view("list_orders")).toEqual({ kind: "html", html: "<p>été ✓</p>\n" });
  });
});

describe("columns", () => {
  it("an object-valued type is summarised after the plain fields, not ranked as a status", () => {
    const item = `{ type: object, properties: { title: { type: string }, type: { type: object, properties: { name: { type: string } } }, ${Array.from(
      { length: 7 },
      (_, i) => `f${i}: { type: string }`,
    ).join(", ")} } }`;
    const text = `server: { name: shop, version: 1.0.0 }
upstream: { baseUrl: https://api.example.com }
features: [apps]
tools:
  - name: list_things
    inputSchema: { type: object }
    outputSchema: { type: object, properties: { things: { type: array, items: ${item} } } }
    http: { method: GET, path: /things }
`;
    const view = run("status.yaml", text).view("list_things");
    expect(view?.kind === "table" && view.columns.map((c) => c.key)).toEqual([
      "title",
      "f0",
      "f1",
      "f2",
      "f3",
      "f4",
      "f5",
      "f6",
    ]);
  });
});
