/** Walking a bundled OpenAPI document: local JSON pointers and `$ref` chains of non-schema objects. */

export type Json = { [key: string]: unknown };

export function isJson(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The value a local `$ref` ("#/components/schemas/Pet") points at, or undefined. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  const path = ref.slice(1);
  if (path === "") return root;
  let current: unknown = root;
  for (const raw of path.replace(/^\//, "").split("/")) {
    const token = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(current)) current = current[Number(token)];
    else if (isJson(current) && Object.hasOwn(current, token)) current = current[token];
    else return undefined;
  }
  return current;
}

/** Follows `$ref`s (a parameter, a request body, a response...) to the object itself; bounded, so a ref loop ends. */
export function deref(root: unknown, value: unknown): Json | undefined {
  let current = value;
  for (let hops = 0; hops < 32; hops++) {
    if (!isJson(current)) return undefined;
    if (typeof current.$ref !== "string") return current;
    current = resolvePointer(root, current.$ref);
  }
  return undefined;
}

// TRACE is left out: it echoes the request back, which is no use as a tool and a risk with credentials.
export const METHODS = ["get", "put", "post", "delete", "options", "head", "patch"] as const;

/** RFC 6901 escaping of one pointer token. */
export function token(text: string): string {
  return text.replace(/~/g, "~0").replace(/\//g, "~1");
}

export type RefScan = { external: boolean; missing: Array<{ pointer: string; ref: string }> };

/**
 * Every `$ref` of a document, walked without recursion (a hostile document may nest deeply): whether
 * any points outside the file (then the parser must bundle), and the local ones whose target is missing.
 */
export function scanRefs(root: unknown): RefScan {
  const result: RefScan = { external: false, missing: [] };
  const stack: Array<[unknown, string]> = [[root, ""]];
  while (stack.length > 0) {
    const [node, pointer] = stack.pop()!;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) stack.push([node[i], `${pointer}/${i}`]);
    } else if (isJson(node)) {
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && typeof value === "string") {
          if (!value.startsWith("#")) result.external = true;
          else if (resolvePointer(root, value) === undefined)
            result.missing.push({ pointer: `${pointer}/$ref`, ref: value });
        } else if (typeof value === "object" && value !== null) stack.push([value, `${pointer}/${token(key)}`]);
      }
    }
  }
  return result;
}
