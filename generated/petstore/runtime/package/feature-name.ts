// The names of the runtime's features (runtime/features/<name>/), apart from feature.ts so that the flag
// records (server-flags.ts), which feature.ts reads, can name them without an import cycle.

/** The features a package can be generated with (the core needs no name). */
export type FeatureName = "dynamic" | "code" | "budget" | "oauth" | "token-exchange" | "redis" | "metrics";
