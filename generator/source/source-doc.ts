// What reading one source file gives the rest of the generator (read-source.ts, read-json.ts, parse-yaml.ts).
import type { Locator, Report } from "../diagnostics/diagnostic.ts";

/**
 * `size`: the bytes read, which count against the budget the files its `$ref`s read share. `release`:
 * drops what only positions need (a large JSON file's text and index: Microsoft Graph's 60 MB), for a
 * caller past the stages that report most; a position asked later is found again from the file, read again.
 */
export type SourceDoc = {
  file: string;
  value: unknown;
  locate: Locator;
  report: Report;
  size?: number;
  release?: () => void;
};
