/**
 * The README's Markdown work remembered (issue 32). Parsing a description with mdast costs about a
 * millisecond a kilobyte, twice (markdown-prose.ts's re-parse is the safety proof): GitHub's README was
 * 3 of a warm generate's 6.5 s. Descriptions repeat (GitHub asks for 13,700 texts, 5,400 different),
 * and a regenerate asks for nearly the same texts again.
 *
 * So, while a README renders, each answer is kept by its exact input (what was asked, and the text);
 * at the end the answers this README used are stored in the content cache under the package's name,
 * for the next run to read. A stored answer is found only by its exact input, so an entry of another
 * spec or an older version of this one is never wrong, only unused; the entry's name includes mcpgen's
 * sources (content-cache.ts), so another mcpgen never reads it.
 */
import { contentCache } from "../output/content-cache.ts";

type Memo = { used: Map<string, string>; stored: Map<string, string>; made: number };

let current: Memo | undefined;

/** Runs `render` with every answer of `remember` kept, and stores them for the next run named `name`. */
export function withProseMemo<T>(name: string, render: () => T): T {
  const cache = contentCache("prose");
  const entry = `readme:${name}`;
  const memo: Memo = { used: new Map(), stored: storedAnswers(cache?.get(entry)), made: 0 };
  current = memo;
  try {
    const result = render();
    // Only what this README used: an entry never grows past one README's answers.
    if (cache && (memo.made > 0 || memo.used.size !== memo.stored.size))
      cache.set(entry, JSON.stringify([...memo.used]));
    return result;
  } finally {
    current = undefined;
  }
}

/** `make()`'s answer for `question` on `text`: this run's, a stored one, or made now. */
export function remember(question: string, text: string, make: () => string): string {
  const memo = current;
  if (memo === undefined) return make();
  const key = `${question}\0${text}`;
  let answer = memo.used.get(key) ?? memo.stored.get(key);
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
