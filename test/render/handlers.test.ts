/**
 * Handler scaffolds (render/handlers.ts): a small model in, the exact files out. Each imports from the
 * one runtime entry for handlers and types `ctx` as SpecContext, what the server passes.
 */
import { describe, expect, it } from "vitest";
import { renderScaffolds } from "../../generator/render/handlers.ts";
import { mixedModel, model, resource, tool } from "./model.ts";

describe("renderScaffolds", () => {
  const scaffolds = renderScaffolds(mixedModel());
  const cases = [
    {
      path: "src/handlers/tools/get_forecast.ts",
      want: `// Handler for the tool "get_forecast".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import { notImplemented, type SpecContext, type ToolResult } from "../../../runtime/handler-api.ts";
import type { GetForecastInput, GetForecastOutput } from "../../types.ts";

export default async function toolGetForecast(
  _args: GetForecastInput,
  _ctx: SpecContext,
): Promise<ToolResult<GetForecastOutput>> {
  return notImplemented("tool", "get_forecast", "src/handlers/tools/get_forecast.ts");
}
`,
    },
    {
      path: "src/handlers/tools/notes.create.ts",
      want: `// Handler for the tool "notes.create".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import { notImplemented, type SpecContext, type ToolResult } from "../../../runtime/handler-api.ts";
import type { NotesCreateInput } from "../../types.ts";

export default async function toolNotesCreate(
  _args: NotesCreateInput,
  _ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  return notImplemented("tool", "notes.create", "src/handlers/tools/notes.create.ts");
}
`,
    },
    {
      path: "src/handlers/resources/about.ts",
      want: `// Handler for the resource "demo://about".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import { notImplementedError, type ResourceReadResult, type SpecContext } from "../../../runtime/handler-api.ts";

export default async function resourceAbout(_uri: string, _ctx: SpecContext): Promise<ResourceReadResult> {
  throw notImplementedError("resource", "demo://about", "src/handlers/resources/about.ts");
}
`,
    },
    {
      path: "src/handlers/resource-templates/note.ts",
      want: `// Handler for the resource template "demo://notes/{id}".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import { notImplementedError, type ResourceReadResult, type SpecContext } from "../../../runtime/handler-api.ts";

export default async function resourceTemplateNote(
  _uri: string,
  _variables: Record<string, string>,
  _ctx: SpecContext,
): Promise<ResourceReadResult> {
  // Nothing there? \`throw _ctx.notFound(_uri)\` answers "resource not found" in the client's revision.
  throw notImplementedError("resource template", "demo://notes/{id}", "src/handlers/resource-templates/note.ts");
}
`,
    },
    {
      path: "src/handlers/prompts/review.ts",
      want: `// Handler for the prompt "review".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import { type GetPromptResult, notImplementedError, type SpecContext } from "../../../runtime/handler-api.ts";
import type { ReviewPromptArgs } from "../../types.ts";

export default async function promptReview(_args: ReviewPromptArgs, _ctx: SpecContext): Promise<GetPromptResult> {
  throw notImplementedError("prompt", "review", "src/handlers/prompts/review.ts");
}
`,
    },
  ];
  it("scaffolds exactly the entries without a built-in source", () => {
    expect(scaffolds.map((s) => s.path)).toEqual(cases.map((c) => c.path));
  });
  for (const c of cases) {
    it(c.path, () => expect(scaffolds.find((s) => s.path === c.path)?.content).toBe(c.want));
  }

  it("breaks a call too long for its line one argument a line", () => {
    const name = `t${"x".repeat(60)}`;
    const [scaffold] = renderScaffolds(model({ tools: [tool(name)] }));
    expect(scaffold.content).toContain(
      `  return notImplemented(\n    "tool",\n    "${name}",\n    "src/handlers/tools/${name}.ts",\n  );\n`,
    );
  });

  it("writes a URI's bidirectional controls and line separators escaped, never raw (Trojan Source)", () => {
    const [scaffold] = renderScaffolds(model({ resources: [resource("demo://a\u202eb\u2028c", "ab")] }));
    expect(scaffold.content).not.toMatch(/[\u202e\u2028]/);
    expect(scaffold.content).toContain('throw notImplementedError("resource", "demo://a\\u202eb\\u2028c",');
  });

  it("says which entry a scaffold serves, and where a renamed tool's file was", () => {
    const [scaffold] = renderScaffolds(model({ tools: [tool("new_name", { renamedFrom: "old_name" })] }));
    expect(scaffold).toMatchObject({
      owner: "tool new_name",
      path: "src/handlers/tools/new_name.ts",
      formerPath: "src/handlers/tools/old_name.ts",
    });
  });
});
