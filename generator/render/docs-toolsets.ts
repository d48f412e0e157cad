/**
 * The README's parts about fitting an agent's context (issue 14): for an API over the 128 tools clients
 * accept, the recommended command line right after the title; for every package with tools, the
 * "Toolsets" table (tools and tokens of tools/list per toolset, in all and in dynamic mode) and how to
 * choose what the server serves. Every spec string is escaped here; numbers come from package-cost.ts.
 */
import type { Model } from "../normalize/normalize.ts";
import { CLIENT_TOOL_LIMIT } from "../rules/tool-count.ts";
import { mdBlock, mdCode } from "./markdown.ts";
import { mdSummary } from "./markdown-prose.ts";
import { packageCost } from "./package-cost.ts";
import { type ToolListCost, thousands } from "./token-cost.ts";

export type ToolsetDocs = {
  /** The paragraph and command lines after the title; empty up to 128 tools. */
  largeApi: string;
  toolsets: Array<{ name: string; tools: string; tokens: string; description: string }>;
  allModes: { tools: string; tokens: string; dynamicTools: string; dynamicTokens: string };
  /** The package has dynamic mode: its row in the table and its command line. */
  dynamic: boolean;
  toolsetHowTo: string;
};

/** `dynamic`: the package has dynamic mode, so the README recommends it and gives its figures. */
export function toolsetDocs(model: Model, dynamic: boolean): ToolsetDocs | undefined {
  return model.tools.length === 0 ? undefined : toolsetDocsOf(packageCost(model), dynamic);
}

/** The README's parts from the figures; exported so tests can give any toolset name and description. */
export function toolsetDocsOf(cost: Omit<ToolListCost, "perTool">, dynamic = true): ToolsetDocs {
  const largest = [...cost.toolsets].sort((a, b) => b.tools - a.tools || (a.name < b.name ? -1 : 1));
  // The example names the two largest toolsets whose names need no quoting in a shell or a list.
  const plain = largest.filter((t) => PLAIN.test(t.name)).slice(0, 2);
  const example = plain.length > 0 ? plain.map((t) => t.name).join(",") : "<name>,<name>";
  const dynamicLine = `${cost.dynamic.tools} tools (${thousands(cost.dynamic.tokens)} tokens)`;
  const tooMany = `This API has ${thousands(cost.all.tools)} tools: more than the ${CLIENT_TOOL_LIMIT} that clients such as VS Code Copilot and the OpenAI API accept, and its whole \`tools/list\` costs ${thousands(cost.all.tokens)} tokens of an agent's context.`;
  const largeApi =
    cost.all.tools <= CLIENT_TOOL_LIMIT
      ? ""
      : dynamic
        ? [
            `${tooMany} Run it in dynamic mode, where \`tools/list\` holds ${dynamicLine} that search, browse, describe and call all the others:`,
            "",
            mdBlock(
              "sh",
              [
                "node dist/server.js --mode dynamic                         # MCP over stdio",
                "node dist/server.js --mode dynamic --http --port 3000      # Streamable HTTP",
              ].join("\n"),
            ),
            "",
            "Or serve only the toolsets you need: see [Toolsets](#toolsets).",
          ].join("\n")
        : // Generated without dynamic mode on purpose (a features list without it): say how to get it back.
          `${tooMany} Serve only the toolsets you need (see [Toolsets](#toolsets)), or generate the package with the \`dynamic\` feature, whose \`tools/list\` holds ${dynamicLine} that search, browse, describe and call all the others.`;
  return {
    largeApi,
    toolsets: cost.toolsets.map((t) => ({
      name: mdCode(t.name),
      tools: thousands(t.tools),
      tokens: thousands(t.tokens),
      description: mdSummary(t.description),
    })),
    allModes: {
      tools: thousands(cost.all.tools),
      tokens: thousands(cost.all.tokens),
      dynamicTools: thousands(cost.dynamic.tools),
      dynamicTokens: thousands(cost.dynamic.tokens),
    },
    dynamic,
    toolsetHowTo: mdBlock(
      "sh",
      [
        `node dist/server.js --toolsets ${example}   # only these toolsets (env MCP_TOOLSETS; default all)`,
        "node dist/server.js --read-only   # only tools marked readOnlyHint (env MCP_READ_ONLY=1)",
        ...(dynamic
          ? [
              "node dist/server.js --mode dynamic   # search, browse, describe and call tools through 5 tools (env MCP_MODE)",
            ]
          : []),
      ].join("\n"),
    ),
  };
}

/** A toolset name that reads the same in a shell command and in `--toolsets`' comma list. */
const PLAIN = /^[\w.-]+$/;
