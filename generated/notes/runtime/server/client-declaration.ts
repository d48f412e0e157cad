// What a 2025-era session keeps of `initialize`, bounded (sessions are capped by count, not bytes): clientInfo
// is cut to its schema's fields (it only informs); capabilities decide what the server may ask, so they are
// kept whole or refused, never silently cut.
import { isObject } from "../protocol/codec.ts";
import type { Icon, Implementation } from "../protocol/types.ts";

export const MAX_CLIENT_NAME_CHARS = 256; // name, version and title, each
/** description, websiteUrl and an icon's src, each (a longer URL is dropped: a cut one would be wrong). */
export const MAX_CLIENT_TEXT_CHARS = 1_024;
export const MAX_CLIENT_ICONS = 3;
export const MAX_CAPABILITIES_CHARS = 4_096; // capabilities larger than this, as JSON, fail initialize (-32602)

/** The clientInfo a session keeps: known fields only, strings cut, copied out of the request body. */
export function keptClientInfo(value: unknown): Implementation | undefined {
  if (!isObject(value)) return undefined;
  const info: Implementation = {
    name: cut(value.name, MAX_CLIENT_NAME_CHARS) ?? "",
    version: cut(value.version, MAX_CLIENT_NAME_CHARS) ?? "",
  };
  const title = cut(value.title, MAX_CLIENT_NAME_CHARS);
  if (title !== undefined) info.title = title;
  const description = cut(value.description, MAX_CLIENT_TEXT_CHARS);
  if (description !== undefined) info.description = description;
  const websiteUrl = whole(value.websiteUrl, MAX_CLIENT_TEXT_CHARS);
  if (websiteUrl !== undefined) info.websiteUrl = websiteUrl;
  const icons = Array.isArray(value.icons) ? keptIcons(value.icons) : [];
  if (icons.length > 0) info.icons = icons;
  return info;
}

/** Whether the capabilities, as JSON, exceed MAX_CAPABILITIES_CHARS; measured without serializing them
 * (no recursion, stops at the limit), so a deep or huge object costs no more than the limit. */
export function capabilitiesTooLarge(value: unknown): boolean {
  let size = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") size += item.length + 2;
    else if (Array.isArray(item)) {
      size += 2 + item.length;
      if (size > MAX_CAPABILITIES_CHARS) return true;
      for (const entry of item) pending.push(entry);
    } else if (isObject(item)) {
      size += 2;
      for (const key in item) {
        size += key.length + 4;
        if (size > MAX_CAPABILITIES_CHARS) return true;
        pending.push(item[key]);
      }
    } else size += String(item).length;
    if (size > MAX_CAPABILITIES_CHARS) return true;
  }
  return false;
}

function keptIcons(icons: unknown[]): Icon[] {
  const kept: Icon[] = [];
  for (const icon of icons.slice(0, MAX_CLIENT_ICONS * 4)) {
    if (kept.length === MAX_CLIENT_ICONS) break;
    if (!isObject(icon)) continue;
    const src = whole(icon.src, MAX_CLIENT_TEXT_CHARS);
    if (src === undefined) continue;
    const entry: Icon = { src };
    const mimeType = whole(icon.mimeType, 100);
    if (mimeType !== undefined) entry.mimeType = mimeType;
    if (Array.isArray(icon.sizes)) {
      const sizes = icon.sizes.slice(0, 4).flatMap((size) => whole(size, 32) ?? []);
      if (sizes.length > 0) entry.sizes = sizes;
    }
    if (icon.theme === "light" || icon.theme === "dark") entry.theme = icon.theme;
    kept.push(entry);
  }
  return kept;
}

/** A string cut at `max` characters, as a fresh copy: V8 keeps a slice of a long string as a view of the
 * whole one, which would keep the 4 MiB body's string alive for as long as the session. */
function cut(value: unknown, max: number): string | undefined {
  if (typeof value !== "string") return undefined;
  let text = value.length > max ? value.slice(0, max) : value;
  if (/[\uD800-\uDBFF]$/.test(text)) text = text.slice(0, -1); // half a surrogate pair left by the cut
  return Buffer.from(text, "utf8").toString("utf8");
}

/** A string kept only whole (URLs, media types): undefined when longer than `max`. */
function whole(value: unknown, max: number): string | undefined {
  return typeof value === "string" && value.length <= max ? value : undefined;
}
