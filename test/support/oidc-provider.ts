// A real authorization server for the auth tests (issue 17): oidc-provider 8.8.1 on 127.0.0.1, port 0, in the
// test process. JWT access tokens bound to a resource (RFC 8707), client credentials, authorization code + PKCE
// with login and consent answered by the harness (no browser: see oidc-authorize.ts), dynamic client
// registration, refresh tokens, revocation, introspection, key rotation and a JWKS outage switch.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import Provider, { type OidcConfiguration } from "oidc-provider";
import { answerInteraction } from "./oidc-authorize.ts";
import { buildConfiguration, clients, secretOf, type TokenPolicy } from "./oidc-provider-config.ts";

export { authorize } from "./oidc-authorize.ts";
export { clients, secretOf } from "./oidc-provider-config.ts";

export type OidcProviderOptions = {
  /** Default access-token lifetime in seconds (300). */
  ttlSeconds?: number;
  /** The account the interaction route logs in as ("test-user"). */
  accountId?: string;
  /** More static clients (e.g. one allowed the token-exchange grant). */
  clients?: object[];
  /** Edit the configuration before each Provider is built (rotation builds a new one). */
  configuration?: (config: OidcConfiguration) => void;
  /** Called on each Provider after it is built, before it serves: e.g. provider.registerGrantType(...). */
  configure?: (provider: Provider) => void;
};

export type MintOptions = {
  /** RFC 8707 resource indicator: becomes the token's `aud`. */
  resource: string;
  scope?: string;
  /** Default clients.machine (JWT); clients.opaque gives an opaque token. */
  clientId?: string;
  ttlSeconds?: number;
};

export type TokenResponse = {
  access_token: string;
  token_type: string;
  expires_in?: number;
  scope?: string;
  refresh_token?: string;
};

export type OidcTestProvider = {
  issuer: string;
  /** The account the interaction route logs in as. */
  accountId: string;
  /** Current Provider instance (replaced by rotateKeys/retireOldKeys). */
  provider(): Provider;
  /** A token from the real token endpoint by client_credentials. */
  mintToken(options: MintOptions): Promise<TokenResponse>;
  /** A JWT signed with the provider's current key but with claims the test chooses (expired, nbf, wrong aud...). */
  signToken(claims: Record<string, unknown>, options?: { expiresIn?: string | number; kid?: string }): Promise<string>;
  /** The current signing key (private JWK) and public JWKS. */
  signingKey(): JWK;
  publicJwks(): { keys: JWK[] };
  /** New key signs from now on; the old one stays published. */
  rotateKeys(): Promise<void>;
  /** Drop every key but the current signing key from the JWKS. */
  retireOldKeys(): void;
  /** RFC 7009 revocation at the real endpoint, as the client that holds the token. */
  revoke(token: string, clientId?: string): Promise<void>;
  /** RFC 7662 introspection as the resource server client. */
  introspect(token: string): Promise<Record<string, unknown>>;
  /** JWKS outage: the jwks endpoint answers 503 while true. */
  setJwksDown(down: boolean): void;
  /** How many times the JWKS endpoint was requested. */
  jwksRequests(): number;
  /** Token endpoint (for grant tests of other helpers). */
  tokenEndpoint: string;
  stop(): Promise<void>;
};

async function newKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: "RS256", use: "sig" };
}

const publicPart = ({ d, p, q, dp, dq, qi, ...pub }: JWK): JWK => pub;

export async function startOidcProvider(options: OidcProviderOptions = {}): Promise<OidcTestProvider> {
  const accountId = options.accountId ?? "test-user";
  const policy: TokenPolicy = {
    ttlSeconds: options.ttlSeconds ?? 300,
    seenScopes: new Set(),
    opaqueClients: new Set([clients.opaque]),
  };
  let keys: JWK[] = [await newKey()];
  let current: Provider | undefined;
  let jwksDown = false;
  let jwksCount = 0;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/jwks") {
      jwksCount++;
      if (jwksDown) {
        res.writeHead(503, { "content-type": "text/plain" }).end("jwks down (test)");
        return;
      }
    }
    // RFC 8414 discovery for clients that try it before OIDC discovery: the same document.
    if (path === "/.well-known/oauth-authorization-server") req.url = "/.well-known/openid-configuration";
    const provider = current as Provider;
    if (path.startsWith("/interaction/")) {
      answerInteraction(provider, req, res, accountId).catch((error: unknown) => {
        res.writeHead(500, { "content-type": "text/plain" }).end(String(error));
      });
      return;
    }
    provider.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const build = (): void => {
    const config = buildConfiguration({ keys }, policy, options.clients ?? []);
    options.configuration?.(config);
    const provider = new Provider(issuer, config);
    options.configure?.(provider);
    current = provider;
  };
  build();

  const basic = (clientId: string): string =>
    `Basic ${Buffer.from(`${clientId}:${secretOf(clientId)}`).toString("base64")}`;
  const form = async (path: string, clientId: string, body: Record<string, string>): Promise<Response> =>
    fetch(`${issuer}${path}`, {
      method: "POST",
      headers: { authorization: basic(clientId), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body).toString(),
    });

  return {
    issuer,
    accountId,
    tokenEndpoint: `${issuer}/token`,
    provider: () => current as Provider,
    async mintToken({ resource, scope, clientId = clients.machine, ttlSeconds }) {
      policy.nextTtlSeconds = ttlSeconds;
      const response = await form("/token", clientId, {
        grant_type: "client_credentials",
        resource,
        ...(scope ? { scope } : {}),
      });
      const body = (await response.json()) as TokenResponse & { error?: string; error_description?: string };
      if (!response.ok) throw new Error(`token endpoint: ${response.status} ${body.error}: ${body.error_description}`);
      return body;
    },
    async signToken(claims, { expiresIn = "5m", kid } = {}) {
      const key = keys[0];
      const jwt = new SignJWT({ ...claims })
        .setProtectedHeader({ alg: "RS256", kid: kid ?? (key.kid as string), typ: "at+jwt" })
        .setIssuedAt();
      if (!("iss" in claims)) jwt.setIssuer(issuer);
      if (!("exp" in claims)) jwt.setExpirationTime(expiresIn);
      if (!("jti" in claims)) jwt.setJti(randomUUID());
      return jwt.sign(key);
    },
    signingKey: () => keys[0],
    publicJwks: () => ({ keys: keys.map(publicPart) }),
    async rotateKeys() {
      keys = [await newKey(), ...keys];
      build();
    },
    retireOldKeys() {
      keys = [keys[0]];
      build();
    },
    async revoke(token, clientId = clients.opaque) {
      const response = await form("/token/revocation", clientId, { token });
      if (!response.ok) throw new Error(`revocation endpoint: ${response.status} ${await response.text()}`);
    },
    async introspect(token) {
      const response = await form("/token/introspection", clients.resourceServer, { token });
      return (await response.json()) as Record<string, unknown>;
    },
    setJwksDown: (down) => {
      jwksDown = down;
    },
    jwksRequests: () => jwksCount,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
