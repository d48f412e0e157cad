// A query an agent writes ("who am I logged in as", "make my own copy of someone else's repository")
// rarely uses an API's own words. Before ranking, each query word also brings the words an API would use
// for it: general English and REST vocabulary only (copy → fork/clone, remove → delete, my → the
// authenticated user; search-synonyms.ts), never an entry written for one API or one query. Added words weigh
// less than the query's own, so a query that already names the right term is not drowned by its synonyms;
// but a word the API never names in its tools' names or titles hands its synonyms its full weight.
import { PHRASES, SYNONYMS } from "./search-synonyms.ts";
import { splitWords, termOf } from "./search-text.ts";

/**
 * The words of a query that count: a task in plain words is a sentence, and each word costs a look-up, so
 * an agent (or anyone reaching search_tools) sending megabytes cannot make one search take long.
 */
export const QUERY_WORDS = 64;

/** The weight of a word a query brings by synonym, against 1 for the query's own words. */
export const SYNONYM_WEIGHT = 0.6;

/** Synonyms by stem as well, so "visitors" finds what "visitor" would and "pushed" what "push" would. */
const SYNONYMS_BY_STEM = new Map<string, string>();
for (const [word, extra] of Object.entries(SYNONYMS)) {
  const stem = termOf(word);
  if (stem !== undefined) SYNONYMS_BY_STEM.set(stem, `${SYNONYMS_BY_STEM.get(stem) ?? ""} ${extra}`.trim());
}

/** The synonyms of a word as written, else of its stem. */
function synonymsOf(word: string, stem: string | undefined): string[] {
  const extra = Object.hasOwn(SYNONYMS, word) ? SYNONYMS[word] : stem && SYNONYMS_BY_STEM.get(stem);
  return extra ? extra.split(" ") : [];
}

/** Each phrase's words, and the words it stands for. */
const PHRASE_WORDS = Object.entries(PHRASES).map(([phrase, meaning]) => [phrase.split(" "), meaning] as const);

/** The words of a query with each phrase replaced by its meaning. */
function rephrased(words: string[]): string[] {
  const out: string[] = [];
  for (let at = 0; at < words.length; ) {
    const phrase = PHRASE_WORDS.find(([parts]) => parts.every((part, n) => words[at + n] === part));
    if (phrase) {
      out.push(...phrase[1].split(" "));
      at += phrase[0].length;
    } else out.push(words[at++]);
  }
  return out;
}

/**
 * A query ready to rank: its terms, each at its highest weight, and its concepts: per word of the query,
 * the terms that stand for it (the word's own stem and its synonyms) with their weights. A tool that
 * matches more of the query's concepts ranks higher; matching two synonyms of one word counts once.
 */
export type ParsedQuery = { terms: Map<string, number>; concepts: Array<Map<string, number>> };

/**
 * `named` says whether the API names a term in its tools' names or titles: a word it does not use ("copy"
 * where the API says "fork") passes its full weight to its synonyms, the only way to find what it means.
 */
export function parseQuery(query: string, named: (term: string) => boolean = () => true): ParsedQuery {
  const terms = new Map<string, number>();
  const concepts: Array<Map<string, number>> = [];
  for (const word of rephrased(splitWords(query.slice(0, QUERY_WORDS * 32)).slice(0, QUERY_WORDS))) {
    // A number in a query is a value ("issue 57"), not a word any tool is described with.
    if (/^\d+$/.test(word)) continue;
    const concept = new Map<string, number>();
    const own = termOf(word);
    if (own !== undefined) concept.set(own, 1);
    const weight = own !== undefined && !named(own) ? 1 : SYNONYM_WEIGHT;
    for (const synonym of synonymsOf(word, own)) {
      const term = termOf(synonym);
      if (term !== undefined && !concept.has(term)) concept.set(term, weight);
    }
    if (concept.size === 0) continue;
    concepts.push(concept);
    for (const [term, w] of concept) terms.set(term, Math.max(terms.get(term) ?? 0, w));
  }
  return { terms, concepts };
}

/** A question ("who is assigned...", "what changed...", "is carol an admin...") asks for a read. */
const QUESTION = /^(who|whom|whose|what|whats|which|when|where|how|is|are|am|does|do|did|has|have|can|was|were)\b/;

/** Whether the query is a question, which a read answers (its first word, apostrophes dropped). */
export function isQuestion(query: string): boolean {
  return QUESTION.test(
    query
      .trimStart()
      .slice(0, 16)
      .toLowerCase()
      .replace(/['\u2019]/g, ""),
  );
}

/** How much of the query a tool that matched `matched` covers: each concept counts by its best matched term. */
export function coverage(query: ParsedQuery, matched: readonly string[]): number {
  let sum = 0;
  for (const concept of query.concepts) {
    let best = 0;
    for (const term of matched) best = Math.max(best, concept.get(term) ?? 0);
    sum += best;
  }
  return sum;
}
