// The `oauth` feature's flags read as a whole: --auth-issuer and friends, or their MCP_AUTH_* twins, made
// into the transport's AuthConfig. Parsing only: a bad value is a usage error (exit 2), like every other flag.
import { isSecureOrLoopback } from "../../protocol/loopback-url.ts";
import type { AuthConfig } from "../../server/auth-principal.ts";

export type AuthFlags = {
  "auth-issuer"?: string[];
  "auth-audience"?: string;
  "auth-jwks"?: string;
  "auth-introspection"?: string;
  "list-all-tools"?: boolean;
};

/** The auth settings, undefined when auth is off, or the usage error. */
export function parseAuthConfig(flags: AuthFlags, env: NodeJS.ProcessEnv): AuthConfig | undefined | string {
  const value = (flag: keyof AuthFlags, name: string) => {
    const given = flags[flag];
    if (typeof given === "string") return { text: given, source: `--${flag}` };
    const text = env[name];
    return text ? { text, source: name } : undefined;
  };
  const issuerTexts = flags["auth-issuer"]?.length
    ? { list: flags["auth-issuer"], source: "--auth-issuer" }
    : env.MCP_AUTH_ISSUER
      ? { list: [env.MCP_AUTH_ISSUER], source: "MCP_AUTH_ISSUER" }
      : undefined;
  const audience = value("auth-audience", "MCP_AUTH_AUDIENCE");
  const jwks = value("auth-jwks", "MCP_AUTH_JWKS");
  const introspection = value("auth-introspection", "MCP_AUTH_INTROSPECTION");
  const listAllText = env.MCP_LIST_ALL_TOOLS;
  if (listAllText && !["1", "0", "true", "false"].includes(listAllText.toLowerCase()))
    return `MCP_LIST_ALL_TOOLS must be 1 (or true) or 0 (or false), not '${listAllText}'`;
  const listAllTools = flags["list-all-tools"] === true || listAllText === "1" || listAllText?.toLowerCase() === "true";
  if (!issuerTexts) {
    const stray =
      audience ?? jwks ?? introspection ?? (flags["list-all-tools"] ? { source: "--list-all-tools" } : undefined);
    return stray
      ? `${stray.source} needs --auth-issuer (or MCP_AUTH_ISSUER): the authorization server to trust`
      : undefined;
  }
  const issuers: string[] = [];
  for (const text of issuerTexts.list.flatMap((item) => item.split(","))) {
    const issuer = text.trim();
    const problem = urlProblem(issuer, issuerTexts.source, true);
    if (problem) return problem;
    if (!issuers.includes(issuer)) issuers.push(issuer);
  }
  for (const entry of [audience, jwks, introspection]) {
    const problem = entry && urlProblem(entry.text, entry.source, entry !== audience);
    if (problem) return problem;
  }
  let introspectionConfig: AuthConfig["introspection"];
  if (introspection) {
    const clientId = env.MCP_AUTH_CLIENT_ID;
    const clientSecret = env.MCP_AUTH_CLIENT_SECRET;
    if (!clientId || !clientSecret)
      return `${introspection.source} needs this server's client credentials in MCP_AUTH_CLIENT_ID and MCP_AUTH_CLIENT_SECRET`;
    introspectionConfig = { url: introspection.text, clientId, clientSecret };
  }
  const cacheText = env.MCP_AUTH_CACHE_SECONDS;
  const cacheSeconds = cacheText ? Number(cacheText) : 30;
  if (!Number.isSafeInteger(cacheSeconds) || cacheSeconds < 0 || cacheSeconds > 3600)
    return `MCP_AUTH_CACHE_SECONDS must be a whole number of seconds 0-3600, not '${cacheText}'`;
  return {
    issuers,
    ...(audience ? { audience: audience.text } : {}),
    ...(jwks ? { jwksUrl: jwks.text } : {}),
    ...(introspectionConfig ? { introspection: introspectionConfig } : {}),
    cacheSeconds,
    listAllTools,
  };
}

/** Why a URL setting is unusable: not http(s), a fragment, or (for servers this one calls) plain http
 * to anything but a loopback address, where a token or key could be read or forged on the way. */
function urlProblem(text: string, source: string, calledByUs: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `${source} must be an absolute http(s) URL, not '${text}'`;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return `${source} must be an http(s) URL, not '${text}'`;
  if (url.hash || text.includes("#")) return `${source} must not have a #fragment: '${text}'`;
  if (calledByUs && !isSecureOrLoopback(url))
    return `${source} must use https (plain http is accepted for loopback addresses only), not '${text}'`;
  return undefined;
}
