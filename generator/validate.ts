/** The validate stage: every MCP rule over the IR, whichever front end produced it. */
import type { Report } from "./diagnostics/diagnostic.ts";
import type { ServerNode } from "./ir.ts";
import { progress } from "./progress.ts";
import { headerRules } from "./rules/headers.ts";
import { httpRules } from "./rules/http.ts";
import { nameRules } from "./rules/names.ts";
import { promptRules } from "./rules/prompts.ts";
import { resourceRules } from "./rules/resources.ts";
import type { Rule } from "./rules/rule.ts";
import { schemaKeywordRules } from "./rules/schema-keywords.ts";
import { schemaRules } from "./rules/schemas.ts";
import { serverRules } from "./rules/server.ts";
import { taskRules } from "./rules/tasks.ts";
import { toolCountRules } from "./rules/tool-count.ts";
import { toolReferenceRules } from "./rules/tool-references.ts";
import { toolScopeRules } from "./rules/tool-scopes.ts";
import { toolsetRules } from "./rules/toolsets.ts";
import { upstreamOAuthRules } from "./rules/upstream-oauth.ts";
import { viewRules } from "./rules/views.ts";

const RULES: Rule[] = [
  serverRules,
  nameRules,
  toolsetRules,
  toolScopeRules,
  upstreamOAuthRules,
  schemaRules,
  schemaKeywordRules,
  headerRules,
  resourceRules,
  promptRules,
  httpRules,
  taskRules,
  viewRules,
  toolReferenceRules,
  toolCountRules,
];

export function validate(server: ServerNode, report: Report): void {
  progress.stage("checking MCP rules", RULES.length);
  RULES.forEach((rule, index) => {
    rule(server, report);
    progress.advance(index + 1);
  });
}
