// The command line read from the package's flag sets (node:util's parseArgs, each flag else its env twin), and
// the usage text from the same records. A bad value is a message naming the flag or env twin that held it.
import { parseArgs } from "node:util";
import { type FlagSet, flagsOf, type ServerFlag } from "./server-flags.ts";

export type FlagValue = string | number | boolean | string[];

export type ParsedFlags = {
  help: boolean;
  http: boolean;
  /** Each value (flag, else env twin) by flag name (else env name), and where it came from (`--flag` or env). */
  values: Record<string, FlagValue>;
  sources: Record<string, string>;
  /** The flags as given, unchecked (for parsers of a whole set, as auth-principal.ts). */
  given: Record<string, string | boolean | string[] | undefined>;
};

const flagKey = (entry: ServerFlag) => (entry.flag ?? entry.env) as string;

export function parseFlags(sets: readonly FlagSet[], argv: readonly string[], env: NodeJS.ProcessEnv) {
  const table = flagsOf(sets);
  let given: ParsedFlags["given"];
  try {
    const options = Object.fromEntries(table.flatMap(({ flag, kind }) => (flag ? [[flag, optionOf(kind)]] : [])));
    const help = { type: "boolean", short: "h" } as const;
    given = parseArgs({ args: [...argv], options: { help, ...options }, strict: true }).values as ParsedFlags["given"];
  } catch (error) {
    return { error: (error as Error).message };
  }
  const http = given.http === true;
  const needHttp = table.filter((entry) => entry.http && entry.flag && given[entry.flag] !== undefined);
  const named = needHttp.map((entry) => `--${entry.flag}`).join(", ");
  if (!http && needHttp.length > 0) return { error: `${named} need${needHttp.length > 1 ? "" : "s"} --http` };
  const parsed: ParsedFlags = { help: given.help === true, http, values: {}, sources: {}, given };
  for (const entry of flagsOf(sets.filter((set) => !set.wholeSet))) {
    const raw = rawValue(entry, given, env, http);
    if (raw === undefined) continue;
    const value = checked(entry, raw.value, raw.source);
    if (typeof value === "object" && "error" in value) return value;
    parsed.values[flagKey(entry)] = value;
    parsed.sources[flagKey(entry)] = raw.source;
  }
  return parsed;
}

const optionOf = (kind: ServerFlag["kind"]) =>
  kind === "boolean" ? { type: "boolean" as const } : { type: "string" as const, multiple: kind === "list" };

/** The flag as given, else its env twin (empty counts as unset; an HTTP-only twin only over HTTP). */
function rawValue(entry: ServerFlag, given: ParsedFlags["given"], env: NodeJS.ProcessEnv, http: boolean) {
  const fromFlag = entry.flag === undefined ? undefined : given[entry.flag];
  if (fromFlag !== undefined) return { value: fromFlag, source: `--${entry.flag}` };
  if (entry.env === undefined || (entry.http && !http)) return undefined;
  const text = env[entry.env];
  return text === undefined || text === "" ? undefined : { value: text, source: entry.env };
}

function checked(entry: ServerFlag, value: string | boolean | string[], source: string): FlagValue | { error: string } {
  if (typeof value !== "string") return value;
  switch (entry.kind) {
    case "boolean": {
      const text = value.toLowerCase();
      if (text === "1" || text === "true") return true;
      if (text === "0" || text === "false") return false;
      return { error: `${source} must be 1 (or true) to ${entry.turnsOn}, or 0 (or false), not '${value}'` };
    }
    case "whole": {
      const number = Number(value);
      const min = entry.min ?? 0;
      if (value.trim() !== "" && Number.isSafeInteger(number) && number >= min && number <= (entry.max ?? Infinity))
        return number;
      const range = entry.max === undefined ? `a whole number >= ${min}` : `${min}-${entry.max}`;
      return { error: `${source} must be ${range}, not '${value}'` };
    }
    case "choice":
      return entry.choices?.includes(value)
        ? value
        : { error: `${source} must be one of ${entry.choices?.join(", ")}, not '${value}'` };
    case "list":
      return [value];
    default:
      return value;
  }
}

const HELP_COLUMN = 20;
const HELP_WIDTH = 100;

export function usageText(sets: readonly FlagSet[]): string {
  const lines = ["usage: server [flags]   (no flags: serve MCP over stdio; a flag wins over its env twin)"];
  for (const set of sets) lines.push("", `${set.title}:`, ...set.flags.flatMap(helpEntry));
  return lines.join("\n");
}

function helpEntry(entry: ServerFlag): string[] {
  const head = entry.flag ? `  --${entry.flag}${entry.arg ? ` ${entry.arg}` : ""}` : `  ${entry.env}`;
  const notes = [
    entry.flag && entry.env ? `env ${entry.env}` : undefined,
    entry.default !== undefined ? `default ${entry.default}` : entry.defaultText && `default: ${entry.defaultText}`,
    entry.http && entry.flag ? "needs --http" : undefined,
  ].filter(Boolean);
  const text = `${entry.help}${notes.length ? ` (${notes.join("; ")})` : ""}`;
  const lines: string[] = [];
  let line = head.length + 2 <= HELP_COLUMN ? head.padEnd(HELP_COLUMN) : `${head}  `;
  for (const word of text.split(" ")) {
    if (line.length + word.length > HELP_WIDTH && line.length > HELP_COLUMN) {
      lines.push(line.trimEnd());
      line = " ".repeat(HELP_COLUMN);
    }
    line += `${word} `;
  }
  lines.push(line.trimEnd());
  return lines;
}

/** `{ [key]: value }` when the value is set, else nothing (options keep their defaults). */
export function optional<K extends string>(key: K, value: FlagValue | undefined): { [k in K]?: number } {
  return (value === undefined ? {} : { [key]: value }) as { [k in K]?: number };
}
