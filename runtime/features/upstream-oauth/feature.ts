// The `upstream-oauth` feature (issue 34): the server as an OAuth client of the API it wraps. An operation whose
// security names an OpenAPI authorizationCode scheme is called with its caller's own API token (sign-in.ts),
// obtained once through the server's sign-in pages (pages.ts) and kept sealed (vault.ts), in memory or, with
// --session-store, in Redis for every instance. Off until MCP_UPSTREAM_CLIENT_ID is set (config.ts); then the
// tool `upstream_sign_out` forgets the caller's tokens.
import type { Feature, FeatureInput, FeatureSetup } from "../../package/feature.ts";
import type { McpServer } from "../../server/server.ts";
import { upstreamOAuthConfig } from "./config.ts";
import { signInPages } from "./pages.ts";
import { createSignIn, type SignIn } from "./sign-in.ts";
import { createVault } from "./vault.ts";

let active: SignIn | undefined; // configure runs once per process, before serve

export const upstreamOAuthFeature: Feature = { name: "upstream-oauth", configure, serve };

function configure(input: FeatureInput): FeatureSetup | string {
  const config = upstreamOAuthConfig(input);
  active = undefined;
  if (typeof config === "string") return config;
  if (!config) return {};
  const vault = createVault(config.key, config.shared);
  active = createSignIn(config, vault);
  return { server: { userToken: active }, http: { pages: signInPages(config, vault) } };
}

function serve(server: McpServer): void {
  const signIn = active;
  if (!signIn) return;
  server.tool({
    name: "upstream_sign_out",
    description:
      "Sign out of the upstream API: this server forgets your tokens for it; the next call that needs them asks you to sign in again.",
    inputSchema: { type: "object", properties: {} },
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    handler: async (_args, ctx) => ({
      content: [
        {
          type: "text",
          text: (await signIn.signOut(ctx))
            ? "Signed out of the upstream API: its tokens for you are forgotten."
            : "You were not signed in to the upstream API.",
        },
      ],
    }),
  });
}
