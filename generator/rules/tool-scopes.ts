/** OAuth scopes on tools (issue 17), resources and templates (issue 27): each must be an RFC 6749 §3.3 scope-token, so the generated server can
 * name it in a `WWW-Authenticate: Bearer scope="..."` challenge and compare it with a token's scopes. */
import type { Rule } from "./rule.ts";

// scope-token = 1*( %x21 / %x23-5B / %x5D-7E ): printable ASCII without space, '"' and '\'.
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

export const toolScopeRules: Rule = (server, report) => {
  const scoped = [
    ...server.tools.map((node) => ({ node, what: `tool '${node.name}'` })),
    ...server.resources.map((node) => ({ node, what: `resource '${node.uri}'` })),
    ...server.resourceTemplates.map((node) => ({ node, what: `resource template '${node.uriTemplate}'` })),
  ];
  for (const { node, what } of scoped) {
    (node.scopes ?? []).forEach((scope, index) => {
      if (SCOPE_TOKEN.test(scope)) return;
      report(
        "TOOL_SCOPE_INVALID",
        `${node.loc.pointer}/scopes/${index}`,
        `scope ${JSON.stringify(scope).slice(0, 80)} of ${what} is not an OAuth scope token`,
      );
    });
  }
};
