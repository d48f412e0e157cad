// What a tool's schemas tell search beyond its name and description: the names and descriptions of the
// fields its answer holds ("who is assigned" is answered by the read whose answer has `assignee`), the
// enum values its arguments take (a status "suspended", a link type "Duplicate"), and its arguments'
// descriptions. Walked to a bounded depth, local `$ref`s followed once each, so a recursive or huge schema
// costs little.
type Schema = { [key: string]: unknown };

const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The words a schema holds, by kind. */
export type SchemaWords = { names: string[]; descriptions: string[]; values: string[] };

/** `$ref` "#/$defs/x" (or "#/definitions/x") inside `root`, else undefined. */
function resolve(root: Schema, ref: string): Schema | undefined {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  const defs = root[match[1]];
  const target = isSchema(defs)
    ? defs[decodeURIComponent(match[2]).replaceAll("~1", "/").replaceAll("~0", "~")]
    : undefined;
  return isSchema(target) ? target : undefined;
}

/**
 * The property names, descriptions and enum values of `schema`, down to `depth` levels of nested objects
 * (an array's items count as the array itself: a list's fields are its items' fields).
 */
export function schemaWords(schema: unknown, depth: number): SchemaWords {
  const words: SchemaWords = { names: [], descriptions: [], values: [] };
  if (!isSchema(schema)) return words;
  const seen = new Set<Schema>();
  const visit = (node: unknown, level: number): void => {
    if (!isSchema(node) || seen.has(node) || seen.size > 2000) return;
    seen.add(node);
    if (typeof node.$ref === "string") visit(resolve(schema, node.$ref), level);
    if (Array.isArray(node.enum))
      for (const value of node.enum) if (typeof value === "string") words.values.push(value);
    for (const key of ["allOf", "anyOf", "oneOf"]) {
      const parts = node[key];
      if (Array.isArray(parts)) for (const part of parts) visit(part, level);
    }
    visit(node.items, level);
    const properties = node.properties;
    if (!isSchema(properties) || level >= depth) return;
    for (const [name, property] of Object.entries(properties)) {
      if (name.startsWith("_")) continue; // the runtime's own arguments (_fields), not the API's
      words.names.push(name);
      if (isSchema(property) && typeof property.description === "string") words.descriptions.push(property.description);
      visit(property, level + 1);
    }
  };
  visit(schema, 0);
  return words;
}
