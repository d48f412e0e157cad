/**
 * The environment variables an upstream reads (OpenAPI's schemes, server variables and the parameters every
 * operation shares, and the spec language's `upstream.auth`, which is lowered to a scheme), for the generated
 * README. Every value that comes from the document (scheme ids and names, token URLs, server variables,
 * parameter names) goes through `quote`, which the README passes as its Markdown code-span escaper, and every
 * description through `prose`, its text escaper: none of it is written raw.
 */
import type { SharedParameterNode, UpstreamNode } from "../ir.ts";
import { cutText } from "./compact-schema.ts";

export type EnvVar = { name: string; use: string };

export function upstreamEnvVars(
  upstream: UpstreamNode | undefined,
  quote: (specText: string) => string = (text) => `'${text}'`,
  prose: (specText: string) => string = (text) => text,
): EnvVar[] {
  if (!upstream) return [];
  const vars: EnvVar[] = [];
  for (const scheme of upstream.securitySchemes ?? []) {
    if (scheme.type === "oauth2") {
      const use = `OAuth2 client credentials for ${quote(scheme.id)} (token from ${quote(scheme.tokenUrl)})`;
      vars.push(
        { name: scheme.clientIdEnv, use: `${use}: client id` },
        { name: scheme.clientSecretEnv, use: `${use}: client secret` },
      );
    } else if (scheme.type === "apiKey") {
      vars.push({
        name: scheme.env,
        use: `API key ${quote(scheme.id)}, sent in the ${quote(scheme.in)} ${quote(scheme.name)}`,
      });
    } else if (scheme.signIn) {
      const from = scheme.signIn.url ? `, from ${quote(scheme.signIn.url)}` : "";
      vars.push({
        name: scheme.env,
        use: `OAuth2 access token for ${quote(scheme.id)}${from}, sent as a bearer token`,
      });
    } else {
      const what = scheme.type === "basic" ? "user:password for HTTP basic auth" : "bearer token";
      vars.push({ name: scheme.env, use: `${what} (${quote(scheme.id)})` });
    }
  }
  for (const [name, variable] of Object.entries(upstream.variables ?? {})) {
    const allowed = variable.enum ? `, one of ${variable.enum.map(quote).join(", ")}` : "";
    vars.push({
      name: variable.env,
      use: `server URL variable ${quote(name)} (default ${quote(variable.default)}${allowed})`,
    });
  }
  for (const p of upstream.sharedParameters ?? []) vars.push({ name: p.env, use: sharedUse(p, quote, prose) });
  return vars;
}

/** A shared parameter's row: the one place its declaration appears, since no tool's input has it. */
function sharedUse(p: SharedParameterNode, quote: (text: string) => string, prose: (text: string) => string) {
  const what = p.description ? `: ${prose(cutText(p.description, 200))}` : "";
  const allowed = p.enum ? ` (one of ${p.enum.map(quote).join(", ")})` : "";
  return `${p.in} parameter ${quote(p.name)} sent with every request when set${allowed}${what}`;
}
