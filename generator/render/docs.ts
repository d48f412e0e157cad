/**
 * The generated package's README.md, from templates/package-readme.md.hbs. Every spec string is made
 * Markdown-safe here (mdText, mdCode, mdBlock; mdProse and mdSummary for the spec's own Markdown) before
 * the template sees it; the template is compiled with `strict` (a missing field is a bug, not an empty
 * string) and `noEscape` (escaping is ours).
 */

import { readFileSync } from "node:fs";
import Handlebars from "handlebars";
import type { JsonSchema, ToolNode } from "../ir.ts";
import { upstreamEnvVars } from "../normalize/env-vars.ts";
import { FEATURE_MODULES } from "../normalize/features.ts";
import type { Model } from "../normalize/normalize.ts";
import { withMemo } from "../output/answer-memo.ts";
import { authDocs } from "./auth-docs.ts";
import { DEPLOYED_URL, renderClientConfigs } from "./client-configs.ts";
import { forwardsUpstream } from "./credentials-hook.ts";
import { toolsetDocs } from "./docs-toolsets.ts";
import { featureReadmeSlots } from "./feature-docs.ts";
import { mdBlock, mdCode, mdText } from "./markdown.ts";
import { hasHeadings, mdProse, mdSummary } from "./markdown-prose.ts";
import { retryPlan } from "./nginx-config.ts";
import { packageVersion } from "./package-files.ts";
import { registryName } from "./registry-name.ts";
import { header } from "./ts.ts";

const TEMPLATE = new URL("../../templates/package-readme.md.hbs", import.meta.url);
let template: Handlebars.TemplateDelegate | undefined;

type Props = { [name: string]: JsonSchema };

export function renderDocs(model: Model): string {
  // Each description's Markdown is parsed once, and on the next run not at all (output/answer-memo.ts).
  return withMemo("prose", model.packageName, () => readme(model));
}

function readme(model: Model): string {
  template ??= Handlebars.compile(readFileSync(TEMPLATE, "utf8"), { strict: true, noEscape: true });
  const { server } = model;
  const envVars = upstreamEnvVars(server.upstream, mdCode, mdText).map((v) => ({ name: mdCode(v.name), use: v.use }));
  const counts = [
    [model.tools.length, "tool"],
    [model.resources.length, "resource"],
    [model.templates.length, "resource template"],
    [model.prompts.length, "prompt"],
  ]
    .map(([n, what]) => `${n} ${what}${n === 1 ? "" : "s"}`)
    .join(", ");

  const features = model.features;
  const toolsets = toolsetDocs(
    model,
    features.some((feature) => feature.name === "dynamic"),
  );
  const retried = new Set(retryPlan(model).retried);
  const documented = hasHeadings(server.description);
  return template({
    header: header(model.specRef, "md").trimEnd(),
    largeApi: toolsets?.largeApi ?? "",
    toolsetDocs: toolsets ?? false,
    title: mdText(server.title ?? server.name),
    // The spec's Markdown as Markdown (issue 33 item 6). A description with headings of its own is a document
    // (Hetzner's: Authentication, Errors, Pagination...): its first sentence under the title, the whole in a
    // section of its own, its headings below that section's, so none stands beside the README's own.
    description: (documented ? mdSummary(server.description) : mdProse(server.description, 2)) || "An MCP server.",
    aboutApi: documented ? mdProse(server.description, 3) : "",
    version: versionLine(model),
    counts,
    runBlock: mdBlock(
      "sh",
      [
        "node dist/server.js                          # MCP over stdio",
        "node dist/server.js --http --port 3000       # Streamable HTTP at http://127.0.0.1:3000/mcp",
        ...(server.upstream
          ? [
              "node dist/server.js --base-url http://127.0.0.1:4010   # another upstream API",
              "node dist/server.js --max-upstream-body 5000000   # cut API answers here (default 1000000 characters)",
              "node dist/server.js --max-redirects 10   # same-origin redirects to follow (default 5)",
            ]
          : []),
        "MCP_HTTP_TOKEN=secret node dist/server.js --http   # require a bearer token over HTTP",
      ].join("\n"),
    ),
    envVars,
    authentication: authDocs(model),
    perUserCredentials: forwardsUpstream(model),
    // Each feature's sections (its folder's readme.md.hbs) appear only in a package that has it.
    slots: featureReadmeSlots(features),
    missingFeatures: FEATURE_MODULES.filter((feature) => !features.includes(feature))
      .map((feature) => `${mdCode(feature.name)} (${featureSummary(feature.summary)})`)
      .join(", "),
    deploy: {
      tools: model.tools.map((tool) => ({
        name: mdCode(tool.node.name),
        retried: retried.has(tool.node.name) ? "yes" : "no",
      })),
    },
    bin: mdCode(model.packageName),
    packageName: mdCode(model.packageName),
    // npm-safe by construction (normalize's packageNameOf: a-z 0-9 . _ -), so it can sit inside code spans.
    packageWord: model.packageName,
    registryName: mdCode(registryName(model)),
    deployedUrl: mdCode(DEPLOYED_URL),
    clients: Object.fromEntries(
      renderClientConfigs(model).map((file) => [
        file.path.replace(/^clients\//, "").replace(/\W/g, "_"),
        mdBlock(file.language, file.content.trimEnd()),
      ]),
    ),
    clientExample: mdBlock(
      "ts",
      [
        'import { connect } from "./src/client.ts";',
        "",
        'const client = await connect({ command: "node", args: ["dist/server.js"] });',
        '// or: await connect({ url: "http://127.0.0.1:3000/mcp" })',
        "const { tools } = await client.listTools();",
        "console.log(tools.map((tool) => tool.name));",
        "await client.close();",
      ].join("\n"),
    ),
    tools: model.tools.map(({ node, handler }) => ({
      heading: mdCode(node.name) + (node.title ? ` (${mdText(node.title)})` : ""),
      description: mdProse(node.description, 4),
      annotations: annotationsLine(node),
      scopes: (node.scopes ?? []).map((scope) => mdCode(scope)).join(", "),
      params: parameters(node.inputSchema),
      source: node.http
        ? `Forwarded to ${mdCode(`${node.http.method.toUpperCase()} ${node.http.path}`)} on the upstream API.`
        : `Served by your handler in ${mdCode(handler!.file)}.`,
      example: mdBlock(
        "ts",
        `const result = await client.callTool(${JSON.stringify(node.name)}, ${JSON.stringify(exampleArgs(node.inputSchema), null, 2)});`,
      ),
    })),
    resources: model.resources.map(({ node, handler }) => ({
      uri: mdCode(node.uri),
      name: mdText(node.name),
      mimeType: node.mimeType ? mdCode(node.mimeType) : "",
      source: node.content
        ? "the spec (static)"
        : node.http
          ? mdCode(`${node.http.method.toUpperCase()} ${node.http.path}`)
          : mdCode(handler!.file),
      description: mdSummary(node.description),
    })),
    templates: model.templates.map(({ node, handler }) => ({
      uri: mdCode(node.uriTemplate),
      name: mdText(node.name),
      mimeType: node.mimeType ? mdCode(node.mimeType) : "",
      source: node.http ? mdCode(`${node.http.method.toUpperCase()} ${node.http.path}`) : mdCode(handler!.file),
      description: mdSummary(node.description),
    })),
    repairs: (server.repairs ?? []).map((r) => ({ pointer: mdCode(r.pointer || "/"), message: mdText(r.message) })),
    prompts: model.prompts.map(({ node, handler }) => ({
      heading: mdCode(node.name) + (node.title ? ` (${mdText(node.title)})` : ""),
      description: mdProse(node.description, 4),
      arguments: node.arguments.map((a) => ({
        name: mdCode(a.name),
        required: a.required ? "yes" : "no",
        description: mdSummary(a.description),
      })),
      source: handler
        ? `Built by your handler in ${mdCode(handler.file)}.`
        : `Built from ${node.messages?.length ?? 0} message template(s) in the spec.`,
    })),
  });
}

/** "Version `1.2.0`", or for an API versioned its own way, which version the package got instead. */
function versionLine(model: Model): string {
  const own = packageVersion(model);
  if (own === model.server.version) return `Version ${mdCode(own)}`;
  return `API version ${mdCode(model.server.version)} (the package is versioned ${mdCode(own)}, as package.json needs semver)`;
}

function annotationsLine(tool: ToolNode): string {
  const hints = Object.entries(tool.annotations ?? {}).filter(([, value]) => typeof value === "boolean");
  return hints.map(([name, value]) => `${mdCode(name)}: ${value}`).join(", ");
}

function parameters(schema: JsonSchema) {
  const properties = (schema.properties ?? {}) as Props;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, property]) => ({
    name: mdCode(name),
    type: mdCode(typeOf(property)),
    required: required.has(name) ? "yes" : "no",
    default: property.default === undefined ? "" : mdCode(JSON.stringify(property.default)),
    header: typeof property["x-mcp-header"] === "string" ? mdCode(`Mcp-Param-${property["x-mcp-header"]}`) : "",
    description: mdSummary(typeof property.description === "string" ? property.description : ""),
  }));
}

function typeOf(schema: JsonSchema | undefined): string {
  if (!schema || typeof schema !== "object") return "any";
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (typeof schema.$ref === "string") return schema.$ref.split("/").at(-1) ?? "object";
  const type = Array.isArray(schema.type)
    ? schema.type.join(" | ")
    : typeof schema.type === "string"
      ? schema.type
      : "any";
  if (type === "array") return `${typeOf(schema.items as JsonSchema)}[]`;
  return typeof schema.format === "string" ? `${type} (${schema.format})` : type;
}

/** Arguments for the README's example call: required properties, with example, default or a plausible value. */
export function exampleArgs(schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Props;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return Object.fromEntries(
    required.filter((name) => Object.hasOwn(properties, name)).map((name) => [name, exampleValue(properties[name])]),
  );
}

function exampleValue(schema: JsonSchema): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case "integer":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 1.5;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return exampleArgs(schema);
    default:
      return schema.format === "date"
        ? "2026-01-01"
        : schema.format === "date-time"
          ? "2026-01-01T00:00:00Z"
          : "example";
  }
}

/** "--mode code: search_docs and execute" with the flag as code and the rest as text, so no `_` formats. */
function featureSummary(summary: string): string {
  const colon = summary.indexOf(": ");
  return colon < 0 ? mdText(summary) : `${mdCode(summary.slice(0, colon))}: ${mdText(summary.slice(colon + 2))}`;
}
