// The `token-exchange` feature: --upstream-token-exchange exchanges each caller's validated MCP token
// (RFC 8693) for an upstream token, sent upstream instead of the spec's credentials (token-exchange.ts).
// It works on the token the `oauth` feature validated, so a package with it has `oauth` too.
import type { Feature, FeatureInput, FeatureSetup } from "../../package/feature.ts";
import { exchangedToken, tokenExchanger } from "./token-exchange.ts";
import { type TokenExchangeFlags, tokenExchangeConfig } from "./token-exchange-config.ts";

export const tokenExchangeFeature: Feature = { name: "token-exchange", configure };

function configure({ given, http, env, earlier }: FeatureInput): FeatureSetup | string {
  const config = tokenExchangeConfig(given as TokenExchangeFlags, http, env);
  if (typeof config === "string") return config;
  if (!config) return {};
  if (!earlier.http?.auth)
    return "--upstream-token-exchange needs --auth-issuer (or MCP_AUTH_ISSUER): it exchanges each caller's validated token";
  return { server: { userToken: exchangedToken(tokenExchanger(config)) } };
}
