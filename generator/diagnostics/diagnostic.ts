/**
 * Diagnostics are data: every stage reports into a collector and carries on, so one run tells the
 * user everything that is wrong. Nothing here throws; only the CLI turns diagnostics into an exit code.
 */
import { type Code, catalog } from "./catalog.ts";

/** `info` reports a decision, not a fault (a tool that became a task): it never changes an exit code. */
export type Severity = "error" | "warning" | "info";

export type Diagnostic = {
  code: Code;
  severity: Severity;
  message: string;
  file: string;
  line: number;
  col: number;
  pointer: string;
  hint?: string;
};

/** Maps a JSON pointer in one parsed file to a 1-based line and column. */
export type Locator = (pointer: string, target?: "key" | "value") => { line: number; col: number };

export type Report = (code: Code, pointer: string, message: string, options?: ReportOptions) => void;
export type ReportOptions = { hint?: string; at?: "key" | "value" };

export class DiagnosticBag {
  readonly items: Diagnostic[] = [];
  readonly #seen = new Set<string>();

  add(diagnostic: Diagnostic): void {
    // The same fault reached twice (through a shared subschema, say) is said once.
    const key = `${diagnostic.code}\0${diagnostic.file}\0${diagnostic.pointer}\0${diagnostic.message}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.items.push(diagnostic);
  }

  /** A reporter bound to one file: rules give a code, a pointer and a message, the bag fills in the rest. */
  reporter(file: string, locate: Locator): Report {
    return (code, pointer, message, options = {}) => {
      const entry = catalog[code];
      const { line, col } = locate(pointer, options.at);
      // An info's catalog fix is "nothing to fix": said by `mcpgen explain`, not under every detection.
      const hint = options.hint ?? (entry.severity === "info" ? undefined : entry.fix);
      this.add({ code, severity: entry.severity, message, file, line, col, pointer, ...(hint ? { hint } : {}) });
    };
  }

  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === "error");
  }

  /** Sorted by file, then position, then code, so output is stable and reads top to bottom. */
  sorted(): Diagnostic[] {
    return [...this.items].sort(
      (a, b) =>
        compare(a.file, b.file) ||
        a.line - b.line ||
        a.col - b.col ||
        compare(a.code, b.code) ||
        compare(a.message, b.message),
    );
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Without `verbose`, the warnings (or notes) of one code after this many are counted, not listed. */
export const SHOWN_PER_CODE = 3;
/** A column past this on line 1 is minified JSON: the line says the JSON pointer too, which a reader can use. */
const LONG_LINE_COLUMN = 200;

/**
 * `<file>:<line>:<col>: <severity> <CODE>: <message>` with the hint on an indented line (docs/command-line.md).
 * Unless `verbose`: a warning or note code repeated more than SHOWN_PER_CODE times shows its first ones and
 * a count line at the end (GitHub has ~100 OPENAPI_DESCRIPTION_CUT), and a hint repeated by the same code
 * shows once. Errors are always listed: each is something to fix.
 */
export function formatText(diagnostics: Diagnostic[], options: { verbose?: boolean } = {}): string {
  const shown = new Map<string, number>();
  const hidden = new Map<string, { count: number; severity: Severity }>();
  const hinted = new Set<string>();
  const out: string[] = [];
  for (const d of diagnostics) {
    const seen = shown.get(d.code) ?? 0;
    if (!options.verbose && d.severity !== "error" && seen >= SHOWN_PER_CODE) {
      const entry = hidden.get(d.code) ?? { count: 0, severity: d.severity };
      entry.count++;
      hidden.set(d.code, entry);
      continue;
    }
    shown.set(d.code, seen + 1);
    const where = d.line === 1 && d.col > LONG_LINE_COLUMN && d.pointer ? ` (at ${d.pointer})` : "";
    out.push(`${d.file}:${d.line}:${d.col}: ${d.severity} ${d.code}: ${oneLine(d.message)}${oneLine(where)}`);
    const hintKey = `${d.code}\n${d.hint}`;
    if (d.hint && (options.verbose || !hinted.has(hintKey))) out.push(`    hint: ${oneLine(d.hint)}`);
    hinted.add(hintKey);
  }
  for (const [code, { count, severity }] of hidden)
    out.push(`... and ${count} more ${code} ${severity}${count === 1 ? "" : "s"} (--verbose lists every one)`);
  return out.join("\n");
}

export function formatJson(diagnostics: Diagnostic[]): string {
  return JSON.stringify(diagnostics, null, 2);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is replaced
const UNPRINTABLE = /[\u0000-\u001f\u007f\u2028\u2029]/g;

/** Messages quote user text; keep one diagnostic on one line whatever that text holds. */
function oneLine(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export function summary(diagnostics: Diagnostic[]): string {
  const count = (severity: Severity) => diagnostics.filter((d) => d.severity === severity).length;
  const [errors, warnings, infos] = [count("error"), count("warning"), count("info")];
  const said = `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`;
  return infos > 0 ? `${said}, ${infos} info${infos === 1 ? "" : "s"}` : said;
}
