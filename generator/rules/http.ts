/** http bindings and the upstream they forward to. */

import { parseUriTemplate } from "../../runtime/protocol/uri-template.ts";
import type { Report } from "../diagnostics/diagnostic.ts";
import { closest } from "../diagnostics/spelling.ts";
import type { HttpBindingNode, JsonSchema } from "../ir.ts";
import type { Rule } from "./rule.ts";

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PARAM = /\{([^{}]*)\}/g;

export const httpRules: Rule = (server, report) => {
  const bound: Array<{ binding: HttpBindingNode; check: (name: string, at: string) => void }> = [];
  for (const tool of server.tools) {
    if (tool.http)
      bound.push({
        binding: tool.http,
        check: (name, at) => checkToolParam(tool.name, tool.inputSchema, name, at, report),
      });
  }
  for (const resource of server.resources) {
    if (resource.http) {
      bound.push({
        binding: resource.http,
        check: (name, at) =>
          report(
            "HTTP_PATH_PARAM_UNKNOWN",
            at,
            `resource '${resource.uri}' has no variables, but its http.path uses {${name}}`,
            { hint: "a fixed resource's path cannot have parameters; use a resource template" },
          ),
      });
    }
  }
  for (const template of server.resourceTemplates) {
    if (!template.http) continue;
    const variables = new Set(parseUriTemplate(template.uriTemplate).variables);
    bound.push({
      binding: template.http,
      check: (name, at) => {
        if (!variables.has(name))
          report(
            "HTTP_PATH_PARAM_UNKNOWN",
            at,
            `http.path uses {${name}}, which is not a variable of uriTemplate '${template.uriTemplate}'`,
          );
      },
    });
  }

  for (const { binding, check } of bound) {
    const at = binding.loc.pointer;
    if (!METHODS.has(binding.method.toUpperCase())) {
      const guess = closest(binding.method.toUpperCase(), [...METHODS]);
      report("HTTP_METHOD_INVALID", `${at}/method`, `'${binding.method}' is not an HTTP method`, {
        hint: `${guess ? `did you mean ${guess}? ` : ""}use one of ${[...METHODS].join(", ")}`,
      });
    }
    const path = binding.path;
    const unbalanced = path.replace(PARAM, "").match(/[{}]/);
    if (!path.startsWith("/") || unbalanced) {
      const why = !path.startsWith("/") ? "does not start with '/'" : "has an unbalanced brace";
      report("HTTP_PATH_INVALID", `${at}/path`, `http.path '${path}' ${why}`);
      continue;
    }
    // An explicit parameter list (OpenAPI) says where each placeholder's value comes from and how it is serialized.
    if (binding.parameters) continue;
    for (const [, name] of path.matchAll(PARAM)) check(name, `${at}/path`);
  }

  if (bound.length > 0 && !server.upstream) {
    report(
      "UPSTREAM_MISSING",
      bound[0].binding.loc.pointer,
      `${bound.length} http binding${bound.length > 1 ? "s" : ""} but no upstream.baseUrl`,
    );
  }
  const upstream = server.upstream;
  if (upstream) {
    if (!/^https?:\/\//i.test(upstream.baseUrl) || !URL.canParse(upstream.baseUrl)) {
      report(
        "UPSTREAM_URL_INVALID",
        "/upstream/baseUrl",
        `upstream.baseUrl '${upstream.baseUrl}' is not an absolute http(s) URL`,
      );
    }
    // Only the spec language's `upstream.auth` (the scheme with a `loc`) names its variable; OpenAPI's are derived.
    for (const scheme of upstream.securitySchemes ?? []) {
      if (scheme.loc && scheme.type !== "oauth2" && !ENV_NAME.test(scheme.env)) {
        report(
          "AUTH_ENV_INVALID",
          `${scheme.loc.pointer}/env`,
          `'${scheme.env}' is not a valid environment variable name`,
        );
      }
    }
  }
};

function checkToolParam(tool: string, schema: JsonSchema, name: string, at: string, report: Report): void {
  const properties = (schema.properties ?? {}) as { [key: string]: { type?: unknown } | undefined };
  const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
  if (!property) {
    report(
      "HTTP_PATH_PARAM_UNKNOWN",
      at,
      `http.path of tool '${tool}' uses {${name}}, which is not a property of inputSchema`,
    );
    return;
  }
  const required = Array.isArray(schema.required) && schema.required.includes(name);
  if (!required)
    report(
      "HTTP_PATH_PARAM_NOT_REQUIRED",
      at,
      `path parameter '${name}' of tool '${tool}' is not in inputSchema.required`,
    );
  if (property.type !== "string" && property.type !== "integer") {
    report(
      "HTTP_PATH_PARAM_TYPE",
      at,
      `path parameter '${name}' of tool '${tool}' has type ${JSON.stringify(property.type ?? "none")}`,
    );
  }
}
