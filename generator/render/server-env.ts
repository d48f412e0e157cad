/**
 * Every environment variable a generated server reads, with what an installer needs to ask for it: the
 * upstream's credentials (secret), its server URL variables, and the env twins of the server's flags (from
 * records: the core's and the package's features', features.ts). One list for the MCP Registry's server.json and the
 * MCPB manifest, so the two never disagree.
 */
import { flagsOf } from "../../runtime/package/server-flags.ts";
import { type FeatureModule, featureFlagSets } from "../normalize/features.ts";
import type { Model } from "../normalize/normalize.ts";

export type ServerEnvVar = {
  name: string;
  description: string;
  /** A credential: server.json `isSecret`, MCPB `sensitive`. */
  secret: boolean;
  /** The server cannot reach its API without it. */
  required: boolean;
  format: "string" | "number" | "boolean";
  /** What the server uses when the variable is unset (as text, as server.json states it). */
  default?: string;
  choices?: string[];
  /** Offered as a setting to whoever installs the MCPB bundle; the rest keep their defaults there. */
  setting?: { title: string };
};

/** The flags' env twins and the env-only settings of a package with `features`. */
function flagTwins(upstream: boolean, features: readonly FeatureModule[]): ServerEnvVar[] {
  const twins: ServerEnvVar[] = [];
  for (const entry of flagsOf(featureFlagSets(features))) {
    if (entry.env === undefined || (entry.upstream && !upstream)) continue;
    const format = entry.kind === "whole" ? "number" : entry.kind === "boolean" ? "boolean" : "string";
    twins.push({
      name: entry.env,
      description: `${entry.http ? "HTTP only: " : ""}${capitalized(entry.help)}${entry.flag ? ` (--${entry.flag})` : ""}.`,
      secret: entry.secret === true,
      required: false,
      format,
      ...(entry.default !== undefined ? { default: entry.default } : {}),
      ...(entry.choices ? { choices: [...entry.choices] } : {}),
      ...(entry.setting ? { setting: { title: entry.setting } } : {}),
    });
  }
  return twins;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The upstream's credentials and server URL variables, then the flags' env twins; each name once. */
export function serverEnvVars(model: Model): ServerEnvVar[] {
  const upstream = model.server.upstream;
  const vars: ServerEnvVar[] = [];
  const schemes = upstream?.securitySchemes ?? [];
  // One scheme: every bound operation needs it. Several: any one of them may do, so none is required.
  const required = schemes.length === 1;
  const credential = (name: string, description: string, title: string) =>
    vars.push({ name, description, secret: true, required, format: "string", setting: { title } });
  for (const scheme of schemes) {
    if (scheme.type === "oauth2") {
      const use = `OAuth2 client credentials of scheme ${scheme.id} (token from ${scheme.tokenUrl})`;
      credential(scheme.clientIdEnv, `${use}: client id.`, `${scheme.id} client id`);
      credential(scheme.clientSecretEnv, `${use}: client secret.`, `${scheme.id} client secret`);
    } else if (scheme.type === "apiKey") {
      credential(scheme.env, `API key of scheme ${scheme.id}, sent in the ${scheme.in} ${scheme.name}.`, scheme.id);
    } else if (scheme.signIn) {
      // An OAuth2 flow the server cannot run (implicit, authorization code...): a token obtained beforehand.
      const flows = scheme.signIn.flows.join(" or ");
      credential(scheme.env, `OAuth2 access token of scheme ${scheme.id} (${flows}), obtained beforehand.`, scheme.id);
    } else {
      const what = scheme.type === "basic" ? "user:password for HTTP basic auth" : "Bearer token";
      credential(scheme.env, `${what} (scheme ${scheme.id}).`, scheme.id);
    }
  }
  for (const [name, variable] of Object.entries(upstream?.variables ?? {})) {
    vars.push({
      name: variable.env,
      description: `Server URL variable ${name} of the upstream API.`,
      secret: false,
      required: false,
      format: "string",
      default: variable.default,
      ...(variable.enum ? { choices: variable.enum } : {}),
      setting: { title: `Server ${name}` },
    });
  }
  for (const p of upstream?.sharedParameters ?? []) {
    vars.push({
      name: p.env,
      description: `The ${p.in} parameter ${p.name}, sent with every request to the upstream API when set.`,
      secret: p.secret === true,
      required: false,
      format: "string",
      ...(p.enum ? { choices: p.enum } : {}),
      // A credential (Google's `key`) is something an installer must be able to give; the rest keep the API's defaults.
      ...(p.secret ? { setting: { title: `${p.name} (${p.in} parameter)` } } : {}),
    });
  }
  vars.push(...flagTwins(upstream !== undefined, model.features));
  const seen = new Set<string>();
  return vars.filter((v) => !seen.has(v.name) && seen.add(v.name));
}
