// A query an agent writes ("who am I logged in as", "make my own copy of someone else's repository")
// rarely uses an API's own words. Before ranking, each query word also brings the words an API would use
// for it: general English and REST vocabulary only (copy → fork/clone, remove → delete, my → the
// authenticated user), never an entry written for one API or one query. Added words weigh less than the
// query's own, so a query that already names the right term is not drowned by its synonyms.
import { splitWords, termOf } from "./search-text.ts";

/** The weight of a word a query brings by synonym, against 1 for the query's own words. */
export const SYNONYM_WEIGHT = 0.4;

/** Word → words an API uses for the same thing. Keys are lower-case words as written, not stems. */
const SYNONYMS: Readonly<Record<string, string>> = {
  // The caller: APIs say "authenticated user", "current user", "self", "viewer".
  i: "authenticated current",
  me: "authenticated current",
  my: "authenticated current",
  mine: "authenticated current",
  myself: "authenticated current",
  who: "user member",
  whose: "user",
  logged: "authenticated",
  signed: "authenticated",
  account: "user",
  profile: "user",
  // Reading.
  show: "get list",
  see: "get list",
  view: "get list",
  display: "get list",
  fetch: "get",
  retrieve: "get",
  read: "get",
  look: "get find search",
  lookup: "get find search",
  check: "get",
  find: "search list",
  search: "find list",
  browse: "list",
  all: "list",
  every: "list",
  many: "list count",
  count: "list",
  number: "count list",
  which: "list",
  details: "get",
  info: "get",
  information: "get",
  status: "get state",
  download: "get download",
  // Writing.
  make: "create",
  new: "create",
  add: "create",
  open: "create",
  start: "create start",
  submit: "create",
  post: "create",
  write: "create",
  generate: "create",
  register: "create",
  upload: "create upload",
  copy: "fork clone duplicate",
  duplicate: "fork copy",
  clone: "fork copy",
  change: "update edit",
  modify: "update edit",
  edit: "update",
  alter: "update",
  rename: "update name",
  set: "update",
  configure: "update set",
  close: "update state",
  reopen: "update state",
  archive: "update",
  lock: "lock",
  remove: "delete",
  delete: "remove",
  erase: "delete",
  destroy: "delete",
  drop: "delete",
  revoke: "delete",
  cancel: "cancel delete",
  stop: "cancel disable",
  disable: "disable delete",
  enable: "enable create",
  invite: "invitation create",
  send: "create",
  // Nouns APIs abbreviate or name otherwise.
  repo: "repository",
  repos: "repository",
  org: "organization",
  orgs: "organization",
  pr: "pull request",
  prs: "pull request",
  bug: "issue",
  remark: "comment",
  note: "comment",
  reply: "comment",
  respond: "comment",
  feedback: "comment review",
  project: "repository",
  projects: "repository",
  ticket: "issue",
  tickets: "issue",
  people: "user member",
  person: "user",
  members: "member user",
  group: "team",
  favorite: "star",
  favourite: "star",
  bookmark: "star",
  subscribe: "subscription watch",
  notify: "notification",
  left: "remaining limit",
  remaining: "limit",
  quota: "limit",
  usage: "limit",
  key: "key",
  password: "secret token",
  credential: "secret token key",
  money: "payment",
  pay: "payment",
  paid: "payment",
  bill: "invoice billing",
  email: "email",
  label: "label tag",
  tag: "tag label",
  version: "release",
};

/**
 * Phrases whose words mean something else together: "logged in" is about authentication, not logs, and
 * "get rid of" is a delete, not a get. The phrase's words are replaced, at full weight.
 */
const PHRASES: ReadonlyArray<readonly [string[], string]> = (
  [
    ["logged in", "authenticated"],
    ["log in", "authenticated"],
    ["signed in", "authenticated"],
    ["sign in", "authenticated"],
    ["get rid of", "delete"],
    ["turn off", "disable"],
    ["switch off", "disable"],
    ["turn on", "enable"],
    ["switch on", "enable"],
    ["set up", "create"],
    ["look up", "get"],
    ["look at", "get"],
    ["how many", "count"],
  ] as const
).map(([phrase, meaning]) => [phrase.split(" "), meaning] as const);

/** The words of a query with each phrase replaced by its meaning. */
function rephrased(words: string[]): string[] {
  const out: string[] = [];
  for (let at = 0; at < words.length; ) {
    const phrase = PHRASES.find(([parts]) => parts.every((part, n) => words[at + n] === part));
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
  for (const word of rephrased(splitWords(query))) {
    const concept = new Map<string, number>();
    const own = termOf(word);
    if (own !== undefined) concept.set(own, 1);
    const extra = Object.hasOwn(SYNONYMS, word) ? SYNONYMS[word] : undefined;
    const weight = own !== undefined && !named(own) ? 1 : SYNONYM_WEIGHT;
    for (const synonym of extra?.split(" ") ?? []) {
      const term = termOf(synonym);
      if (term !== undefined && !concept.has(term)) concept.set(term, weight);
    }
    if (concept.size === 0) continue;
    concepts.push(concept);
    for (const [term, w] of concept) terms.set(term, Math.max(terms.get(term) ?? 0, w));
  }
  return { terms, concepts };
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
