/**
 * Toolset names (issue 14 §1): what `--toolsets a,b` and MCP_TOOLSETS take, so they must survive a
 * command line and an environment variable unquoted. The rule: 1-64 characters of lowercase a-z, 0-9,
 * `_` and `-`, starting with a letter or digit; `all` is reserved (it means every toolset). OpenAPI tags
 * are made to fit (`toolsetName`); a spec-language `toolset:` or a config target that breaks the rule is
 * an error (rules/toolsets.ts, config/check-config.ts).
 */

export const DEFAULT_TOOLSET = "default";
/** Means every toolset on the command line, so no toolset may be called so. */
export const RESERVED_TOOLSET = "all";
export const TOOLSET_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** What is wrong with a toolset name as written, or undefined when it is a valid one. */
export function toolsetNameProblem(name: string): string | undefined {
  if (name === RESERVED_TOOLSET) return `is reserved: '${RESERVED_TOOLSET}' means every toolset`;
  if (TOOLSET_NAME.test(name)) return undefined;
  if (name.length === 0) return "is empty";
  if (name.length > 64) return `has ${name.length} characters (at most 64)`;
  return "must be lowercase letters, digits, '_' and '-', starting with a letter or digit";
}

/**
 * An OpenAPI tag or path segment as a toolset name: lowercase, every run of other characters one `-`,
 * no `-` or `_` at either end, at most 64 characters; `default` when nothing is left, `all-tag` for `all`.
 */
export function toolsetName(raw: string): string {
  const name = raw
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[-_]+|[-_]+$/g, "")
    .slice(0, 64)
    .replace(/[-_]+$/, "");
  if (name === "") return DEFAULT_TOOLSET;
  return name === RESERVED_TOOLSET ? `${RESERVED_TOOLSET}-tag` : name;
}

/** Path segments that say which version or mount of an API this is, not what an operation is about. */
const PREFIX_SEGMENT = /^(v\d+(\.\d+)*|api|rest)$/i;

/**
 * An operation's toolset: its first tag, else the first literal segment of its path after any version or
 * `api` prefix (Stripe's `/v1/customers` is `customers`: every operation under one `v1` would be no
 * grouping at all), else `default`.
 */
export function operationToolset(tags: readonly string[], path: string): string {
  const tag = tags.find((t) => t.trim() !== "");
  if (tag !== undefined) return toolsetName(tag);
  const segments = path.split("/").filter((segment) => segment !== "");
  const first = segments.find((segment) => !PREFIX_SEGMENT.test(segment));
  return first === undefined || first.includes("{") ? DEFAULT_TOOLSET : toolsetName(first);
}
