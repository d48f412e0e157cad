/**
 * `x-mcp-header` exactly as 2026-07-28 basic/transports/streamable-http.mdx ("Schema Extension") says.
 * Clients must drop a tool whose annotations break these rules, so each is an error here.
 */
import { walkSchema } from "../schema/walk.ts";
import type { Rule } from "./rule.ts";

// RFC 9110 §5.6.2: tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this detects
const CONTROL = /[\u0000-\u001f\u007f]/;
const SENSITIVE =
  /pass(word|wd|phrase)?|secret|token|api[-_]?key|auth|cookie|session|credential|private[-_]?key|ssn|social[-_]?security/i;
const HEADER_TYPES = new Set(["integer", "string", "boolean"]);
const SAFE = Number.MAX_SAFE_INTEGER;

export const headerRules: Rule = (server, report) => {
  for (const tool of server.tools) {
    const base = `${tool.loc.pointer}/inputSchema`;
    const seen = new Map<string, string>();
    walkSchema(tool.inputSchema, (schema, chain, pointer) => {
      if (!Object.hasOwn(schema, "x-mcp-header")) return;
      const value = schema["x-mcp-header"];
      const at = `${base}${pointer}/x-mcp-header`;
      const property = chain.map((step) => step[1] ?? step[0]).join(".");
      const said = (text: string) => `tool '${tool.name}', property '${property}': ${text}`;

      const offPath = chain.find(([keyword]) => keyword !== "properties");
      if (chain.length === 0 || offPath) {
        const where = chain.length === 0 ? "on the schema root" : `under '${offPath![0]}'`;
        report("HEADER_PLACEMENT", at, said(`x-mcp-header is ${where}`));
        return;
      }
      if (typeof value !== "string")
        return report("HEADER_NOT_STRING", at, said(`x-mcp-header is ${JSON.stringify(value)}`));
      if (value === "") return report("HEADER_EMPTY", at, said("x-mcp-header is empty"));
      if (CONTROL.test(value))
        return report("HEADER_CONTROL_CHAR", at, said(`x-mcp-header ${JSON.stringify(value)} has control characters`));
      if (!TOKEN.test(value))
        return report("HEADER_NOT_TOKEN", at, said(`x-mcp-header '${value}' is not an HTTP token`));

      const type = schema.type;
      if (typeof type !== "string" || !HEADER_TYPES.has(type)) {
        const found = type === undefined ? "has no type" : `has type ${JSON.stringify(type)}`;
        report("HEADER_TYPE", at, said(`x-mcp-header '${value}' is on a property that ${found}`));
      } else if (type === "integer" && outsideSafeRange(schema)) {
        report("HEADER_INTEGER_RANGE", at, said(`x-mcp-header '${value}' is on an integer bounded outside ±(2^53-1)`));
      } else if (type === "integer" && !bounded(schema)) {
        const missing = lowerBound(schema) === undefined ? "minimum" : "maximum";
        report(
          "HEADER_INTEGER_UNBOUNDED",
          at,
          said(`x-mcp-header '${value}' is on an integer with no ${missing}, so it may leave ±(2^53-1)`),
        );
      }

      const first = seen.get(value.toLowerCase());
      if (first) report("HEADER_DUPLICATE", at, said(`x-mcp-header '${value}' is also used by property '${first}'`));
      else seen.set(value.toLowerCase(), property);

      const name = chain.at(-1)?.[1] ?? "";
      if (SENSITIVE.test(name) || SENSITIVE.test(value)) {
        report("HEADER_SENSITIVE", at, said(`mirrors a sensitive-looking value into header Mcp-Param-${value}`));
      }
    });
  }
};

function outsideSafeRange(schema: { [key: string]: unknown }): boolean {
  const bounds = [schema.minimum, schema.maximum, schema.exclusiveMinimum, schema.exclusiveMaximum];
  return bounds.some((b) => typeof b === "number" && Math.abs(b) > SAFE);
}

const lowerBound = (schema: { [key: string]: unknown }) =>
  [schema.minimum, schema.exclusiveMinimum].find((b) => typeof b === "number");
const upperBound = (schema: { [key: string]: unknown }) =>
  [schema.maximum, schema.exclusiveMaximum].find((b) => typeof b === "number");

/** Both ends bounded (inside the safe range: outsideSafeRange is checked first); an enum or const is bounded too. */
function bounded(schema: { [key: string]: unknown }): boolean {
  if (Array.isArray(schema.enum) || Object.hasOwn(schema, "const")) return true;
  return lowerBound(schema) !== undefined && upperBound(schema) !== undefined;
}
