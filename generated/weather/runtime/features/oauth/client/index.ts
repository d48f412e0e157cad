// The oauth feature's client half: what a generated src/client.ts imports when its package has the feature
// (and nothing else does, so a package without it carries none of these files, nor jose). `withOAuth` turns
// the `auth` option of an HTTP target into the core transport's `authorizer`.
import type { ConnectTarget } from "../../../client/client.ts";
import type { HttpTarget } from "../../../transport/http/client.ts";
import { createAuthorizer } from "./auth-flow.ts";
import type { AuthOptions } from "./auth-types.ts";

export { createAuthorizer } from "./auth-flow.ts";
export { type LoopbackRedirect, startLoopbackRedirect } from "./auth-loopback.ts";
export {
  type AuthOptions,
  type AuthorizationCallback,
  type ClientCredentialsAuth,
  type EnterpriseAuth,
  type InteractiveAuth,
  memoryTokenStore,
  type OAuthClientRegistration,
  OAuthError,
  type OAuthTokens,
  type StoredAuth,
  type TokenStore,
} from "./auth-types.ts";

/** An HTTP target that may log in with OAuth: log in on the first 401, refresh, step up on insufficient_scope. */
export type OAuthTarget = HttpTarget & { auth?: AuthOptions };

/** The target the core connects to: `auth` replaced by its authorizer; any other target unchanged. */
export function withOAuth(target: ConnectTarget | OAuthTarget): ConnectTarget {
  if (!("url" in target) || !("auth" in target) || target.auth === undefined) return target;
  const { auth, ...rest } = target;
  return { ...rest, authorizer: createAuthorizer(new URL(rest.url), auth) };
}
