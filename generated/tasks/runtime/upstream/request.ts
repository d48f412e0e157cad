// Building a binding's request: spec-language bindings send the arguments not in the path as the query (GET, HEAD,
// DELETE, OPTIONS) or a JSON body; OpenAPI ones list each parameter (`style`/`explode`) and the body's media type.
import type { HttpBinding, HttpBody, HttpParameter } from "../package/catalog-types.ts";
import { ownValue, setOwn } from "../protocol/codec.ts";
import type { Outgoing } from "./types.ts";

const BODYLESS = new Set(["GET", "HEAD", "DELETE", "OPTIONS"]);
type Args = Record<string, unknown>;

export function legacyRequest(base: string, method: string, binding: HttpBinding, args: Args): Outgoing {
  const rest = { ...args };
  const path = fillPath(binding.path, (name) => {
    const value = ownValue(rest, name);
    delete rest[name];
    checkPathValue(name, value);
    return encodeURIComponent(String(value ?? ""));
  });
  const url = urlInside(base, path);
  const out: Outgoing = { url, headers: { accept: ACCEPT }, cookies: [] };
  if (BODYLESS.has(method)) {
    for (const [name, value] of Object.entries(rest)) appendQuery(url, name, value);
  } else if (Object.keys(rest).length > 0) {
    out.headers["content-type"] = "application/json";
    out.body = JSON.stringify(rest);
  }
  return out;
}

const ACCEPT = "application/json, text/*;q=0.9, */*;q=0.8";

// C0 controls and DEL: encoded they would pass, but no path value needs them and servers decode them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

function hasControl(value: unknown): boolean {
  if (typeof value === "string") return CONTROL.test(value);
  if (Array.isArray(value)) return value.some(hasControl);
  if (value !== null && typeof value === "object")
    return Object.entries(value).some(([k, v]) => CONTROL.test(k) || hasControl(v));
  return false;
}

function checkPathValue(name: string, value: unknown): void {
  if (hasControl(value)) throw new Error(`path parameter '${name}' contains a control character; remove it`);
}

// Values are percent-encoded, so `/`, `?`, `#` and `%` stay inside their segment; a segment that comes out as `.`
// or `..` is refused: every URL parser (fetch's too, even for `%2E%2E`) would move the request to another path.
function fillPath(template: string, value: (name: string) => string): string {
  return template
    .split("/")
    .map((segment) => {
      const names = [...segment.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1]);
      const filled = segment.replace(/\{([^{}]+)\}/g, (_, name: string) => value(name));
      if (names.length > 0 && /^(\.|%2e){1,2}$/i.test(filled)) {
        const which = names.map((n) => `'${n}'`).join(", ");
        throw new Error(
          `path parameter ${which} makes the path segment '${filled}', which would leave its place in the path; use another value`,
        );
      }
      return filled;
    })
    .join("/");
}

function urlInside(base: string, path: string): URL {
  const root = new URL(base);
  const url = new URL(base.replace(/\/+$/, "") + path);
  const prefix = root.pathname.replace(/\/+$/, "");
  const inside = url.pathname === prefix || url.pathname.startsWith(`${prefix}/`) || prefix === "";
  if (url.origin !== root.origin || !inside)
    throw new Error(`the arguments make a request outside ${root.origin}${prefix}/; refused`);
  return url;
}

function appendQuery(url: URL, name: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) for (const item of value) appendQuery(url, name, item);
  else url.searchParams.append(name, typeof value === "object" ? JSON.stringify(value) : String(value));
}

const valueAt = (args: Args, path: string[]) =>
  path.reduce<unknown>(
    (at, step) => (at !== null && typeof at === "object" ? ownValue(at as Args, step) : undefined),
    args,
  );

export function explicitRequest(base: string, binding: HttpBinding, args: Args): Outgoing {
  const params = binding.parameters ?? [];
  const byName = new Map(params.filter((p) => p.in === "path").map((p) => [p.name, p]));
  const path = fillPath(binding.path, (name) => {
    const p = byName.get(name);
    const value = p ? valueAt(args, p.arg ?? [name]) : undefined;
    checkPathValue(name, value);
    return p && value !== undefined && value !== null ? pathValue(p, value) : "";
  });
  const query: string[] = [];
  const out: Outgoing = { url: urlInside(base, path), headers: { accept: ACCEPT }, cookies: [] };
  for (const p of params) {
    const value = valueAt(args, p.arg ?? [p.name]);
    if (value === undefined || value === null || p.in === "path") continue;
    const json = p.json ? JSON.stringify(value) : undefined;
    if (p.in === "query") query.push(...queryPairs(p, value));
    else if (p.in === "header")
      setOwn(out.headers, p.name.toLowerCase(), json ?? delimited(value, ",", p.explode === true));
    // Each value percent-encoded (a subset of RFC 6265 cookie-octets): a `;` cannot start another cookie.
    else out.cookies.push(`${p.name}=${json !== undefined ? enc(json) : delimited(value, ",", false, enc)}`);
  }
  if (query.length > 0) out.url.search = (out.url.search ? `${out.url.search}&` : "?") + query.join("&");
  if (binding.body) encodeBody(binding.body, args, out);
  return out;
}

const enc = (value: unknown) => encodeURIComponent(scalar(value));
const scalar = (value: unknown) =>
  typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);

/** Array items or object entries joined by `sep`; objects as k=v pairs when exploded, else k,v. */
function delimited(value: unknown, sep: string, explode: boolean, encode = scalar): string {
  if (Array.isArray(value)) return value.map(encode).join(sep);
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined && v !== null);
    return entries.map(([k, v]) => `${encode(k)}${explode ? "=" : ","}${encode(v)}`).join(sep);
  }
  return encode(value);
}

/** OpenAPI path styles: simple (default) `a,b`, label `.a.b`, matrix `;id=a,b`. */
function pathValue(p: HttpParameter, value: unknown): string {
  const explode = p.explode === true;
  if (p.json) return enc(JSON.stringify(value));
  if (p.style === "label") return `.${delimited(value, explode ? "." : ",", explode, enc)}`;
  if (p.style === "matrix") {
    const name = encodeURIComponent(p.name);
    if (explode && Array.isArray(value)) return value.map((v) => `;${name}=${enc(v)}`).join("");
    if (explode && typeof value === "object") return `;${delimited(value, ";", true, enc)}`;
    return `;${name}=${delimited(value, ",", false, enc)}`;
  }
  return delimited(value, ",", explode, enc);
}

/** OpenAPI query styles: form (default, explode true), spaceDelimited, pipeDelimited, deepObject. */
function queryPairs(p: HttpParameter, value: unknown): string[] {
  const name = encodeURIComponent(p.name);
  const encode = p.allowReserved ? (v: unknown) => encodeURI(scalar(v)) : enc;
  if (p.json) return [`${name}=${enc(JSON.stringify(value))}`];
  const style = p.style ?? "form";
  const explode = p.explode ?? style === "form";
  if (Array.isArray(value)) {
    if (explode) return value.map((v) => `${name}=${encode(v)}`);
    const sep = style === "spaceDelimited" ? "%20" : style === "pipeDelimited" ? "|" : ",";
    return [`${name}=${value.map(encode).join(sep)}`];
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined && v !== null);
    if (style === "deepObject") return entries.map(([k, v]) => `${name}%5B${encodeURIComponent(k)}%5D=${encode(v)}`);
    if (explode) return entries.map(([k, v]) => `${encodeURIComponent(k)}=${encode(v)}`);
  }
  return [`${name}=${delimited(value, ",", false, encode)}`];
}

function encodeBody(body: HttpBody, args: Args, out: Outgoing): void {
  // Object.fromEntries defines own properties: an argument named `__proto__` stays data.
  const picked = (body.properties ?? []).map((name) => [name, ownValue(args, name)]);
  const value =
    body.arg !== undefined ? ownValue(args, body.arg) : Object.fromEntries(picked.filter(([, v]) => v !== undefined));
  if (value === undefined) return;
  const type = body.contentType;
  if (/^application\/x-www-form-urlencoded\b/i.test(type)) {
    const form = new URLSearchParams();
    forEachField(value, (name, field) => form.append(name, scalar(field)));
    out.body = form;
  } else if (/^multipart\/form-data\b/i.test(type)) {
    const form = new FormData();
    forEachField(value, (name, field) => {
      if (typeof field === "object" && field !== null)
        form.append(name, new Blob([JSON.stringify(field)], { type: "application/json" }));
      else form.append(name, String(field));
    });
    out.body = form; // fetch sets the content type with its boundary
  } else {
    out.headers["content-type"] = type;
    out.body = typeof value === "string" && !/json/i.test(type) ? value : JSON.stringify(value);
  }
}

/** Top-level fields of a form body; array fields repeat their name. */
function forEachField(value: unknown, add: (name: string, field: unknown) => void): void {
  if (value === null || typeof value !== "object") return;
  for (const [name, field] of Object.entries(value)) {
    if (field === undefined || field === null) continue;
    if (Array.isArray(field)) for (const item of field) add(name, item);
    else add(name, field);
  }
}
