// Authorization code + PKCE without a browser: the harness's interaction route logs the test account in and
// grants every scope and resource asked for, and `authorize` follows the redirects with a cookie jar the way
// a browser would, until the authorization server redirects to the client's redirect URI.
import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";

type InteractionDetails = {
  prompt: { name: string; details: { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> } };
  params: { client_id: string };
  session?: { accountId: string };
  grantId?: string;
};

export async function answerInteraction(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  accountId: string,
): Promise<void> {
  const details = (await provider.interactionDetails(req, res)) as unknown as InteractionDetails;
  if (details.prompt.name === "login") {
    await provider.interactionFinished(req, res, { login: { accountId } });
    return;
  }
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId: details.session?.accountId ?? accountId, clientId: details.params.client_id });
  if (!grant) throw new Error("grant vanished");
  const { missingOIDCScope, missingResourceScopes } = details.prompt.details;
  if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(" "));
  for (const [resource, scopes] of Object.entries(missingResourceScopes ?? {}))
    grant.addResourceScope(resource, scopes.join(" "));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } });
}

/**
 * Follows an authorization URL through login and consent; resolves to the redirect URI the server sent the
 * browser to (with `code` and `state`, or `error`). Use it as a client's `onAuthorizationUrl`.
 */
export async function authorize(authorizationUrl: string | URL, redirectUriPrefix?: string): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = new URL(authorizationUrl);
  const origin = url.origin;
  for (let hop = 0; hop < 20; hop++) {
    const response = await fetch(url, {
      redirect: "manual",
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
    }
    const location = response.headers.get("location");
    if (!location)
      throw new Error(
        `authorize: ${response.status} without redirect at ${url}: ${(await response.text()).slice(0, 300)}`,
      );
    url = new URL(location, url);
    const leftServer = redirectUriPrefix ? url.href.startsWith(redirectUriPrefix) : url.origin !== origin;
    if (leftServer) return url;
  }
  throw new Error("authorize: too many redirects");
}
