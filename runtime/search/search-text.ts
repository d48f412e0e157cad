// How tool search turns text into terms, the same way for the index `mcpgen generate` builds and for the
// queries an agent sends: identifiers are split into words (snake_case, kebab-case, camelCase, a/b),
// words are lower-cased, stop words dropped and the rest reduced to their Porter stem, so "repositories"
// finds "repository" and "forking" finds "fork".
import { stemmer } from "stemmer";

/** Words too common to tell tools apart. Pronouns that mean "the caller" are not here: expandQuery reads them first. */
const STOP_WORDS = new Set(
  (
    "a an and any are as at am be been being but by can could did do does doing for from had has have how i if in " +
    "into is it its just me my myself of on or our ours please so some than that the their them then there these " +
    "they this those to too us very was we were what when where which while who whom why will with would you your " +
    "yours want wanna need like let lets let's should shall may might must also all via using use about off out up over only " +
    "now anyone anything something thing things even still already really re ll ve"
  ).split(" "),
);

/** Words of prose, lower-cased: split at anything that is not a letter or digit (snake_case, kebab-case, a/b). */
export function splitWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/**
 * Words of an identifier: camelCase is split too, so `listForAuthenticatedUser`, `list-for-authenticated-user`
 * and `list/for/authenticated/user` all give list, for, authenticated, user. Prose is not split so: "GitHub"
 * and "JavaScript" are one word each.
 */
export function splitIdentifier(text: string): string[] {
  return splitWords(text.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2").replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1 $2"));
}

/** One word as the index stores it: its stem, or undefined for a stop word or a single letter. */
export function termOf(word: string): string | undefined {
  const lower = word.toLowerCase();
  // One letter is no word ("user's" splits into user and s).
  if (lower.length < 2 || STOP_WORDS.has(lower)) return undefined;
  return stemmer(lower);
}

/** The terms of a text, in order, stop words left out. */
export function termsOf(text: string): string[] {
  return splitWords(text).flatMap((word) => termOf(word) ?? []);
}

/**
 * What an HTTP method does, in the verbs a request is phrased with: an agent asks to "remove" or "show"
 * something, the API says DELETE or GET.
 */
export const METHOD_VERBS: Readonly<Record<string, string>> = {
  GET: "get list show read find",
  POST: "create add new send run",
  PUT: "update set change edit replace",
  PATCH: "update set change edit replace",
  DELETE: "delete remove",
};

/**
 * What an operation does, from its method and its path's shape: a GET that ends in a parameter reads one
 * thing, a GET of a collection lists; a POST to a collection creates; a POST that ends in a word after a
 * parameter (/orders/{id}/cancel) is that action. Without an http binding, from its annotations.
 */
export function verbsOf(
  method: string | undefined,
  readOnly: boolean | undefined,
  destructive?: boolean,
  path = "",
): string {
  if (method) {
    const segments = path.split("/").filter(Boolean);
    const last = segments.at(-1) ?? "";
    const verb = method.toUpperCase();
    if (verb === "GET") return last.startsWith("{") ? "get show read view detail" : "list get show find all";
    if (verb === "POST" && !last.startsWith("{") && segments.at(-2)?.startsWith("{") && !/s$/.test(last))
      return `${last} do action`;
    return METHOD_VERBS[verb] ?? "";
  }
  if (readOnly) return METHOD_VERBS.GET;
  if (destructive) return METHOD_VERBS.DELETE;
  return "";
}
