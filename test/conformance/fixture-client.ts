// The client program the conformance suite launches for client scenarios, written on our runtime
// client. The suite appends the mock server's URL and sets MCP_CONFORMANCE_SCENARIO, optionally
// MCP_CONFORMANCE_PROTOCOL_VERSION (0.2.x) and MCP_CONFORMANCE_CONTEXT (scenario data).
// Exit code 0 means the flow ran; the suite itself judges the traffic it saw.
import { type AuthOptions, type OAuthTarget, withOAuth } from "../../runtime/features/oauth/client/index.ts";
import type { ClientHandlers, McpClient } from "../../runtime/index.ts";
import { connect, LATEST_LEGACY_PROTOCOL_VERSION } from "../../runtime/index.ts";

type ToolCall = { name: string; arguments: Record<string, unknown> };

const serverUrl = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
// 0.1.16 sets no version and only has 2025-era scenarios, so default to the newest 2025 revision.
const protocolVersion = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? LATEST_LEGACY_PROTOCOL_VERSION;
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as {
  toolCalls?: ToolCall[];
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_token_endpoint?: string;
};

// The URL the auth scenarios expect as a Client ID Metadata Document client_id (it need not resolve).
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
const REDIRECT_URL = "http://localhost:3000/callback";

/**
 * The suite's mock authorization endpoint redirects at once (no user), so "the browser" is one GET
 * whose Location is the redirect with code, state and iss; the runtime checks them.
 */
async function followAuthorization(url: URL): Promise<URL> {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel().catch(() => {});
  const location = response.headers.get("location");
  if (!location) throw new Error(`the authorization endpoint did not redirect (HTTP ${response.status})`);
  return new URL(location, url);
}

/** The auth a scenario calls for: client credentials where the context carries them, else the user flow. */
function authFor(name: string): AuthOptions | undefined {
  if (!name.startsWith("auth/")) return undefined;
  if (name.startsWith("auth/client-credentials")) {
    if (!context.client_id) throw new Error(`${name}: the context has no client_id`);
    return {
      clientCredentials: {
        clientId: context.client_id,
        clientSecret: context.client_secret,
        privateKey: context.private_key_pem,
        signingAlgorithm: context.signing_algorithm,
      },
    };
  }
  if (name === "auth/cross-app-access-complete-flow" || name === "auth/enterprise-managed-authorization") {
    const { client_id, client_secret, idp_client_id, idp_id_token, idp_token_endpoint } = context;
    if (!client_id || !client_secret || !idp_client_id || !idp_id_token || !idp_token_endpoint)
      throw new Error(`${name}: the context lacks the enterprise fields`);
    return {
      enterprise: {
        idpTokenEndpoint: idp_token_endpoint,
        idpClientId: idp_client_id,
        idToken: idp_id_token,
        clientId: client_id,
        clientSecret: client_secret,
      },
    };
  }
  return {
    redirectUrl: REDIRECT_URL,
    onAuthorizationUrl: followAuthorization,
    clientMetadataUrl: CLIENT_METADATA_URL,
    clientName: "mcpgen-conformance-client",
    ...(name === "auth/pre-registration" ? { clientId: context.client_id, clientSecret: context.client_secret } : {}),
  };
}

// Answering every kind of server-to-client request lets the client declare roots, sampling and
// elicitation (request-metadata checks each declared capability's shape).
// `beforeElicitationAnswer` lets a flow act between an MRTR round and its retry.
let beforeElicitationAnswer: (() => Promise<void>) | undefined;
const handlers: ClientHandlers = {
  elicitation: async () => {
    const hook = beforeElicitationAnswer;
    beforeElicitationAnswer = undefined;
    await hook?.();
    return { action: "accept", content: { confirmed: true } };
  },
  sampling: () => ({ role: "assistant", content: { type: "text", text: "fixture answer" }, model: "fixture-model" }),
  roots: () => ({ roots: [{ uri: "file:///tmp/mcpgen-conformance", name: "fixture root" }] }),
};

/** Arguments satisfying a tool's required properties, for scenarios that only watch the traffic. */
function argumentsFor(inputSchema: Record<string, unknown>) {
  const schema = inputSchema as { properties?: Record<string, { type?: string }>; required?: string[] };
  const args: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    const type = schema.properties?.[name]?.type;
    args[name] = type === "number" || type === "integer" ? 1 : type === "boolean" ? true : "us-west1";
  }
  return args;
}

async function callEveryTool(client: McpClient): Promise<void> {
  const { tools } = await client.listTools();
  for (const tool of tools) await client.callTool(tool.name, argumentsFor(tool.inputSchema));
}

/** Auth scenarios watch the OAuth traffic; listing and calling a tool makes the server ask for it (step-up included). */
async function authFlow(client: McpClient): Promise<void> {
  const { tools } = await client.listTools();
  for (const tool of tools) await client.callTool(tool.name, argumentsFor(tool.inputSchema));
}

const flows: Record<string, (client: McpClient) => Promise<void>> = {
  initialize: async (client) => {
    await client.listTools();
  },
  tools_call: async (client) => {
    const { tools } = await client.listTools();
    const add = tools.find((tool) => tool.name === "add_numbers");
    if (!add) throw new Error("the scenario did not offer add_numbers");
    const result = await client.callTool(add.name, { a: 2, b: 3 });
    console.log(JSON.stringify(result));
  },
  // The mock closes the tools/call SSE stream mid-call; the transport must reconnect with GET after
  // the announced retry delay, sending Last-Event-ID, and still deliver the result.
  "sse-retry": async (client) => {
    await client.listTools();
    const result = await client.callTool("test_reconnection", {});
    console.log(JSON.stringify(result));
  },
  // The first request is refused with -32022; the client must retry with a supported version.
  "request-metadata": async (client) => {
    await client.ping();
    await client.listTools();
  },
  "http-standard-headers": async (client) => {
    await callEveryTool(client);
    const { resources } = await client.listResources();
    for (const resource of resources) await client.readResource(resource.uri);
    const { prompts } = await client.listPrompts();
    for (const prompt of prompts) await client.getPrompt(prompt.name, {});
  },
  "http-custom-headers": async (client) => {
    await client.listTools();
    for (const call of context.toolCalls ?? []) await client.callTool(call.name, call.arguments);
  },
  // listTools drops the tools whose x-mcp-header annotations are invalid; only valid ones get called.
  "http-invalid-tool-headers": callEveryTool,
  // MRTR (SEP-2322): the runtime answers input_required rounds itself. An unrelated call made while
  // the first tool waits for its answer must not inherit that tool's inputResponses/requestState.
  "sep-2322-client-request-state": async (client) => {
    await client.listTools();
    beforeElicitationAnswer = async () => {
      await client.callTool("test_mrtr_unrelated", {});
    };
    await client.callTool("test_mrtr_echo_state", {});
    await client.callTool("test_mrtr_no_state", {});
    await client.callTool("test_mrtr_no_result_type", {});
  },
  // SEP-2106: listing must not dereference the network $ref in a tool's inputSchema.
  "json-schema-ref-no-deref": async (client) => {
    await client.listTools();
  },
  // SEP-1613: the schema must survive the client untouched; the scenario diffs the echo.
  "json-schema-2020-12-preservation": async (client) => {
    const { tools } = await client.listTools();
    const focal = tools.find((tool) => tool.name === "json_schema_2020_12_tool");
    if (!focal) throw new Error("json_schema_2020_12_tool was not offered");
    await client.callTool("json_schema_echo", { schema: focal.inputSchema });
  },
};

async function main(): Promise<void> {
  if (!serverUrl) throw new Error("usage: fixture-client.ts <server-url>");
  const flow = scenario.startsWith("auth/") ? authFlow : flows[scenario];
  if (!flow) throw new Error(`fixture-client has no flow for scenario "${scenario}"`);
  const target: OAuthTarget = { url: serverUrl, auth: authFor(scenario) };
  const client = await connect(withOAuth(target), {
    protocolVersion,
    clientInfo: { name: "mcpgen-conformance-client", version: "1.0.0" },
    handlers,
  });
  try {
    await flow(client);
  } finally {
    await client.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
