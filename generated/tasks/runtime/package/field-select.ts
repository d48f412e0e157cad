// The `_fields` argument of http tools with JSON answers (generator/normalize/fields-argument.ts declares
// it): only the named fields of the answer are returned. Paths are dotted from the answer's root, and
// arrays are transparent: `user.login` on a list of issues keeps each issue's `user.login`.

import { ownValue, setOwn } from "../protocol/own-keys.ts";

/** The argument's name; a tool with a real argument of this name keeps its own and gets no selection. */
export const FIELDS_ARGUMENT = "_fields";

type FieldTree = { [key: string]: FieldTree | true };

/** Dotted paths as a tree; a path that names a whole field wins over longer paths inside it. */
function fieldTree(paths: readonly string[]): FieldTree {
  const tree: FieldTree = {};
  for (const path of paths) {
    const keys = path.split(".").filter((key) => key !== "");
    let node = tree;
    keys.forEach((key, index) => {
      const last = index === keys.length - 1;
      const existing = ownValue(node, key);
      if (existing === true) return;
      if (last) setOwn(node, key, true);
      else {
        const child = existing ?? {};
        setOwn(node, key, child);
        node = child;
      }
    });
  }
  return tree;
}

function select(value: unknown, tree: FieldTree): unknown {
  if (Array.isArray(value)) return value.map((item) => select(item, tree));
  if (value === null || typeof value !== "object") return value; // `user.login` where user is null: null
  const picked: Record<string, unknown> = {};
  // In the answer's own order, own keys only (a field named `__proto__` is data, not a prototype).
  for (const key of Object.keys(value)) {
    const wanted = ownValue(tree, key);
    if (wanted === undefined) continue;
    const field = (value as Record<string, unknown>)[key];
    setOwn(picked, key, wanted === true ? field : select(field, wanted));
  }
  return picked;
}

/** Only the fields `paths` name, through arrays and nested objects. */
export function selectFields(value: unknown, paths: readonly string[]): unknown {
  return select(value, fieldTree(paths));
}

/** Splits `_fields` off the arguments: it is for this server, never sent upstream. */
export function takeFields(args: Record<string, unknown>): { args: Record<string, unknown>; fields?: string[] } {
  if (!Object.hasOwn(args, FIELDS_ARGUMENT)) return { args };
  const { [FIELDS_ARGUMENT]: fields, ...rest } = args;
  const paths = Array.isArray(fields) ? fields.filter((f): f is string => typeof f === "string") : [];
  return paths.length > 0 ? { args: rest, fields: paths } : { args: rest };
}
