/**
 * How each major MCP client starts or reaches the generated server, as files under clients/ (which a
 * test parses and runs) and as the README's connect section (the same text). Locally the client runs
 * the package's bin (on PATH after `npm install -g .`, `npm link`, or installing the published
 * package): a bare command, never `npx -y <name>`, which would fetch whatever the registry holds under
 * that name before the package is published. Deployed, the client reaches `<url>/mcp` over Streamable
 * HTTP. Every spec value reaches these files through JSON.stringify or shellQuote only.
 */
import type { UpstreamNode } from "../ir.ts";
import type { Model } from "../normalize/normalize.ts";
import { CLIENT_TOOL_LIMIT } from "../rules/tool-count.ts";

/** Where the README's HTTP snippets point: the owner replaces it with their deployment's address. */
export const DEPLOYED_URL = "https://mcp.example.com/mcp";

export type ClientFile = { path: string; content: string; language: "json" | "sh" };

type EnvVarRole = { name: string; secret: boolean; description: string };

/** The variables the server reads from its environment: credentials are secret, URL variables not. */
function envVars(upstream: UpstreamNode | undefined): EnvVarRole[] {
  const vars: EnvVarRole[] = [];
  for (const scheme of upstream?.securitySchemes ?? []) {
    const names = scheme.type === "oauth2" ? [scheme.clientIdEnv, scheme.clientSecretEnv] : [scheme.env];
    for (const name of names) vars.push({ name, secret: true, description: `${name} (credential for the API)` });
  }
  for (const variable of Object.values(upstream?.variables ?? {})) {
    vars.push({ name: variable.env, secret: false, description: `${variable.env} (default ${variable.default})` });
  }
  // A variable two schemes share is asked for once.
  return vars.filter((v, i) => vars.findIndex((w) => w.name === v.name) === i);
}

/** A word the shell reads as itself: bare when it is plainly safe, else single-quoted. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export function renderClientConfigs(model: Model): ClientFile[] {
  const name = model.server.name;
  const httpName = `${name}-http`;
  const bin = model.packageName;
  // Over the 128 tools clients accept, the configs start the server in dynamic mode (when it has it:
  // --mode dynamic exits 2 in a package generated without the feature).
  const dynamic = model.features.some((f) => f.name === "dynamic");
  const args = model.tools.length > CLIENT_TOOL_LIMIT && dynamic ? ["--mode", "dynamic"] : [];
  const vars = envVars(model.server.upstream);
  const secrets = vars.filter((v) => v.secret);
  // Credentials are placeholders the user fills in; URL variables keep their defaults unless set.
  const env = Object.fromEntries(secrets.map((v) => [v.name, "..."]));
  const stdio = { command: bin, args, ...(secrets.length ? { env } : {}) };
  const inputId = (v: EnvVarRole) => v.name.toLowerCase().replace(/[^a-z0-9]+/g, "-");

  const claudeCode = [
    "# Claude Code: the local bin over stdio",
    [
      "claude mcp add --transport stdio",
      ...secrets.map((v) => `--env ${shellQuote(`${v.name}=...`)}`),
      shellQuote(name),
      "--",
      ...[bin, ...args].map(shellQuote),
    ].join(" "),
    "# or a deployed server over Streamable HTTP",
    `claude mcp add --transport http ${shellQuote(httpName)} ${shellQuote(DEPLOYED_URL)}`,
  ];
  const inspector = [
    "# MCP Inspector: the local bin over stdio",
    [
      "npx @modelcontextprotocol/inspector",
      ...secrets.map((v) => `-e ${shellQuote(`${v.name}=...`)}`),
      // After --, every word is the server's command line (the Inspector would read --mode itself).
      "--",
      ...[bin, ...args].map(shellQuote),
    ].join(" "),
    "# or a deployed server over Streamable HTTP",
    `npx @modelcontextprotocol/inspector --transport http --server-url ${shellQuote(DEPLOYED_URL)}`,
  ];
  return [
    {
      path: "clients/claude_desktop_config.json",
      language: "json",
      content: json({ mcpServers: { [name]: stdio } }),
    },
    {
      path: "clients/claude-code.mcp.json",
      language: "json",
      content: json({
        mcpServers: { [name]: { type: "stdio", ...stdio }, [httpName]: { type: "http", url: DEPLOYED_URL } },
      }),
    },
    { path: "clients/claude-code.sh", language: "sh", content: `${claudeCode.join("\n")}\n` },
    {
      path: "clients/vscode.mcp.json",
      language: "json",
      content: json({
        // VS Code asks for each secret once and keeps it in its secret storage, not in this file.
        inputs: secrets.map((v) => ({
          type: "promptString",
          id: inputId(v),
          description: v.description,
          password: true,
        })),
        servers: {
          [name]: {
            type: "stdio",
            command: bin,
            args,
            ...(secrets.length
              ? { env: Object.fromEntries(secrets.map((v) => [v.name, `\${input:${inputId(v)}}`])) }
              : {}),
          },
          [httpName]: { type: "http", url: DEPLOYED_URL },
        },
      }),
    },
    {
      path: "clients/cursor.mcp.json",
      language: "json",
      content: json({
        mcpServers: {
          // Cursor reads each secret from the environment it runs in (${env:NAME}), not from this file.
          [name]: {
            command: bin,
            args,
            ...(secrets.length ? { env: Object.fromEntries(secrets.map((v) => [v.name, `\${env:${v.name}}`])) } : {}),
          },
          [httpName]: { url: DEPLOYED_URL },
        },
      }),
    },
    { path: "clients/inspector.sh", language: "sh", content: `${inspector.join("\n")}\n` },
  ];
}
