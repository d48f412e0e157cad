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
  who: "user",
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
  left: "remaining",
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

/** A weighted query term: `weight` 1 for the query's own words, less for those a synonym brought. */
export type QueryTerm = { term: string; weight: number };

/** The terms to rank a query with, each once at its highest weight, the query's own first. */
export function queryTerms(query: string): QueryTerm[] {
  const weights = new Map<string, number>();
  const add = (word: string, weight: number) => {
    const term = termOf(word);
    if (term === undefined) return;
    weights.set(term, Math.max(weights.get(term) ?? 0, weight));
  };
  const words = splitWords(query);
  for (const word of words) add(word, 1);
  for (const word of words) {
    const extra = Object.hasOwn(SYNONYMS, word) ? SYNONYMS[word] : undefined;
    for (const synonym of extra?.split(" ") ?? []) add(synonym, SYNONYM_WEIGHT);
  }
  return [...weights].map(([term, weight]) => ({ term, weight }));
}
