// The shape of every flag record. The records are the core's (core-flags.ts) and each feature's (features/*/flags.ts);
// the generator joins a package's into one table, written into its src/server.ts, which drives its command line
// (flag-parser.ts) and every document naming them (generator/render/server-env.ts). A flag in no set does not exist.

/** The part of the server a flag belongs to (a part of the core, or a feature): --help and documents group by it. */
export type FlagGroup = "core" | "drain" | "logs" | "upstream" | "toolsets" | FeatureName;

export type ServerFlag = {
  flag?: string; // without its dashes; absent for a variable that has no flag (secrets stay out of `ps`)
  env?: string; // the environment twin; a given flag wins over it
  /** A boolean's env twin takes 1/true or 0/false; whole: min..max; string: checked by its user; list: repeatable. */
  kind: "boolean" | "whole" | "choice" | "string" | "list";
  arg?: string; // the value's placeholder (`<n>`); the default as text (as server.json states it), or what it means
  default?: string;
  defaultText?: string;
  min?: number;
  max?: number;
  choices?: readonly string[];
  turnsOn?: string; // for a boolean's env twin: what 1 turns on, for its error message
  /** One or two lines: --help, server.json and the MCPB manifest; `doc`: docs/reference/server-flags.md's cell, where it says more. */
  help: string;
  doc?: string;
  http?: true; // HTTP only: the flag without --http is a usage error, and a stdio server ignores the env twin
  /** A credential (server.json `isSecret`, MCPB `sensitive`); `upstream`: only where the spec binds http tools. */
  secret?: true;
  upstream?: true;
  setting?: string; // offered as a setting to whoever installs the MCPB bundle, under this title
};

/** Flags of one part of the server (a feature, or a part of the core), under one title in --help and the READMEs. */
export type FlagSet = {
  group: FlagGroup;
  title: string;
  flags: readonly ServerFlag[];
  wholeSet?: true; // read and checked as a whole by the feature's configure (one flag's meaning depends on another's)
};

export function flagsOf(sets: readonly FlagSet[]): (ServerFlag & { group: FlagGroup })[] {
  return sets.flatMap((set) => set.flags.map((flag) => ({ ...flag, group: set.group })));
}

/** The features a package can be generated with; here, not in feature.ts, so flag records name them without a cycle. */
export type FeatureName = ModeName | "budget" | "oauth" | UserTokens | "redis" | Telemetry | "tasks" | "apps";
type Telemetry = "metrics" | "otel";
type UserTokens = "token-exchange" | "upstream-oauth"; // each user's own upstream token
type ModeName = "dynamic" | "code"; // the features that are serving modes (--mode)
