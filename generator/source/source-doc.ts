// What reading one source file gives the rest of the generator (read-source.ts, read-json.ts, parse-yaml.ts).
import type { Locator, Report } from "../diagnostics/diagnostic.ts";

/** `size`: the bytes read, which count against the budget the files its `$ref`s read share. */
export type SourceDoc = { file: string; value: unknown; locate: Locator; report: Report; size?: number };
