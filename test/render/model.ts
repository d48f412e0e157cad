/** Small models for the renderer tests: IR nodes written out by hand, named by normalize() as in generate. */
import type { PromptNode, ResourceNode, ResourceTemplateNode, ServerNode, ToolNode } from "../../generator/ir.ts";
import { type Model, normalize } from "../../generator/normalize/normalize.ts";

const loc = { file: "spec.yaml", pointer: "", line: 1, col: 1 };

export const tool = (name: string, extra: Partial<ToolNode> = {}): ToolNode => ({
  kind: "tool",
  loc: { ...loc, pointer: `/tools/${name}` },
  name,
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  ...extra,
});

export const resource = (uri: string, name: string, extra: Partial<ResourceNode> = {}): ResourceNode => ({
  kind: "resource",
  loc,
  uri,
  name,
  ...extra,
});

export const template = (uriTemplate: string, name: string): ResourceTemplateNode => ({
  kind: "resourceTemplate",
  loc,
  uriTemplate,
  name,
});

export const prompt = (name: string, args: Array<{ name: string; required: boolean }> = []): PromptNode => ({
  kind: "prompt",
  loc,
  name,
  arguments: args.map((a) => ({ kind: "promptArgument", loc, ...a })),
});

export function model(parts: Partial<ServerNode> = {}): Model {
  const server: ServerNode = {
    kind: "server",
    loc,
    origin: "spec",
    name: "demo",
    version: "1.0.0",
    tools: [],
    resources: [],
    resourceTemplates: [],
    prompts: [],
    ...parts,
  };
  return normalize(server, "../specs/demo.yaml");
}

/** A model with one of everything a renderer branches on: handlers, an http tool, static and handled resources. */
export const mixedModel = (): Model =>
  model({
    tools: [
      tool("get_forecast", { outputSchema: { type: "object", properties: { t: { type: "number" } } } }),
      tool("notes.create"),
      tool("remote", { http: { kind: "http", method: "GET", path: "/x" } as never }),
    ],
    resources: [
      resource("demo://about", "about"),
      resource("demo://static", "static", { content: { text: "hi" } as never }),
    ],
    resourceTemplates: [template("demo://notes/{id}", "note")],
    prompts: [prompt("review", [{ name: "week", required: true }])],
  });
