/**
 * Regular expressions from vendor documents, made valid under the `u` flag (which ajv, and so every
 * generated validator, compiles patterns with). OpenAPI asks for ECMA-262 patterns, and most vendors
 * write them for ECMA-262 *without* `u`, where `\:` or `\-` outside a class is an "identity escape" that
 * matches the character itself; under `u` it is a syntax error. Writing such a character plainly
 * matches exactly the same strings and is valid under both. A pattern still invalid after that (a Java
 * class such as `\p{Print}`, `\A`, a quantifier written `{1-20}`) is given up: the caller drops it, which
 * only lets through values the upstream API will judge itself.
 */

// Characters that stay escaped under `u` (ECMA-262 SyntaxCharacter, plus `/`).
const SYNTAX = new Set([..."^$\\.*+?()[]{}|/"]);
const CLASS_ESCAPE = /^\\[dDwWsS]/;

export type PatternVerdict = { kind: "valid" } | { kind: "repaired"; pattern: string } | { kind: "invalid" };

export function checkPattern(pattern: string): PatternVerdict {
  if (compiles(pattern, "u")) return { kind: "valid" };
  // Only a pattern that means something without `u` can be rewritten to mean the same thing with it.
  if (!compiles(pattern, "")) return { kind: "invalid" };
  const rewritten = withoutNeedlessEscapes(pattern);
  return rewritten !== pattern && compiles(rewritten, "u")
    ? { kind: "repaired", pattern: rewritten }
    : { kind: "invalid" };
}

function compiles(pattern: string, flags: string): boolean {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
}

/**
 * `\:` → `:` for every escaped character that is neither a letter, a digit nor a syntax character; in a
 * class, also a `-` next to a class escape (`[\w-.]`, a literal `-` without `u`, an error with it) becomes
 * `\-`. Letters and digits are left alone: `\p`, `\A`, `\0` mean something else elsewhere, and guessing
 * would change which strings match.
 */
function withoutNeedlessEscapes(pattern: string): string {
  let out = "";
  let inClass = false;
  let lastWasClassEscape = false;
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i];
    if (c === "\\") {
      const next = pattern[i + 1] ?? "";
      const keep = /[A-Za-z0-9]/.test(next) || SYNTAX.has(next) || (inClass && next === "-") || next === "";
      out += keep ? c + next : next;
      lastWasClassEscape = inClass && CLASS_ESCAPE.test(c + next);
      i += 2;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      else if (c === "-" && (lastWasClassEscape || CLASS_ESCAPE.test(pattern.slice(i + 1)))) {
        out += "\\-";
        lastWasClassEscape = false;
        i++;
        continue;
      }
    } else if (c === "[") {
      inClass = true;
      out += c;
      i++;
      if (pattern[i] === "^") out += pattern[i++];
      lastWasClassEscape = false;
      continue;
    }
    lastWasClassEscape = false;
    out += c;
    i++;
  }
  return out;
}
