/**
 * OpenAPI security schemes as upstream credentials read from environment variables at call time.
 * Variable names are derived from the server and scheme names (`PETSTORE_API_KEY`) and listed in the
 * generated README. OAuth2 flows needing a user (implicit, authorization code, password) and OpenID Connect
 * become a bearer token read from `<SCHEME>_TOKEN`: the server cannot sign in, but a token obtained beforehand
 * works (a warning says so). Schemes mcpgen cannot fill (mutual TLS, HTTP digest...) are skipped with a
 * warning; operations whose every requirement needs one are called without credentials.
 */
import type { AuthorizationCodeFlow } from "../../runtime/package/catalog-types.ts";
import type { Report } from "../diagnostics/diagnostic.ts";
import type { SecuritySchemeNode, SignIn } from "../ir.ts";
import { isJson, type Json, token } from "./document.ts";

export function envName(...parts: string[]): string {
  const name = parts
    .join("_")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toUpperCase();
  return /^[0-9]/.test(name) ? `_${name}` : name || "API";
}

export function securitySchemes(root: Json, prefix: string, report: Report): SecuritySchemeNode[] {
  const schemes =
    isJson(root.components) && isJson(root.components.securitySchemes) ? root.components.securitySchemes : {};
  const out: SecuritySchemeNode[] = [];
  for (const [id, scheme] of Object.entries(schemes)) {
    const at = `/components/securitySchemes/${token(id)}`;
    const env = envName(prefix, id);
    if (!isJson(scheme)) continue;
    if (
      scheme.type === "apiKey" &&
      typeof scheme.name === "string" &&
      ["header", "query", "cookie"].includes(String(scheme.in))
    ) {
      out.push({ id, type: "apiKey", in: scheme.in as "header", name: scheme.name, env });
    } else if (scheme.type === "http" && /^bearer$/i.test(String(scheme.scheme))) out.push({ id, type: "bearer", env });
    else if (scheme.type === "http" && /^basic$/i.test(String(scheme.scheme))) out.push({ id, type: "basic", env });
    else if (
      scheme.type === "oauth2" &&
      isJson(scheme.flows) &&
      isJson(scheme.flows.clientCredentials) &&
      typeof scheme.flows.clientCredentials.tokenUrl === "string" &&
      scheme.flows.clientCredentials.tokenUrl !== ""
    ) {
      const flow = scheme.flows.clientCredentials;
      out.push({
        id,
        type: "oauth2",
        tokenUrl: flow.tokenUrl as string,
        clientIdEnv: `${env}_CLIENT_ID`,
        clientSecretEnv: `${env}_CLIENT_SECRET`,
      });
    } else if (scheme.type === "oauth2" || scheme.type === "openIdConnect") {
      const signIn = signInOf(scheme);
      if (!signIn) {
        report("OPENAPI_SECURITY_UNSUPPORTED", at, `security scheme '${id}' (oauth2) declares no flow`);
        continue;
      }
      const code = authorizationCodeOf(scheme);
      out.push({ id, type: "bearer", env: `${env}_TOKEN`, signIn, ...code });
      // An authorization code flow is the upstream-oauth feature's to sign users in through: whether the server
      // can is known once the features are (rules/upstream-oauth.ts says it then).
      if (!code.authorizationCode)
        report("OPENAPI_SECURITY_TOKEN_FROM_ENV", at, tokenFromEnv(id, scheme.type, signIn, env));
    } else {
      report(
        "OPENAPI_SECURITY_UNSUPPORTED",
        at,
        `security scheme '${id}' (${String(scheme.type)}${typeof scheme.scheme === "string" ? ` ${scheme.scheme}` : ""}) cannot be filled from the environment`,
      );
    }
  }
  return out;
}

/** OPENAPI_SECURITY_TOKEN_FROM_ENV's message. */
export function tokenFromEnv(id: string, type: unknown, signIn: SignIn, env: string): string {
  const what = type === "oauth2" ? `oauth2, ${signIn.flows.join(" or ")} flow` : "openIdConnect";
  return `security scheme '${id}' (${what}) needs a user to sign in, which the server cannot do; mapped to a bearer token read from ${env}_TOKEN`;
}

/** An authorization code flow with both URLs: the `upstream-oauth` feature signs each user in through it. */
function authorizationCodeOf(scheme: Json): { authorizationCode?: AuthorizationCodeFlow } {
  const flow = scheme.type === "oauth2" && isJson(scheme.flows) ? scheme.flows.authorizationCode : undefined;
  if (!isJson(flow) || typeof flow.authorizationUrl !== "string" || typeof flow.tokenUrl !== "string") return {};
  if (!URL.canParse(flow.authorizationUrl) || !URL.canParse(flow.tokenUrl)) return {};
  const scopes = isJson(flow.scopes) ? Object.keys(flow.scopes) : [];
  const { authorizationUrl, tokenUrl } = flow;
  return { authorizationCode: { authorizationUrl, tokenUrl, ...(scopes.length > 0 ? { scopes } : {}) } };
}

/** Flows a server cannot run alone, in the order a README names them (client credentials without a token URL too). */
const USER_FLOWS = ["authorizationCode", "implicit", "password", "clientCredentials"];

/** What a token for an OAuth2 scheme with no client-credentials flow, or an OpenID Connect one, comes from. */
function signInOf(scheme: Json): SignIn | undefined {
  const url = (value: unknown) => (typeof value === "string" && value !== "" ? { url: value } : {});
  if (scheme.type === "openIdConnect") return { flows: ["openIdConnect"], ...url(scheme.openIdConnectUrl) };
  const flows = isJson(scheme.flows) ? scheme.flows : {};
  const names = USER_FLOWS.filter((name) => isJson(flows[name]));
  if (names.length === 0) return undefined;
  const first = flows[names[0]] as Json;
  return { flows: names, ...url(first.authorizationUrl ?? first.tokenUrl) };
}

/**
 * The requirement alternatives of an operation, keeping those every scheme of which mcpgen can fill. A
 * requirement naming several schemes that each set the Authorization header cannot be met as written (a
 * request has one): Google's documents list their implicit and authorization-code schemes so, meaning either.
 * Each such scheme becomes an alternative of its own, beside the requirement's other schemes.
 */
export function requirements(op: Json, root: Json, schemes: SecuritySchemeNode[]): string[][] | undefined {
  const raw = Array.isArray(op.security) ? op.security : Array.isArray(root.security) ? root.security : undefined;
  if (!raw || raw.length === 0) return undefined;
  const byId = new Map(schemes.map((s) => [s.id, s]));
  const authorization = (id: string) => byId.has(id) && byId.get(id)?.type !== "apiKey";
  const alternatives = raw.filter(isJson).flatMap((r) => {
    const names = Object.keys(r);
    const headers = names.filter(authorization);
    if (headers.length < 2) return [names];
    const rest = names.filter((n) => !authorization(n));
    return headers.map((header) => [...rest, header]);
  });
  const usable = alternatives.filter((names) => names.every((n) => byId.has(n)));
  const seen = new Set<string>();
  const unique = usable.filter((names) => !seen.has(names.join("\0")) && seen.add(names.join("\0")));
  return unique.length > 0 ? unique : undefined;
}

/**
 * The OAuth scopes an operation's caller needs (issue 17): those of the first security requirement (the
 * operation's own, else the document's) that names an oauth2 or openIdConnect scheme. Requirements are
 * alternatives; the first is the one the API's authors list first, and one list is what a token is checked
 * against. Undefined when no requirement names such a scheme (the tool needs no scope).
 */
export function operationScopes(op: Json, root: Json): string[] | undefined {
  const raw = Array.isArray(op.security) ? op.security : Array.isArray(root.security) ? root.security : undefined;
  const schemes =
    isJson(root.components) && isJson(root.components.securitySchemes) ? root.components.securitySchemes : {};
  const isOauth = (id: string) => {
    const scheme = schemes[id];
    return isJson(scheme) && (scheme.type === "oauth2" || scheme.type === "openIdConnect");
  };
  for (const requirement of (raw ?? []).filter(isJson)) {
    const ids = Object.keys(requirement).filter(isOauth);
    if (ids.length === 0) continue;
    const scopes = ids.flatMap((id) => {
      const listed = requirement[id];
      return Array.isArray(listed) ? listed.filter((s): s is string => typeof s === "string") : [];
    });
    return scopes.length > 0 ? [...new Set(scopes)] : undefined;
  }
  return undefined;
}

export const scopesField = (scopes: string[] | undefined): { scopes?: string[] } => (scopes ? { scopes } : {});
