/** Resources and resource templates: absolute unique URIs, valid RFC 6570 templates, well-formed MIME types. */
import { matchProblem, parseUriTemplate } from "../../runtime/protocol/uri-template.ts";
import type { Rule } from "./rule.ts";

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: whitespace and control characters never belong in a URI
const NOT_URI = /[\u0000-\u0020\u007f<>"{}|\\^`]/;
// RFC 6838 restricted-name for type and subtype, then optional `; name=value` parameters.
const NAME = "[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}";
const MIME = new RegExp(`^${NAME}/${NAME}(\\s*;\\s*${NAME}=(?:"[^"]*"|[A-Za-z0-9!#$%&'*+.^_\`|~-]+))*$`);

export const resourceRules: Rule = (server, report) => {
  // Positions of first uses are looked up only for a duplicate (each may cost a parse, load-spec.ts).
  const uris = new Map<string, { line: number; col: number }>();
  for (const resource of server.resources) {
    const at = `${resource.loc.pointer}/uri`;
    if (!SCHEME.test(resource.uri) || NOT_URI.test(resource.uri) || !URL.canParse(resource.uri)) {
      report("RESOURCE_URI_INVALID", at, `resource uri '${resource.uri}' is not an absolute URI`);
    }
    const first = uris.get(resource.uri);
    if (first)
      report(
        "RESOURCE_URI_DUPLICATE",
        at,
        `resource uri '${resource.uri}' is already used at ${first.line}:${first.col}`,
      );
    else uris.set(resource.uri, resource.loc);
  }

  const templates = new Map<string, { line: number; col: number }>();
  for (const template of server.resourceTemplates) {
    const at = `${template.loc.pointer}/uriTemplate`;
    const parsed = parseUriTemplate(template.uriTemplate);
    const { error, variables } = parsed;
    for (const name of Object.keys(template.completions ?? {})) {
      if (!error && !variables.includes(name)) {
        report(
          "COMPLETION_UNKNOWN_VARIABLE",
          `${template.loc.pointer}/completions/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`,
          `completions for '${name}', which uriTemplate '${template.uriTemplate}' does not have (variables: ${variables.join(", ") || "none"})`,
          { at: "key" },
        );
      }
    }
    if (error) {
      report(
        error.unnamed ? "TEMPLATE_VARIABLE_UNNAMED" : "TEMPLATE_INVALID",
        at,
        `uriTemplate '${template.uriTemplate}': ${error.message} (at character ${error.offset + 1})`,
      );
    } else if (!SCHEME.test(template.uriTemplate)) {
      report(
        "TEMPLATE_INVALID",
        at,
        `uriTemplate '${template.uriTemplate}' does not start with a URI scheme such as 'weather:'`,
      );
    } else {
      // The server matches read URIs back to variables with the same grammar; refuse what it would have to guess.
      const problem = matchProblem(parsed);
      if (problem) {
        report(
          "TEMPLATE_NOT_MATCHABLE",
          at,
          `uriTemplate '${template.uriTemplate}': ${problem.message} (at character ${problem.offset + 1})`,
        );
      }
    }
    const first = templates.get(template.uriTemplate);
    if (first)
      report(
        "TEMPLATE_DUPLICATE",
        at,
        `uriTemplate '${template.uriTemplate}' is already used at ${first.line}:${first.col}`,
      );
    else templates.set(template.uriTemplate, template.loc);
  }

  for (const node of [...server.resources, ...server.resourceTemplates]) {
    if (node.mimeType !== undefined && !MIME.test(node.mimeType)) {
      report(
        "MIME_TYPE_INVALID",
        `${node.loc.pointer}/mimeType`,
        `mimeType '${node.mimeType}' is not of the form type/subtype`,
      );
    }
  }
};
