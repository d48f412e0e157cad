/**
 * Choosing which operations become tools: `--include`/`--exclude` selectors (or the config file's
 * lists) by tag, operationId, path glob and method. An operation is kept when no include is given or
 * one matches, and no exclude matches. `x-mcp: { exclude: true }` on an operation always drops it.
 */

export type Selector = { kind: "tag" | "operationId" | "path" | "method"; pattern: string };
export type OperationFacts = { operationId?: string; method: string; path: string; tags: string[] };

const KINDS: Record<string, Selector["kind"]> = {
  tag: "tag",
  op: "operationId",
  operationid: "operationId",
  path: "path",
  method: "method",
};

/** "tag:pets", "operationId:listPets", "path:/pets/**", "method:GET"; undefined when malformed. */
export function parseSelector(text: string): Selector | undefined {
  const colon = text.indexOf(":");
  if (colon <= 0) return undefined;
  const kind = KINDS[text.slice(0, colon).trim().toLowerCase()];
  const pattern = text.slice(colon + 1).trim();
  return kind && pattern ? { kind, pattern } : undefined;
}

export function selected(op: OperationFacts, include: Selector[], exclude: Selector[]): boolean {
  const hit = (s: Selector) => matches(s, op);
  return (include.length === 0 || include.some(hit)) && !exclude.some(hit);
}

function matches(selector: Selector, op: OperationFacts): boolean {
  switch (selector.kind) {
    case "tag":
      return op.tags.some((tag) => glob(selector.pattern, tag));
    case "operationId":
      return op.operationId !== undefined && glob(selector.pattern, op.operationId);
    case "method":
      return selector.pattern.toUpperCase() === op.method.toUpperCase();
    case "path":
      return glob(selector.pattern, op.path);
  }
}

/** `*` matches within one path segment, `**` across segments; everything else is literal. */
export function glob(pattern: string, text: string): boolean {
  const regex = pattern
    .split(/(\*\*|\*)/)
    .map((part) => (part === "**" ? ".*" : part === "*" ? "[^/]*" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${regex}$`).test(text);
}
