// "Did you mean" for the names a user or an agent types at a generated server (--toolsets, call_tool):
// the closest known names by edit distance, when they are close enough to be a typo. The runtime's own
// copy, because a generated package carries no generator code.

/** Known names within about one typo per three characters of `word`, closest first, at most `limit`. */
export function closeMatches(word: string, candidates: Iterable<string>, limit = 3): string[] {
  const typed = word.toLowerCase();
  const budget = Math.max(1, Math.floor(typed.length / 3));
  const scored: Array<{ name: string; distance: number }> = [];
  for (const name of candidates) {
    const distance = editDistance(typed, name.toLowerCase(), budget);
    if (distance <= budget) scored.push({ name, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name));
  return scored.slice(0, limit).map((entry) => entry.name);
}

/** Levenshtein distance, giving up (returning more than `budget`) as soon as it cannot stay within it:
 * GitHub has 1,000+ tool names to compare against. */
function editDistance(a: string, b: string, budget: number): number {
  if (Math.abs(a.length - b.length) > budget) return budget + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      best = Math.min(best, current[j]);
    }
    if (best > budget) return budget + 1;
    previous = current;
  }
  return previous[b.length];
}

/** " (did you mean 'x' or 'y'?)", or nothing. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const close = closeMatches(word, candidates);
  return close.length === 0 ? "" : ` (did you mean ${close.map((name) => `'${name}'`).join(" or ")}?)`;
}
