/** User-owned handlers across regenerations: written once, never overwritten, and checked against new types. */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { scratchDir } from "./support.ts";

const spec = (
  property: string,
  extraTool = "",
) => `server: { name: greeter, version: 1.0.0, registryName: io.github.mcpgen-examples/greeter }
tools:
  - name: greet
    inputSchema: { type: object, properties: { ${property}: { type: string } }, required: [${property}] }
    outputSchema: { type: object, properties: { greeting: { type: string } }, required: [greeting] }
${extraTool}`;

const implementation = `import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import type { GreetInput, GreetOutput } from "../../types.ts";

// My own code: mcpgen must never touch it.
export default async function greet(args: GreetInput, _ctx: SpecContext): Promise<ToolResult<GreetOutput>> {
  return { structuredContent: { greeting: \`Hello, \${args.name}!\` } };
}
`;

describe("handlers", () => {
  const dir = scratchDir("handlers");
  const specFile = join(dir, "greeter.yaml");
  const out = join(dir, "pkg");
  const handler = join(out, "src/handlers/tools/greet.ts");

  it("scaffolds a typed handler that answers 'not implemented'", async () => {
    writeFileSync(specFile, spec("name"));
    const result = await generate(specFile, out);
    expect(result.outcome?.created).toEqual(["src/handlers/tools/greet.ts"]);
    const scaffold = readFileSync(handler, "utf8");
    expect(scaffold).toContain('from "../../../runtime/handler-api.ts";');
    expect(scaffold).toContain("(_args: GreetInput, _ctx: SpecContext): Promise<ToolResult<GreetOutput>>");
    expect(scaffold).toContain('return notImplemented("tool", "greet", "src/handlers/tools/greet.ts");');
  });

  it("never overwrites a handler the user wrote", async () => {
    writeFileSync(handler, implementation);
    const result = await generate(specFile, out);
    expect(result.outcome?.created).toEqual([]);
    expect(result.diagnostics).toEqual([]);
    expect(readFileSync(handler, "utf8")).toBe(implementation);
  });

  it("reports a handler that no longer type-checks after the spec changed, at its line and column", async () => {
    writeFileSync(specFile, spec("who"));
    const result = await generate(specFile, out);
    expect(readFileSync(handler, "utf8")).toBe(implementation);
    expect(result.diagnostics.map((d) => [d.code, d.severity, d.file, d.line])).toEqual([
      ["HANDLER_TYPE_ERROR", "warning", handler, 6],
    ]);
    expect(result.diagnostics[0].message).toMatch(/TS2339: Property 'name' does not exist on type 'GreetInput'/);
  });

  it("names the new path of a runtime file a handler imports from before runtime/ had folders", async () => {
    const dir = scratchDir("handlers-moved-runtime");
    const file = join(dir, "greeter.yaml");
    const pkg = join(dir, "pkg");
    writeFileSync(file, spec("name"));
    await generate(file, pkg);
    const written = join(pkg, "src/handlers/tools/greet.ts");
    // What a handler scaffolded by mcpgen 0.1 imported: runtime/spec-server.ts, now runtime/package/.
    const old = implementation.replace(
      'import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";',
      'import type { SpecContext, ToolResult } from "../../../runtime/spec-server.ts";',
    );
    writeFileSync(written, old);
    const result = await generate(file, pkg);
    expect(readFileSync(written, "utf8")).toBe(old);
    const moved = result.diagnostics.find((d) => d.code === "HANDLER_TYPE_ERROR");
    expect(moved).toMatchObject({ file: written, line: 1 });
    expect(moved?.message).toContain("Cannot find module '../../../runtime/spec-server.ts'");
    expect(moved?.hint).toBe(
      "runtime/spec-server.ts moved to runtime/package/spec-server.ts: import from '../../../runtime/handler-api.ts', " +
        "which exports everything a handler uses (or from '../../../runtime/package/spec-server.ts')",
    );
  });

  it("recreates a missing handler, and reports (but keeps) an obsolete one", async () => {
    rmSync(handler);
    writeFileSync(specFile, spec("name", "  - name: wave\n    inputSchema: { type: object }\n"));
    const first = await generate(specFile, out);
    expect(first.outcome?.created).toEqual(["src/handlers/tools/greet.ts", "src/handlers/tools/wave.ts"]);

    writeFileSync(specFile, spec("name"));
    const second = await generate(specFile, out);
    expect(second.diagnostics.map((d) => [d.code, d.file])).toEqual([
      ["HANDLER_OBSOLETE", join(out, "src/handlers/tools/wave.ts")],
    ]);
    expect(existsSync(join(out, "src/handlers/tools/wave.ts"))).toBe(true);
  });
});
