/** The environment variables an OpenAPI-derived upstream reads, for the generated README. */
import type { UpstreamNode } from "../ir.ts";

export type EnvVar = { name: string; use: string };

export function upstreamEnvVars(upstream: UpstreamNode | undefined): EnvVar[] {
  if (!upstream) return [];
  const vars: EnvVar[] = [];
  for (const scheme of upstream.securitySchemes ?? []) {
    if (scheme.type === "oauth2") {
      const use = `OAuth2 client credentials for '${scheme.id}' (token from ${scheme.tokenUrl})`;
      vars.push(
        { name: scheme.clientIdEnv, use: `${use}: client id` },
        { name: scheme.clientSecretEnv, use: `${use}: client secret` },
      );
    } else if (scheme.type === "apiKey") {
      vars.push({ name: scheme.env, use: `API key '${scheme.id}', sent in the ${scheme.in} '${scheme.name}'` });
    } else {
      const what = scheme.type === "basic" ? "user:password for HTTP basic auth" : "bearer token";
      vars.push({ name: scheme.env, use: `${what} ('${scheme.id}')` });
    }
  }
  for (const [name, variable] of Object.entries(upstream.variables ?? {})) {
    const allowed = variable.enum ? `, one of ${variable.enum.join(", ")}` : "";
    vars.push({ name: variable.env, use: `server URL variable '${name}' (default '${variable.default}'${allowed})` });
  }
  return vars;
}
