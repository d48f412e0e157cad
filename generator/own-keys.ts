/**
 * Keys named by a spec (property, parameter, variable names) read and written without the prototype:
 * `record[name]` would find Object.prototype's `constructor` for a name the record lacks, and
 * `record[name] = value` with `__proto__` would replace the prototype instead of adding a key.
 * (runtime/own-keys.ts is the generated packages' twin: the runtime imports nothing from here.)
 */

/** The record's own value for `key`, or undefined: never one inherited through the prototype. */
export function ownValue<T>(record: { readonly [key: string]: T } | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Adds `key` as an own, enumerable data property, even when the key is `__proto__`. */
export function setOwn<T>(record: { [key: string]: T }, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Copies every own enumerable key of `source` onto `target` as data (Object.assign would run `__proto__`'s setter). */
export function assignOwn<T>(target: { [key: string]: T }, source: { readonly [key: string]: T }): void {
  for (const [key, value] of Object.entries(source)) setOwn(target, key, value);
}
