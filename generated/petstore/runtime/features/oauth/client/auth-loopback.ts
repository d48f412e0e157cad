// A loopback redirect for command-line clients (RFC 8252 §7.3): an HTTP listener on 127.0.0.1 with a
// random port that catches the authorization server's redirect, answers the browser with a short page,
// and closes. A later login (a step-up) listens again on the same port, so the redirect URL the client
// registered stays valid; between logins nothing listens.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OAuthError } from "./auth-types.ts";

export type LoopbackRedirect = {
  /** The redirect URL to pass as `auth.redirectUrl` (http://127.0.0.1:<port>/callback). */
  redirectUrl: string;
  /**
   * Resolves with the full URL the browser was redirected to, then stops listening; rejects after the
   * timeout. Call it again for the next login: it listens again on the same port.
   */
  callback(): Promise<URL>;
  close(): Promise<void>;
};

const PAGE = "<!doctype html><title>Signed in</title><p>You can close this window and return to the terminal.</p>";
const STRANGER =
  "<!doctype html><title>Not this login</title><p>This is not the redirect of the login in progress.</p>";

// The `state` of the login each redirect URL waits for, set by the authorizer (auth-flow.ts) while it shows
// the authorization URL. Any local program or web page can request the callback; one without that state is
// not the authorization server's redirect, so it is answered 400 and neither ends nor fails the login.
const awaited = new Map<string, string>();

/** Registers the state a login expects at `redirectUrl`; the returned function forgets it. */
export function awaitState(redirectUrl: string, state: string): () => void {
  awaited.set(redirectUrl, state);
  return () => {
    if (awaited.get(redirectUrl) === state) awaited.delete(redirectUrl);
  };
}

/** Starts the listener; `timeoutMs` (default 5 minutes) bounds each wait for the browser. */
export async function startLoopbackRedirect(
  options: { timeoutMs?: number; path?: string } = {},
): Promise<LoopbackRedirect> {
  const path = options.path ?? "/callback";
  const timeoutMs = options.timeoutMs ?? 5 * 60_000;
  let waiter: ((url: URL) => void) | undefined;
  let early: URL | undefined;
  let server: Server | undefined;
  let redirectUrl = "";

  const listen = async (port: number) => {
    const next = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      if (request.method !== "GET" || url.pathname !== path) {
        response.writeHead(404).end();
        return;
      }
      const headers = { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" };
      const state = awaited.get(redirectUrl);
      if (state !== undefined && url.searchParams.get("state") !== state) {
        response.writeHead(400, headers).end(STRANGER);
        return;
      }
      response.writeHead(200, headers).end(PAGE);
      const landed = new URL(`${redirectUrl}${url.search}`);
      if (waiter) waiter(landed);
      else early ??= landed;
    });
    await new Promise<void>((resolve, reject) => {
      next.once("error", (error) =>
        reject(new OAuthError(`The loopback redirect cannot listen on 127.0.0.1:${port}: ${error.message}`)),
      );
      next.listen(port, "127.0.0.1", () => resolve());
    });
    server = next;
    return (next.address() as AddressInfo).port;
  };
  const close = () =>
    new Promise<void>((resolve) => {
      const current = server;
      server = undefined;
      if (!current) return resolve();
      current.closeAllConnections();
      current.close(() => resolve());
    });

  const port = await listen(0);
  redirectUrl = `http://127.0.0.1:${port}${path}`;
  return {
    redirectUrl,
    close,
    async callback() {
      if (!server) await listen(port);
      try {
        return await new Promise<URL>((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new OAuthError(`No authorization redirect within ${timeoutMs} ms`)),
            timeoutMs,
          );
          waiter = (url) => {
            clearTimeout(timer);
            resolve(url);
          };
          if (early) waiter(early);
        });
      } finally {
        waiter = undefined;
        early = undefined;
        await close();
      }
    },
  };
}
