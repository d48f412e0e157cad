/**
 * What `mcpgen generate` tells its user, in three forms: text (people), one JSON object (CI bots,
 * `--format json`) and Markdown of the MCP surface change (a pull-request comment, `--summary-md`).
 * Pure functions of the result: the CLI only prints them.
 */
import { type Diagnostic, formatJson, formatText, summary } from "../diagnostics/diagnostic.ts";
import { type GenerateResult, generateExitCode, isUpToDate } from "../index.ts";
import { type SurfaceChange, surfaceLine } from "../output/surface-diff.ts";
import { CREDENTIALS_FILE } from "../render/credentials-hook.ts";
import { mdCode } from "../render/markdown.ts";
import { costLine } from "../render/token-cost.ts";

export type ReportContext = { spec: string; out: string; check: boolean; format: "text" | "json"; verbose?: boolean };
export type Report = { stdout: string; stderr: string; exitCode: 0 | 1 | 2 };

/** Lists longer than this are cut to their first lines and a count, so a big API fits one screen. */
const SCREEN = 20;

export function generateReport(result: GenerateResult, context: ReportContext): Report {
  const exitCode = generateExitCode(result, context.check);
  if (context.format === "json") {
    return { stdout: `${JSON.stringify(jsonReport(result, context, exitCode), null, 2)}\n`, stderr: "", exitCode };
  }
  const out: string[] = [];
  const err: string[] = [];
  const diagnostics = textDiagnostics(result.diagnostics, context.verbose === true);
  const outcome = result.outcome;
  if (!outcome) {
    err.push(`nothing generated: ${summary(result.diagnostics)}`);
    return { stdout: diagnostics, stderr: lines(err), exitCode };
  }
  const surface = result.surface.map(surfaceLine);
  const { out: dir, spec } = context;
  if (context.check) {
    if (isUpToDate(outcome)) {
      const broken = result.diagnostics.filter((d) => d.code === "HANDLER_TYPE_ERROR").length;
      err.push(
        broken === 0
          ? `${dir} is up to date with ${spec}`
          : `${dir} is up to date with ${spec}, but ${broken} handler error${broken === 1 ? " (HANDLER_TYPE_ERROR) fails" : "s (HANDLER_TYPE_ERROR) fail"} the check`,
      );
      return { stdout: diagnostics, stderr: lines(err), exitCode };
    }
    err.push(`${dir} is out of date with ${spec}; these files would change:`);
    const missing = new Set(outcome.missing);
    for (const path of outcome.changed) out.push(`${missing.has(path) ? "missing" : "changed"} ${path}`);
    for (const path of outcome.created) out.push(`created ${path}`);
    for (const { from, to } of outcome.renamed) out.push(`moved ${from} -> ${to}`);
    for (const path of outcome.removed) out.push(`removed ${path}`);
    if (surface.length > 0) err.push("MCP surface changes:", ...oneScreen(surface).map((l) => `  ${l}`));
    err.push(`run: mcpgen generate ${spec} --out ${dir}`);
    return { stdout: diagnostics + lines(out), stderr: lines(err), exitCode };
  }
  const { changed, unchanged, removed } = outcome;
  const dist = result.distWritten ? `; dist/: ${result.distWritten} compiled` : "";
  err.push(`${dir}: ${changed.length} written, ${unchanged.length} unchanged, ${removed.length} removed${dist}`);
  for (const path of removed) err.push(`  removed ${path}`);
  for (const { from, to } of outcome.renamed) err.push(`  moved handler ${from} -> ${to}`);
  // The credentials hook works as scaffolded (the environment's credentials for everyone): it is the
  // user's to change, not a handler that must be written before the server works.
  const handlers = outcome.created.filter((path) => path !== CREDENTIALS_FILE);
  if (handlers.length < outcome.created.length)
    err.push(`  new file, yours to edit for per-user upstream credentials (works as written): ${CREDENTIALS_FILE}`);
  for (const path of handlers.slice(0, SCREEN)) err.push(`  new handler to write: ${path}`);
  if (handlers.length > SCREEN) err.push(`  ... and ${handlers.length - SCREEN} more new handlers to write`);
  for (const line of oneScreen(surface)) err.push(`  ${line}`);
  // Last, after the lists that belong to the "written" line: the one figure a user reads at the end.
  if (result.toolsList) err.push(costLine(result.toolsList));
  return { stdout: diagnostics, stderr: lines(err), exitCode };
}

function textDiagnostics(diagnostics: Diagnostic[], verbose: boolean): string {
  return diagnostics.length > 0 ? `${formatText(diagnostics, { verbose })}\n` : "";
}

const lines = (list: string[]) => list.map((line) => `${line}\n`).join("");

/** The MCP surface summary fits one screen: a 1,000-tool API lists its first lines and a count. */
export function oneScreen(lines: string[], max = SCREEN): string[] {
  if (lines.length <= max) return lines;
  const counts = ["+", "~", "-", ">"]
    .map((sign) => `${lines.filter((l) => l.startsWith(sign)).length} ${sign}`)
    .join(", ");
  return [...lines.slice(0, max - 1), `... ${lines.length - max + 1} more (${counts} in all)`];
}

/** `--format json`: everything the text says, as one object. */
function jsonReport(result: GenerateResult, context: ReportContext, exitCode: number) {
  const outcome = result.outcome;
  return {
    spec: context.spec,
    out: context.out,
    check: context.check,
    exitCode,
    generated: outcome !== undefined,
    upToDate: outcome !== undefined && isUpToDate(outcome),
    written: outcome?.changed ?? [],
    missing: outcome?.missing ?? [],
    created: outcome?.created ?? [],
    renamed: outcome?.renamed ?? [],
    removed: outcome?.removed ?? [],
    obsolete: outcome?.obsolete ?? [],
    unchanged: outcome?.unchanged ?? [],
    // Files of dist/ written (compiled or bundled anew): 0 when dist/ was already what src/ makes.
    distCompiled: result.distWritten ?? 0,
    surface: result.surface,
    // tools/list's cost in tokens (o200k_base): all mode, dynamic mode, per toolset; null without tools.
    toolsList: result.toolsList ?? null,
    diagnostics: JSON.parse(formatJson(result.diagnostics)) as Diagnostic[],
  };
}

const WORD: Record<SurfaceChange["change"], string> = { "+": "added", "~": "changed", "-": "removed", ">": "renamed" };
/** A PR comment stays readable (and under GitHub's size limit) for an API of any size. */
const MARKDOWN_ROWS = 200;

/** `--summary-md`: the MCP surface change as a Markdown table; every name is a code span, so no spec
 * text can format, link or break the comment. */
export function surfaceMarkdown(result: GenerateResult, context: ReportContext): string {
  const head = `### MCP surface changes for ${mdCode(context.out)}\n\n`;
  if (!result.outcome) return `${head}Nothing generated: ${summary(result.diagnostics)}.\n`;
  if (result.surface.length === 0) return `${head}No change to the tools, resources, resource templates or prompts.\n`;
  const rows = result.surface.slice(0, MARKDOWN_ROWS).map((c) => {
    const name = c.from === undefined ? mdCode(c.name) : `${mdCode(c.from)} → ${mdCode(c.name)}`;
    return `| ${WORD[c.change]} | ${c.kind} | ${name} |`;
  });
  const more =
    result.surface.length > MARKDOWN_ROWS ? `\n… and ${result.surface.length - MARKDOWN_ROWS} more changes.\n` : "";
  const counts = (["+", "~", "-", ">"] as const)
    .map((sign) => [WORD[sign], result.surface.filter((c) => c.change === sign).length] as const)
    .filter(([, n]) => n > 0)
    .map(([word, n]) => `${n} ${word}`)
    .join(", ");
  return `${head}${counts}.\n\n| change | kind | name |\n| --- | --- | --- |\n${rows.join("\n")}\n${more}`;
}
