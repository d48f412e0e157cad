// Redacting upstream credentials from everything an upstream answer puts in front of a client: status
// text, error and success bodies (text and structuredContent), redirect targets. An upstream may echo a
// credential in any form it was sent in, so each secret is searched raw, base64-encoded (basic auth),
// URL- and form-encoded (query keys, cookies) and JSON-escaped. The pattern is built once per upstream
// config and set of secret values, not per call.
import type { SecurityScheme } from "../package/catalog-types.ts";
import type { Redactor, UpstreamConfig } from "./types.ts";

export type { Redactor };

export const REDACTED = "[REDACTED]";
/** Shorter values are not searched: redacting every "a" or "42" would wreck answers and protect nothing. */
const MIN_SECRET = 4;

const identity: Redactor = Object.assign((text: string) => text, {
  none: true,
  value: (value: unknown) => value,
  cutEnd: (text: string) => text,
});

/** A secret as an upstream may echo it. */
function encodings(secret: string): string[] {
  const forms = [
    secret,
    Buffer.from(secret).toString("base64"),
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
  ];
  // basic credentials are `user:password`: the password alone is a secret too.
  const colon = secret.indexOf(":");
  if (colon >= 0 && secret.length - colon - 1 >= MIN_SECRET) forms.push(...encodings(secret.slice(colon + 1)));
  return forms;
}

export function redactorFor(secrets: Iterable<string>): Redactor {
  const values = [...new Set(secrets)].filter((s) => s.length >= MIN_SECRET);
  if (values.length === 0) return identity;
  // Longest first, so a form that contains another is replaced whole.
  const forms = [...new Set(values.flatMap(encodings))].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(forms.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
  const text = (input: string) => (input.length === 0 ? input : input.replace(pattern, REDACTED));
  const value = (input: unknown): unknown => {
    if (typeof input === "string") return text(input);
    if (Array.isArray(input)) return input.map(value);
    if (input !== null && typeof input === "object") {
      const copy: Record<string, unknown> = {};
      // defineProperty, not assignment: a key "__proto__" from JSON.parse stays an own property.
      for (const [key, item] of Object.entries(input)) {
        Object.defineProperty(copy, text(key), {
          value: value(item),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return copy;
    }
    return input;
  };
  const cutEnd = (input: string) => {
    for (const form of forms) {
      for (let k = Math.min(form.length - 1, input.length); k >= MIN_SECRET; k--) {
        if (input.endsWith(form.slice(0, k))) return input.slice(0, input.length - k) + REDACTED;
      }
    }
    return input;
  };
  return Object.assign(text, { none: false, value, cutEnd });
}

const envOf = (scheme: SecurityScheme) => (scheme.type === "oauth2" ? [scheme.clientSecretEnv] : [scheme.env]);

const cache = new WeakMap<UpstreamConfig, { key: string; redactor: Redactor }>();

/** Every credential the config names (not only the ones this call sends), read from the environment. */
export function configuredRedactor(upstream: UpstreamConfig, env: NodeJS.ProcessEnv, extra: string[] = []): Redactor {
  const names = (upstream.securitySchemes ?? []).flatMap(envOf);
  // An OAuth2 token (in `extra`) changes over time: it is part of the key, so a new one rebuilds the pattern.
  const values = [...new Set([...names.map((name) => env[name] ?? ""), ...extra])].filter((v) => v.length > 0);
  const key = values.join("\0");
  const cached = cache.get(upstream);
  if (cached && cached.key === key) return cached.redactor;
  const redactor = redactorFor(values);
  cache.set(upstream, { key, redactor });
  return redactor;
}
