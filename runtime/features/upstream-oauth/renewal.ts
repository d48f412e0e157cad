// A user's grant kept fresh: refreshed shortly before it expires, or at once after a 401 (`force`), one refresh per
// user at a time: in this process by a shared promise, across instances by the vault's lock (the others wait for
// the holder's result). invalid_grant (revoked, expired at the API) forgets it, so the user is asked again.
import { setTimeout as sleep } from "node:timers/promises";
import { type Client, tokenRequest } from "./token-endpoint.ts";
import type { Grant, Vault } from "./vault.ts";

const EARLY_MS = 60_000; // refreshed this long before it expires, unless the grant says when (renewAt)

export type Renewal = (user: string, grant: Grant, force: boolean) => Promise<Grant | undefined>;

export function renewal(vault: Vault, client: Client): Renewal {
  const running = new Map<string, Promise<Grant | undefined>>();

  /** The grant, refreshed if due (or `force`d after a 401); undefined once it is gone (invalid_grant, expired). */
  const fresh = (user: string, grant: Grant, force: boolean): Promise<Grant | undefined> => {
    const renewAt = grant.renewAt ?? (grant.expiresAt !== undefined ? grant.expiresAt - EARLY_MS : undefined);
    const due = force || (renewAt !== undefined && renewAt <= Date.now());
    if (!due) return Promise.resolve(grant);
    if (!grant.refresh) {
      if (!force && grant.expiresAt !== undefined && grant.expiresAt > Date.now()) return Promise.resolve(grant);
      return vault.forget(user).then(() => undefined);
    }
    let run = running.get(user);
    if (!run) {
      run = refresh(user, grant).finally(() => running.delete(user));
      running.set(user, run);
    }
    return run;
  };

  const refresh = async (user: string, stale: Grant): Promise<Grant | undefined> => {
    if (!(await vault.lock(user, 30_000))) return awaitOther(user, stale);
    try {
      const current = await vault.read(user); // another instance may have refreshed it just now
      if (!current || current.access !== stale.access) return current;
      const form = { grant_type: "refresh_token", refresh_token: stale.refresh as string };
      const answer = await tokenRequest(stale.tokenUrl, form, client, { scopes: stale.scopes, refresh: stale.refresh });
      if ("grant" in answer) {
        await vault.write(user, answer.grant);
        return answer.grant;
      }
      if (answer.error === "invalid_grant" || answer.error === "invalid_token") {
        await vault.forget(user); // revoked or expired at the API: the user signs in again
        return undefined;
      }
      throw new Error(`Refreshing your sign-in to the API failed (${answer.error}); try again later.`);
    } finally {
      await vault.unlock(user);
    }
  };

  /** Another instance holds the refresh: its result, once written (or the grant gone). */
  const awaitOther = async (user: string, stale: Grant) => {
    for (let waited = 0; waited < 15_000; waited += 100) {
      await sleep(100);
      const current = await vault.read(user);
      if (!current || current.access !== stale.access) return current;
    }
    throw new Error("Refreshing your sign-in to the API took too long; try again.");
  };

  return fresh;
}
