// Reading and writing keys that come from a spec or a client. `record[name]` would find
// Object.prototype's `constructor` or `toString` for a name the record does not hold, and
// `record[name] = value` with the name `__proto__` would replace the record's prototype instead of
// adding a key, so names from outside go through these two instead.

/** The record's own value for `key`, or undefined: never one inherited through the prototype. */
export function ownValue<T>(record: { readonly [key: string]: T } | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Adds `key` as an own, enumerable data property, even when the key is `__proto__`. */
export function setOwn<T>(record: { [key: string]: T }, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The JSON pointer of the first own `__proto__` key in a parsed JSON value, or undefined when none. */
export function protoKeyPointer(value: unknown, at = ""): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (!Array.isArray(value) && Object.hasOwn(value, "__proto__")) return `${at}/__proto__`;
  for (const [key, item] of Object.entries(value)) {
    const found = protoKeyPointer(item, `${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
    if (found) return found;
  }
  return undefined;
}
