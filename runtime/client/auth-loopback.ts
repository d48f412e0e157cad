// A loopback redirect for command-line clients (RFC 8252 §7.3): a one-shot HTTP listener on
// 127.0.0.1 with a random port that catches the authorization server's redirect, answers the
// browser with a short page, and closes.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { OAuthError } from "./auth-types.ts";

export type LoopbackRedirect = {
  /** The redirect URL to register and pass as `auth.redirectUrl` (http://127.0.0.1:<port>/callback). */
  redirectUrl: string;
  /** Resolves with the full URL the browser was redirected to; rejects after the timeout. Closes the listener. */
  callback(): Promise<URL>;
  close(): Promise<void>;
};

const PAGE = "<!doctype html><title>Signed in</title><p>You can close this window and return to the terminal.</p>";

/** Starts the listener; `timeoutMs` (default 5 minutes) bounds the wait for the browser. */
export async function startLoopbackRedirect(
  options: { timeoutMs?: number; path?: string } = {},
): Promise<LoopbackRedirect> {
  const path = options.path ?? "/callback";
  const timeoutMs = options.timeoutMs ?? 5 * 60_000;
  let settle: { resolve: (url: URL) => void; reject: (error: Error) => void } | undefined;
  let early: URL | undefined;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method !== "GET" || url.pathname !== path) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" }).end(PAGE);
    const landed = new URL(`${redirectUrl}${url.search}`);
    if (settle) settle.resolve(landed);
    else early ??= landed;
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const redirectUrl = `http://127.0.0.1:${port}${path}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    redirectUrl,
    close,
    callback() {
      return new Promise<URL>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new OAuthError(`No authorization redirect within ${timeoutMs} ms`)),
          timeoutMs,
        );
        const done = (finish: () => void) => {
          clearTimeout(timer);
          settle = undefined;
          void close().then(finish);
        };
        settle = { resolve: (url) => done(() => resolve(url)), reject: (error) => done(() => reject(error)) };
        if (early) settle.resolve(early);
        timer.unref?.();
      }).catch(async (error: unknown) => {
        await close();
        throw error;
      });
    },
  };
}
