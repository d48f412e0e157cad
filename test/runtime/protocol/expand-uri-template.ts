// RFC 6570 expansion, the inverse of the runtime's matcher (protocol/uri-template-match.ts): the round-trip tests
// expand values into a URI and check the matcher reads the same values back. Servers only ever match URIs, so the
// runtime carries no expander.
import { parseUriTemplate, RULES } from "../../../runtime/protocol/uri-template.ts";

export function expandUriTemplate(template: string, values: Record<string, string | undefined>): string {
  let uri = "";
  for (const part of parseUriTemplate(template).parts) {
    if (typeof part === "string") {
      uri += part;
      continue;
    }
    const rule = RULES[part.operator];
    const pieces: string[] = [];
    for (const { name, prefix } of part.variables) {
      const raw = Object.hasOwn(values, name) ? values[name] : undefined;
      if (raw === undefined) continue;
      const value = encode(prefix === undefined ? raw : [...raw].slice(0, prefix).join(""), rule.reserved);
      if (!rule.named) pieces.push(value);
      else pieces.push(value === "" ? `${name}${rule.ifEmpty}` : `${name}=${value}`);
    }
    if (pieces.length > 0) uri += rule.first + pieces.join(rule.separator);
  }
  return uri;
}

// For + and #: the escapes of reserved characters, and of a '%' that starts a '%XX' the value holds.
const RESERVED_ESCAPE = /%25([0-9A-Fa-f]{2})|%(?:2[1346-9A-CF]|3[ABDF]|40|5[BD])/g;

function encode(value: string, allowReserved: boolean): string {
  // Buffer makes a lone surrogate U+FFFD (as a UTF-8 decoder would); encodeURIComponent would throw.
  const escaped = encodeURIComponent(Buffer.from(value).toString()).replace(/[!'()*]/g, percentEscape);
  if (!allowReserved) return escaped;
  return escaped.replace(RESERVED_ESCAPE, (match, pct) => (pct ? `%${pct}` : decodeURIComponent(match)));
}

const percentEscape = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
