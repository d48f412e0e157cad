// oidc-provider 8.x ships no type declarations; this is the small part of its surface the test harness uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export type OidcConfiguration = Record<string, unknown>;
  export type OidcContext = {
    oidc: {
      params?: Record<string, unknown>;
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      result?: { consent?: { grantId?: string } };
      provider: Provider;
      [key: string]: unknown;
    };
    [key: string]: unknown;
  };
  export type OidcGrant = {
    jti: string;
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  };

  export default class Provider {
    constructor(issuer: string, configuration?: OidcConfiguration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<{ uid: string; prompt: { name: string } }>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>): Promise<void>;
    registerGrantType(
      name: string,
      handler: (ctx: unknown, next: () => Promise<void>) => Promise<void>,
      parameters?: string | string[] | Set<string>,
      allowedDuplicateParameters?: string | string[] | Set<string>,
    ): void;
    on(event: string, listener: (...args: unknown[]) => void): this;
    Grant: {
      new (init: { clientId: string; accountId: string }): OidcGrant;
      find(id: string): Promise<OidcGrant | undefined>;
    };
    AccessToken: { find(token: string): Promise<{ destroy(): Promise<void> } | undefined> };
    RefreshToken: { find(token: string): Promise<{ destroy(): Promise<void> } | undefined> };
    proxy: boolean;
    [key: string]: unknown;
  }
  export const errors: Record<string, new (...args: unknown[]) => Error>;
}
