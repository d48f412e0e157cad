// Media types as RFC 9110 writes them (§8.3.1 Content-Type, §12.5.1 Accept): `type/subtype` tokens,
// compared case-insensitively, then `; name=value` parameters (value a token or a quoted string).
// Matching by substring would take `text/plain; x=application/json` for JSON; this parses instead.

export type MediaType = { type: string; subtype: string; params: Map<string, string> };

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^(${TOKEN})/(${TOKEN})[ \\t]*`);
const PARAMETER = new RegExp(`^;[ \\t]*(?:(${TOKEN})=(${TOKEN}|"(?:[^"\\\\]|\\\\.)*")[ \\t]*)?`);

/** Parses one media type (with optional parameters); undefined when it is not valid RFC 9110 syntax. */
export function parseMediaType(text: string): MediaType | undefined {
  const head = MEDIA_TYPE.exec(text.trim());
  if (!head) return undefined;
  const params = new Map<string, string>();
  let rest = text.trim().slice(head[0].length);
  while (rest !== "") {
    const param = PARAMETER.exec(rest);
    if (!param) return undefined;
    // An empty parameter (`;;`) is allowed by the grammar and means nothing.
    if (param[1] !== undefined) params.set(param[1].toLowerCase(), unquote(param[2]));
    rest = rest.slice(param[0].length);
  }
  return { type: head[1].toLowerCase(), subtype: head[2].toLowerCase(), params };
}

/** Whether a Content-Type value names exactly `essence` (e.g. "application/json"), whatever its parameters. */
export function isMediaType(value: string | undefined, essence: string): boolean {
  if (value === undefined) return false;
  const parsed = parseMediaType(value);
  return parsed !== undefined && `${parsed.type}/${parsed.subtype}` === essence;
}

/** Whether an Accept value lists `essence` itself (not only a wildcard) with a weight above zero. */
export function acceptsMediaType(accept: string | undefined, essence: string): boolean {
  if (accept === undefined) return false;
  for (const range of splitList(accept)) {
    const parsed = parseMediaType(range);
    if (!parsed || `${parsed.type}/${parsed.subtype}` !== essence) continue;
    const weight = parsed.params.get("q");
    if (weight === undefined || !/^0(?:\.0{0,3})?$/.test(weight)) return true;
  }
  return false;
}

/** Splits a comma-separated field value, leaving commas inside quoted strings alone. */
function splitList(value: string): string[] {
  const items: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const char = value[i];
    if (quoted && char === "\\") {
      current += char + (value[i + 1] ?? "");
      i++;
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === "," && !quoted) {
      items.push(current);
      current = "";
    } else current += char;
  }
  items.push(current);
  return items.map((item) => item.trim()).filter((item) => item !== "");
}

function unquote(value: string): string {
  return value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, "$1") : value;
}
