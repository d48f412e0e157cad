// The --session-store value: a Redis URL, checked before anything connects so that a typo is a usage
// error (exit 2) rather than a start-up failure, and shown without its password in every message.

export type StoreUrl = { url: string; display: string };

/** The URL, or why it is not one mcpgen can use. */
export function parseStoreUrl(text: string): StoreUrl | { error: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { error: `must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379/0, not '${redact(text)}'` };
  }
  const display = displayUrl(url);
  if (url.protocol !== "redis:" && url.protocol !== "rediss:")
    return { error: `must use redis:// (or rediss:// for TLS), not '${display}'` };
  if (!url.hostname) return { error: `names no host: '${display}'` };
  if (url.pathname !== "" && url.pathname !== "/" && !/^\/\d{1,2}$/.test(url.pathname))
    return { error: `database must be a number such as /0, not '${url.pathname.slice(1)}' in '${display}'` };
  return { url: text, display };
}

function displayUrl(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password) copy.password = "***";
  return copy.href;
}

/** A string that is not a URL may still hold a password after a colon; keep only what precedes '@'-free text. */
function redact(text: string): string {
  return text.includes("@") ? `***@${text.slice(text.lastIndexOf("@") + 1)}` : text;
}
