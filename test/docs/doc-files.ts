/**
 * The user docs as the docs tests read them: which files, their headings' anchors (as GitHub makes them),
 * and their shell fences with the `<!-- docs-test: ... -->` directive before each.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../scripts/docs.ts";

/** README.md and every Markdown file under docs/, relative to the repository root. */
export function docFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      return entry.isDirectory() ? walk(path) : entry.name.endsWith(".md") ? [path] : [];
    });
  return ["README.md", ...walk("docs").sort()];
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces as hyphens; repeats get -1, -2. */
export function headingAnchors(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), "utf8").replace(/^(```|~~~)[\s\S]*?^\1/gm, "");
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.*)$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  for (const [, id] of text.matchAll(/<a id="([^"]+)"/g)) anchors.add(id);
  return anchors;
}

/**
 * What a directive asks of the fence after it: `skip — <reason>` (not run; the reason is required),
 * `background port=<n>` (started, waited for until the port answers, stopped at the page's end),
 * `exit=<n>` (the exit status the command is meant to end with).
 */
export type Directive = { skip?: string; background?: number; exit?: number };

export type Fence = {
  file: string;
  line: number;
  code: string;
  directive: Directive;
  /** A ```text fence right after this one: output the commands print. */
  output?: string;
};

function parseDirective(text: string, where: string): Directive {
  const skip = /^skip\b\s*(?:[—:-]+\s*)?(.*)$/s.exec(text);
  if (skip) {
    if (skip[1].trim() === "")
      throw new Error(`${where}: a docs-test skip needs a reason: <!-- docs-test: skip — why -->`);
    return { skip: skip[1].trim() };
  }
  const directive: Directive = {};
  for (const word of text.split(/\s+/)) {
    const background = /^port=(\d+)$/.exec(word);
    const exit = /^exit=(\d+)$/.exec(word);
    if (word === "background") continue;
    if (background && /\bbackground\b/.test(text)) directive.background = Number(background[1]);
    else if (exit) directive.exit = Number(exit[1]);
    else
      throw new Error(
        `${where}: unknown docs-test directive '${word}' (skip — <reason>, background port=<n>, exit=<n>)`,
      );
  }
  if (/\bbackground\b/.test(text) && directive.background === undefined)
    throw new Error(`${where}: docs-test background needs port=<n>, the port to wait for`);
  return directive;
}

/** Every ```sh / ```bash fence of a file, in order, with its directive and the ```text fence after it. */
export function shellFences(file: string): Fence[] {
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  const fences: Fence[] = [];
  let pending: { text: string; line: number } | undefined;
  let lastShellEnd = -2;
  const misplaced = () =>
    new Error(`${file}:${pending?.line}: a docs-test directive must come right before a shell fence`);
  for (let i = 0; i < lines.length; i++) {
    const directive = /^<!-- docs-test: (.*?) -->$/.exec(lines[i]);
    if (directive) {
      pending = { text: directive[1], line: i + 1 };
      continue;
    }
    const open = /^(```+|~~~+)\s*(\S*)/.exec(lines[i]);
    if (!open) {
      if (lines[i].trim() !== "" && pending) throw misplaced();
      continue;
    }
    const end = lines.findIndex((l, j) => j > i && l.trim() === open[1]);
    const body = lines.slice(i + 1, end).join("\n");
    if (open[2] === "sh" || open[2] === "bash") {
      const where = `${file}:${i + 1}`;
      fences.push({ file, line: i + 1, code: body, directive: pending ? parseDirective(pending.text, where) : {} });
      lastShellEnd = end;
    } else if (pending) throw misplaced();
    else if (open[2] === "text" && lines.slice(lastShellEnd + 1, i).every((l) => l.trim() === "") && fences.length > 0)
      fences[fences.length - 1].output = body;
    pending = undefined;
    i = end;
  }
  return fences;
}
