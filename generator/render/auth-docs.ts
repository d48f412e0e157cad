/**
 * The package README's Authentication section (issue 33): which environment variables hold the upstream
 * credentials the source declares, what an OAuth2 sign-in scheme mapped to a token needs (a token obtained
 * beforehand), and, when nothing is declared, how to supply credentials from src/credentials.ts with an example
 * that compiles as written. Spec text (scheme ids, URLs) goes through mdCode; variable names are [A-Z0-9_].
 */

import type { Model } from "../normalize/normalize.ts";
import { envName } from "../openapi/security.ts";
import { forwardsUpstream } from "./credentials-hook.ts";
import { mdBlock, mdCode } from "./markdown.ts";

export type AuthDocs = {
  /** The credential variables, as code spans joined by commas; empty when nothing is declared. */
  variables: string;
  /** Where the credentials are declared: "the API's OpenAPI document", "the spec (`upstream.auth`)". */
  declaredBy: string;
  /** The same, opening a sentence. */
  DeclaredBy: string;
  signIn: { scheme: string; flows: string; from: string; env: string }[];
  /** No credentials declared: the variable the example reads, and the example src/credentials.ts. */
  tokenEnv: string;
  example: string;
};

/** The section's data; false for a package that forwards nothing upstream (it has no credentials to give). */
export function authDocs(model: Model): AuthDocs | false {
  const upstream = model.server.upstream;
  if (!upstream || !forwardsUpstream(model)) return false;
  const schemes = upstream.securitySchemes ?? [];
  const names = schemes.flatMap((s) => (s.type === "oauth2" ? [s.clientIdEnv, s.clientSecretEnv] : [s.env]));
  const tokenEnv = envName(model.server.name, "TOKEN");
  const declaredBy =
    model.server.origin === "openapi" ? "the API's OpenAPI document" : `the spec (${mdCode("upstream.auth")})`;
  return {
    variables: [...new Set(names)].map(mdCode).join(", "),
    declaredBy,
    DeclaredBy: `T${declaredBy.slice(1)}`,
    signIn: schemes.flatMap((scheme) =>
      scheme.signIn && scheme.type !== "oauth2"
        ? [
            {
              scheme: mdCode(scheme.id),
              flows: scheme.signIn.flows.map(mdCode).join(" or "),
              from: scheme.signIn.url
                ? ` (its sign-in URL: ${mdCode(scheme.signIn.url)}; the API's own CLI or console may issue one too)`
                : "",
              env: mdCode(scheme.env),
            },
          ]
        : [],
    ),
    tokenEnv: mdCode(tokenEnv),
    example: mdBlock("ts", credentialsExample(tokenEnv)),
  };
}

/** A src/credentials.ts that sends a bearer token from `env`, and says what to set when it is missing. */
export function credentialsExample(env: string): string {
  return [
    'import { CredentialsError, type SpecContext, type UpstreamCredentials } from "../runtime/handler-api.ts";',
    "",
    "export default async function credentials(_ctx: SpecContext): Promise<UpstreamCredentials | undefined> {",
    `  const token = process.env.${env};`,
    `  if (!token) throw new CredentialsError("set ${env} to your API token");`,
    "  return { bearer: token };",
    "}",
  ].join("\n");
}
