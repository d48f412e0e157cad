/**
 * Server instructions and descriptions that name a tool the server does not have: a model told to "use
 * `list_alerts`" looks for a tool that is not there (specs/weather.yaml did this). A word counts as a
 * tool reference when it is written in backquotes and shaped like a tool name (snake_case, kebab-case,
 * camelCase, or dotted when this server's tools are), or written bare in snake_case. Words that name
 * anything else of the server (a prompt, resource, argument or property) are left alone. The spec
 * language only: an OpenAPI document's prose backquotes field names and enum values by the hundred.
 */

import { closest } from "../diagnostics/spelling.ts";
import type { ServerNode } from "../ir.ts";
import { walkSchema } from "../schema/walk.ts";
import type { Rule } from "./rule.ts";

const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;
const KEBAB = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/;
const CAMEL = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/;
const DOTTED = /^[a-z][a-z0-9_]*(?:\.[a-z0-9_-]+)+$/;
/** Punctuation a bare word may be wrapped in inside a sentence. */
const WRAPPING = /^[("'[]+|[)"'\],.;:!?]+$/g;

export const toolReferenceRules: Rule = (server, report) => {
  if (server.origin !== "spec") return;
  const tools = server.tools.map((tool) => tool.name);
  const toolSet = new Set(tools);
  const otherNames = namesBesidesTools(server);
  const dotted = tools.some((name) => name.includes("."));
  const looksLikeTool = (word: string) =>
    SNAKE.test(word) || KEBAB.test(word) || CAMEL.test(word) || (dotted && DOTTED.test(word));

  const check = (text: unknown, pointer: string, where: string) => {
    if (typeof text !== "string") return; // the structure check reports a description that is not text
    const seen = new Set<string>();
    for (const word of referencedWords(text, looksLikeTool)) {
      if (toolSet.has(word) || otherNames.has(word) || word.startsWith("x-") || seen.has(word)) continue;
      seen.add(word);
      const guess = closest(word, tools);
      const known = tools.length === 0 ? "this server has no tools" : `its tools: ${tools.slice(0, 10).join(", ")}`;
      const hint = guess ? `did you mean '${guess}'?` : `${known}; name an existing tool or reword the text`;
      report("UNKNOWN_TOOL_REFERENCE", pointer, `${where} names '${word}', which is not a tool of this server`, {
        hint,
      });
    }
  };

  check(server.instructions, "/server/instructions", "server.instructions");
  check(server.description, "/server/description", "server.description");
  for (const tool of server.tools) check(tool.description, `${tool.loc.pointer}/description`, `tool '${tool.name}'`);
  for (const prompt of server.prompts) {
    check(prompt.description, `${prompt.loc.pointer}/description`, `prompt '${prompt.name}'`);
    for (const arg of prompt.arguments)
      check(arg.description, `${arg.loc.pointer}/description`, `argument '${arg.name}'`);
  }
  for (const resource of server.resources) {
    check(resource.description, `${resource.loc.pointer}/description`, `resource '${resource.name}'`);
  }
  for (const template of server.resourceTemplates) {
    check(template.description, `${template.loc.pointer}/description`, `resource template '${template.name}'`);
  }
};

/** In the order they appear: backquoted words shaped like a tool name, and bare snake_case words. */
function referencedWords(text: string, looksLikeTool: (word: string) => boolean): string[] {
  const words: string[] = [];
  for (const [, quoted, bare] of text.matchAll(/`([^`\n]*)`|(\S+)/g)) {
    if (quoted !== undefined) {
      const word = quoted.trim().replace(/\(\)$/, "");
      if (looksLikeTool(word)) words.push(word);
    } else {
      const word = bare.replace(WRAPPING, "");
      if (SNAKE.test(word)) words.push(word);
    }
  }
  return words;
}

/** Every name in the server that is not a tool's: prompts, resources, templates and their variables,
 * arguments and schema properties. A word naming one of them is not a typo. */
function namesBesidesTools(server: ServerNode): Set<string> {
  const names = new Set<string>();
  for (const prompt of server.prompts) {
    names.add(prompt.name);
    for (const arg of prompt.arguments) names.add(arg.name);
  }
  for (const resource of server.resources) names.add(resource.name);
  for (const template of server.resourceTemplates) {
    names.add(template.name);
    if (typeof template.uriTemplate !== "string") continue;
    for (const [, body] of template.uriTemplate.matchAll(/\{[+#./;?&]?([^}]*)\}/g)) {
      for (const variable of body.split(",")) names.add(variable.replace(/\*$|:\d+$/, ""));
    }
  }
  for (const tool of server.tools) {
    if (tool.renamedFrom) names.add(tool.renamedFrom);
    for (const schema of [tool.inputSchema, tool.outputSchema]) {
      walkSchema(schema, (node) => {
        const properties = node.properties;
        if (typeof properties === "object" && properties !== null) {
          for (const key of Object.keys(properties)) names.add(key);
        }
      });
    }
  }
  return names;
}
