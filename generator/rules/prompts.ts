/** Prompts: unique argument names, placeholders that name declared arguments, valid roles and content blocks. */
import type { Rule } from "./rule.ts";

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const ROLES = new Set(["user", "assistant"]);

export const promptRules: Rule = (server, report) => {
  for (const prompt of server.prompts) {
    const declared = new Set<string>();
    for (const argument of prompt.arguments) {
      if (declared.has(argument.name)) {
        report(
          "PROMPT_ARGUMENT_DUPLICATE",
          `${argument.loc.pointer}/name`,
          `prompt '${prompt.name}' declares argument '${argument.name}' twice`,
        );
      }
      declared.add(argument.name);
    }
    for (const message of prompt.messages ?? []) {
      const at = message.loc.pointer;
      if (!ROLES.has(message.role)) {
        report(
          "PROMPT_ROLE_INVALID",
          `${at}/role`,
          `prompt '${prompt.name}' has a message with role '${message.role}'`,
        );
      }
      const problem = contentProblem(message.content);
      if (problem) report("PROMPT_CONTENT_INVALID", `${at}/content`, `prompt '${prompt.name}': ${problem}`);
      for (const text of textsOf(message.content)) {
        for (const [, name] of text.matchAll(PLACEHOLDER)) {
          if (!declared.has(name)) {
            const known = [...declared].map((n) => `'${n}'`).join(", ") || "none";
            report(
              "PROMPT_PLACEHOLDER_UNKNOWN",
              `${at}/content`,
              `prompt '${prompt.name}' uses {{${name}}}, but declares no argument '${name}' (declared: ${known})`,
            );
          }
        }
      }
    }
  }
};

const isString = (v: unknown) => typeof v === "string";

/** What is wrong with an MCP content block (schema.ts ContentBlock), or undefined when it is valid. */
export function contentProblem(content: { [key: string]: unknown }): string | undefined {
  const missing = (fields: string[]) => {
    const absent = fields.filter((f) => !isString(content[f]));
    return absent.length
      ? `${content.type} content needs string field${absent.length > 1 ? "s" : ""} ${absent.map((f) => `'${f}'`).join(", ")}`
      : undefined;
  };
  switch (content.type) {
    case "text":
      return missing(["text"]);
    case "image":
    case "audio":
      return missing(["data", "mimeType"]);
    case "resource_link":
      return missing(["uri", "name"]);
    case "resource": {
      const resource = content.resource as { [key: string]: unknown } | undefined;
      if (typeof resource !== "object" || resource === null) return "resource content needs a 'resource' mapping";
      if (!isString(resource.uri)) return "resource content needs 'resource.uri'";
      if (!isString(resource.text) && !isString(resource.blob))
        return "resource content needs 'resource.text' or 'resource.blob'";
      return undefined;
    }
    default:
      return `unknown content type ${JSON.stringify(content.type)} (expected text, image, audio, resource or resource_link)`;
  }
}

/** The texts a placeholder can appear in: a text block's text, an embedded resource's text. */
function textsOf(content: { [key: string]: unknown }): string[] {
  if (content.type === "text" && isString(content.text)) return [content.text as string];
  const resource = content.resource as { text?: unknown } | undefined;
  if (content.type === "resource" && isString(resource?.text)) return [resource!.text as string];
  return [];
}
