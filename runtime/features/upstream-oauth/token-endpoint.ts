// The API's token endpoint (RFC 6749 §4.1.3, §6): an authorization code (with its PKCE verifier) or a refresh
// token for tokens. The client authenticates in the form (client_secret_post: GitHub, Google and Slack take it).
// Nothing of a request or an answer but the OAuth error code reaches an error message.
import { DEFAULT_MAX_BODY_CHARS, describe, discard, readCapped } from "../../upstream/send.ts";
import type { Grant } from "./vault.ts";

export type Client = { clientId: string; clientSecret?: string };
export type TokenAnswer = { grant: Grant } | { error: string };

const DEFAULT_LIFETIME_S = 3600;
/** Renewed a minute before it expires, or at three quarters of a shorter life. */
const lifetimeOf = (ms: number) => ({
  expiresAt: Date.now() + ms,
  renewAt: Date.now() + ms - Math.min(60_000, ms / 4),
});

/** `scopes`: what was asked, kept when the answer names none; `refresh`: kept when the answer brings no new one. */
export async function tokenRequest(
  tokenUrl: string,
  form: Record<string, string>,
  client: Client,
  asked: { scopes: string[]; refresh?: string },
): Promise<TokenAnswer> {
  const body = new URLSearchParams({ ...form, client_id: client.clientId });
  if (client.clientSecret !== undefined) body.set("client_secret", client.clientSecret);
  let response: Response;
  try {
    response = await fetch(tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body,
      signal: AbortSignal.timeout(30_000),
      redirect: "manual", // the secret and the code are in this request: never carried elsewhere
    });
  } catch (error) {
    return { error: `no answer from the token endpoint (${describe(error)})` };
  }
  const read = await readCapped(response, DEFAULT_MAX_BODY_CHARS, false).catch(() => undefined);
  if (!read) discard(response);
  let answer: Record<string, unknown> = {};
  try {
    const text = read && !read.cut ? read.body.toString("utf8") : "";
    const parsed: unknown = text.startsWith("{") ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text));
    if (parsed !== null && typeof parsed === "object") answer = parsed as Record<string, unknown>;
  } catch {}
  // GitHub answers 200 with an `error` field: the field decides, not the status alone.
  const code = typeof answer.error === "string" && /^[\w.-]{1,64}$/.test(answer.error) ? answer.error : undefined;
  if (!response.ok || code !== undefined || typeof answer.access_token !== "string" || answer.access_token === "")
    return { error: code ?? `status ${response.status}${response.ok ? " without an access_token" : ""}` };
  const lifetime = Number(answer.expires_in);
  const refresh =
    typeof answer.refresh_token === "string" && answer.refresh_token ? answer.refresh_token : asked.refresh;
  const scope = typeof answer.scope === "string" ? answer.scope.split(/[\s,]+/).filter(Boolean) : undefined;
  return {
    grant: {
      access: answer.access_token,
      ...(refresh ? { refresh } : {}),
      // No expires_in: a token that lasts until revoked (GitHub OAuth apps); a 401 then asks again.
      ...(answer.expires_in !== undefined
        ? lifetimeOf(lifetime > 0 ? lifetime * 1000 : DEFAULT_LIFETIME_S * 1000)
        : {}),
      scopes: scope ?? asked.scopes,
      tokenUrl,
    },
  };
}
