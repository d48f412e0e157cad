// Validates an OAuth access token for this resource server (issue 17), with jose only (no hand-written JWT
// parsing). JWTs: signature against the issuer's JWKS (cached by jose, refetched on an unknown `kid` at most
// once per cooldown, so a flood of made-up kids cannot hammer the key server), asymmetric algorithms only,
// `iss` among the configured issuers, `exp`/`nbf` with 30 s of clock skew, `aud` this server (RFC 8707).
// Opaque tokens: RFC 7662 introspection, answers cached briefly in a bounded map. jose is loaded on first
// use, so a server with auth off never loads it.
import { createHash } from "node:crypto";
import type { JWTPayload, JWTVerifyGetKey } from "jose";
import type { AuthConfig, AuthPrincipal } from "../../server/auth-principal.ts";

/** Asymmetric only: `none` and HS* (which a public key could be misused to "sign") are refused. */
const ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];
export const CLOCK_SKEW_SECONDS = 30;
/** Introspection answers kept at most; the least recently stored goes first. */
export const MAX_CACHED_ANSWERS = 1000;
/** A verified JWT's verdict is kept this long at most (and never past its `exp`): a client sends the same token
 * on every request, and checking its signature each time was most of an authenticated call's cost. */
const VERIFIED_JWT_TTL_MS = 60_000;
/** After a failed metadata discovery, how long before it is tried again (requests meanwhile fail closed). */
const DISCOVERY_RETRY_MS = 10_000;

export type Verdict =
  | { ok: true; principal: AuthPrincipal }
  /** 401: the token is not acceptable; 503: the keys or the introspection endpoint cannot be reached. */
  | { ok: false; status: 401 | 503; description: string };

type Jose = typeof import("jose");

export class TokenVerifier {
  #jose: Promise<Jose> | undefined;
  readonly #keySets = new Map<string, { getKey?: JWTVerifyGetKey; failedAt?: number }>();
  readonly #answers = new Map<string, { verdict: Verdict; until: number }>();
  /** Verified JWTs by token, the least recently stored dropped first (at most MAX_CACHED_ANSWERS). */
  readonly #verified = new Map<string, { verdict: Verdict; until: number }>();
  #lastOutageLog = 0;

  constructor(
    private readonly config: AuthConfig & { audience: string },
    private readonly log: (line: string) => void,
  ) {}

  #loadJose(): Promise<Jose> {
    this.#jose ??= import("jose");
    return this.#jose;
  }

  /** Introspection answers held now (a test hook for the bounded cache). */
  get cachedAnswers(): number {
    return this.#answers.size;
  }

  async verify(token: string): Promise<Verdict> {
    const kept = this.#verified.get(token);
    if (kept && Date.now() < kept.until) return kept.verdict;
    if (kept) this.#verified.delete(token);
    const jose = await this.#loadJose();
    let payload: JWTPayload;
    try {
      jose.decodeProtectedHeader(token);
      payload = jose.decodeJwt(token);
    } catch {
      // Not a JWT: only introspection can tell what it is.
      return this.config.introspection ? this.#introspect(token) : invalid("the token is not a JWT");
    }
    const issuer = typeof payload.iss === "string" ? payload.iss : "";
    if (!this.config.issuers.includes(issuer)) return invalid("the token's issuer is not trusted by this server");
    const keys = await this.#keysOf(issuer);
    if (!keys) return unavailable(`the signing keys of ${issuer} cannot be fetched`);
    try {
      const { payload: claims } = await jose.jwtVerify(token, keys, {
        issuer,
        audience: this.config.audience,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_SKEW_SECONDS,
        requiredClaims: ["exp"],
      });
      const verdict = principalFrom(claims, issuer, token);
      if (verdict.ok && typeof claims.exp === "number") this.#keepVerified(token, verdict, claims.exp);
      return verdict;
    } catch (error) {
      const code = (error as { code?: string }).code ?? "";
      if (["ERR_JWKS_TIMEOUT", "ERR_JOSE_GENERIC", "ERR_JWKS_INVALID"].includes(code) || error instanceof TypeError) {
        this.#outage(issuer, error);
        return unavailable(`the signing keys of ${issuer} cannot be fetched`);
      }
      return invalid(describe(code, error));
    }
  }

  /** Kept until `exp` (with the skew jwtVerify allows) or VERIFIED_JWT_TTL_MS, whichever comes first; `nbf` had
   * passed already, and jose keeps an issuer's keys for minutes anyway, so a rotated-out key changes nothing sooner. */
  #keepVerified(token: string, verdict: Verdict, exp: number): void {
    const until = Math.min(Date.now() + VERIFIED_JWT_TTL_MS, (exp + CLOCK_SKEW_SECONDS) * 1000);
    this.#verified.set(token, { verdict, until });
    while (this.#verified.size > MAX_CACHED_ANSWERS)
      this.#verified.delete(this.#verified.keys().next().value as string);
  }

  async #keysOf(issuer: string): Promise<JWTVerifyGetKey | undefined> {
    const entry = this.#keySets.get(issuer);
    if (entry?.getKey) return entry.getKey;
    if (entry?.failedAt && Date.now() - entry.failedAt < DISCOVERY_RETRY_MS) return undefined;
    const jose = await this.#loadJose();
    try {
      const url = this.config.jwksUrl ?? (await discoverJwksUri(issuer));
      const getKey = jose.createRemoteJWKSet(new URL(url), {
        timeoutDuration: 5_000,
        // An unknown `kid` refetches the keys at most once per 5 s: a rotated key is found soon, a flood of made-up
        // kids costs the key server 12 requests a minute at most.
        cooldownDuration: 5_000,
        cacheMaxAge: 10 * 60_000,
      });
      this.#keySets.set(issuer, { getKey });
      return getKey;
    } catch (error) {
      this.#keySets.set(issuer, { failedAt: Date.now() });
      this.#outage(issuer, error);
      return undefined;
    }
  }

  /** One log line per outage (then at most one a minute): the operator sees it, the log is not flooded. */
  #outage(issuer: string, error: unknown, what = `the signing keys of ${issuer}`): void {
    const now = Date.now();
    if (now - this.#lastOutageLog < 60_000) return;
    this.#lastOutageLog = now;
    const reason = (error as Error).message ?? String(error);
    this.log(`auth: cannot fetch ${what}: ${reason}; requests with tokens get 503 (fail closed) until it answers`);
  }

  async #introspect(token: string): Promise<Verdict> {
    const key = createHash("sha256").update(token).digest("base64url");
    const cached = this.#answers.get(key);
    if (cached && cached.until > Date.now()) return cached.verdict;
    const { url, clientId, clientSecret } = this.config.introspection as NonNullable<AuthConfig["introspection"]>;
    let answer: Record<string, unknown>;
    try {
      const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString(
        "base64",
      );
      const response = await fetch(url, {
        method: "POST",
        headers: {
          authorization: `Basic ${basic}`,
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
        },
        body: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
        signal: AbortSignal.timeout(5_000),
        redirect: "error",
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      answer = (await response.json()) as Record<string, unknown>;
    } catch (error) {
      this.#outage(url, error, `an introspection answer from ${url}`);
      return unavailable("the introspection endpoint cannot be reached");
    }
    const verdict = this.#judge(answer, token);
    this.#remember(key, verdict, answer.exp);
    return verdict;
  }

  #judge(answer: Record<string, unknown>, token: string): Verdict {
    if (answer.active !== true) return invalid("the token is not active (expired, revoked or unknown)");
    const now = Math.floor(Date.now() / 1000);
    if (typeof answer.exp === "number" && answer.exp + CLOCK_SKEW_SECONDS < now)
      return invalid("the token has expired");
    if (typeof answer.nbf === "number" && answer.nbf - CLOCK_SKEW_SECONDS > now)
      return invalid("the token is not valid yet");
    const issuer = typeof answer.iss === "string" ? answer.iss : this.config.issuers[0];
    if (!this.config.issuers.includes(issuer)) return invalid("the token's issuer is not trusted by this server");
    const audiences = Array.isArray(answer.aud) ? answer.aud : [answer.aud];
    if (!audiences.includes(this.config.audience))
      return invalid("the token was not issued for this server (audience)");
    return principalFrom(answer, issuer, token);
  }

  #remember(key: string, verdict: Verdict, exp: unknown): void {
    const ttl = this.config.cacheSeconds * 1000;
    if (ttl === 0) return;
    const until = Math.min(Date.now() + ttl, typeof exp === "number" ? exp * 1000 : Number.POSITIVE_INFINITY);
    this.#answers.delete(key);
    this.#answers.set(key, { verdict, until });
    while (this.#answers.size > MAX_CACHED_ANSWERS) this.#answers.delete(this.#answers.keys().next().value as string);
  }
}

/** The issuer's jwks_uri from its RFC 8414 metadata, else its OpenID Connect discovery document. */
async function discoverJwksUri(issuer: string): Promise<string> {
  const url = new URL(issuer);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  const candidates = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
  for (const candidate of candidates) {
    try {
      const response = await fetch(candidate, {
        signal: AbortSignal.timeout(5_000),
        headers: { accept: "application/json" },
      });
      if (!response.ok) continue;
      const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
      // RFC 8414 §3.3: the metadata must name the issuer it was fetched for.
      if (metadata.issuer === issuer && typeof metadata.jwks_uri === "string") return metadata.jwks_uri;
    } catch {
      // try the next form
    }
  }
  throw new Error(`no authorization server metadata with a jwks_uri found for ${issuer}`);
}

function principalFrom(claims: Record<string, unknown>, issuer: string, token: string): Verdict {
  const clientId =
    typeof claims.client_id === "string" ? claims.client_id : typeof claims.azp === "string" ? claims.azp : undefined;
  const subject = typeof claims.sub === "string" && claims.sub ? claims.sub : clientId;
  if (!subject) return invalid("the token names no subject");
  const scopeText = typeof claims.scope === "string" ? claims.scope : typeof claims.scp === "string" ? claims.scp : "";
  const scopes = Array.isArray(claims.scp)
    ? claims.scp.filter((s): s is string => typeof s === "string")
    : scopeText.split(" ").filter(Boolean);
  // Frozen, claims and all: verdicts are cached, so one request's handler must not change what the next one's sees.
  const principal: AuthPrincipal = deepFreeze({
    subject,
    scopes,
    claims,
    issuer,
    token,
    ...(clientId ? { clientId } : {}),
    ...(typeof claims.exp === "number" ? { expiresAt: claims.exp } : {}),
  });
  return { ok: true, principal };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function describe(code: string, error: unknown): string {
  switch (code) {
    case "ERR_JWT_EXPIRED":
      return "the token has expired";
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
    case "ERR_JWKS_NO_MATCHING_KEY":
    case "ERR_JWKS_MULTIPLE_MATCHING_KEYS":
      return "the token's signature does not verify";
    case "ERR_JOSE_ALG_NOT_ALLOWED":
    case "ERR_JOSE_NOT_SUPPORTED":
      return "the token's signing algorithm is not accepted";
    case "ERR_JWT_CLAIM_VALIDATION_FAILED": {
      const claim = (error as { claim?: string }).claim;
      if (claim === "aud") return "the token was not issued for this server (audience)";
      if (claim === "nbf") return "the token is not valid yet";
      return `the token's ${claim ?? "claims"} claim is not acceptable`;
    }
    default:
      return "the token is malformed";
  }
}

const invalid = (description: string): Verdict => ({ ok: false, status: 401, description });
const unavailable = (description: string): Verdict => ({ ok: false, status: 503, description });
