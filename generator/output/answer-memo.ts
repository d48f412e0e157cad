/**
 * Answers remembered by their exact question (issue 32), for work done per text many times over: the
 * README's Markdown (markdown-prose.ts parses each description with mdast, twice: GitHub's README was 3
 * of a warm generate's 6.5 s, for 13,700 texts of which 5,400 differ) and the token counts of each
 * tool's tools/list text (token-cost.ts: Microsoft Graph's 18M tokens take 11 s).
 *
 * While `withMemo` runs, each answer is kept by its kind, its question and the SHA-256 of its text; at
 * the end, the answers that run used are stored in the content cache under the package's name, for the
 * next run. A regenerate after one operation changed then re-does that operation's answers alone. A
 * stored answer is found only by its exact input, so an entry of another spec or of an older version of
 * this one is never wrong, only unused; the entry's name includes mcpgen's sources (content-cache.ts),
 * so another mcpgen never reads it.
 */
import { sha256 } from "../hash.ts";
import { contentCache } from "./content-cache.ts";

export type MemoKind = "prose" | "tokens";

type Memo = { used: Map<string, string>; stored: Map<string, string>; made: number };

const current = new Map<MemoKind, Memo>();

/** Runs `run` with every answer of `remember(kind, ...)` kept, and stores them for the next run named `name`. */
export function withMemo<T>(kind: MemoKind, name: string, run: () => T): T {
  const cache = contentCache(kind);
  const entry = `answers:${name}`;
  const memo: Memo = { used: new Map(), stored: storedAnswers(cache?.get(entry)), made: 0 };
  const outer = current.get(kind);
  current.set(kind, memo);
  try {
    const result = run();
    // Only what this run used: an entry never grows past one package's answers.
    if (cache && (memo.made > 0 || memo.used.size !== memo.stored.size))
      cache.set(entry, JSON.stringify([...memo.used]));
    return result;
  } finally {
    if (outer) current.set(kind, outer);
    else current.delete(kind);
  }
}

/**
 * `make()`'s answer to `question` about `text`: this run's, a stored one, or made now. `valid`: what an
 * answer of this question can be; a stored one that is not (a damaged entry) is made again.
 */
export function remember(
  kind: MemoKind,
  question: string,
  text: string,
  make: () => string,
  valid: (answer: string) => boolean = () => true,
): string {
  const memo = current.get(kind);
  if (memo === undefined) return make();
  const key = `${question}:${sha256(text)}`;
  const known = memo.used.get(key) ?? memo.stored.get(key);
  let answer = known !== undefined && valid(known) ? known : undefined;
  if (answer === undefined) {
    answer = make();
    memo.made++;
  }
  memo.used.set(key, answer);
  return answer;
}

/** The stored pairs, or none for an entry that is missing or not what this module writes. */
function storedAnswers(text: string | undefined): Map<string, string> {
  if (text === undefined) return new Map();
  try {
    const pairs: unknown = JSON.parse(text);
    if (
      Array.isArray(pairs) &&
      pairs.every((pair) => Array.isArray(pair) && typeof pair[0] === "string" && typeof pair[1] === "string")
    )
      return new Map(pairs as [string, string][]);
  } catch {
    // A damaged entry only costs the work again.
  }
  return new Map();
}
