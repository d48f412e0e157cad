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

/**
 * The JSON pointer of the first own `__proto__` key in a parsed JSON value, or undefined when none.
 * Iterative: arguments may nest 100,000 deep, and the validator, not this scan, decides about depth.
 */
export function protoKeyPointer(root: unknown): string | undefined {
  if (root === null || typeof root !== "object") return undefined;
  type Entry = { value: object; key: string; parent?: Entry };
  const stack: Entry[] = [{ value: root, key: "" }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (!Array.isArray(entry.value) && Object.hasOwn(entry.value, "__proto__")) {
      // The pointer is built only for the key found: building one per level would be quadratic.
      const keys = ["__proto__"];
      for (let e: Entry | undefined = entry; e?.parent; e = e.parent) keys.unshift(e.key);
      return keys.map((key) => `/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
    }
    for (const key in entry.value) {
      const item = (entry.value as Record<string, unknown>)[key];
      if (item !== null && typeof item === "object") stack.push({ value: item, key, parent: entry });
    }
  }
  return undefined;
}
