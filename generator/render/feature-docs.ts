/**
 * Each feature's part of a generated package's README: the feature's folder holds it, as
 * runtime/features/<name>/readme.md.hbs, in sections headed `<!-- slot: NAME -->`. A section lands at
 * that slot of templates/package-readme.md.hbs, after the sections of the features listed before it, so
 * a package's README documents only the features it was generated with. The text is mcpgen's own;
 * `{{{flagTable}}}` in it is the feature's flags as a table (flag-docs.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import Handlebars from "handlebars";
import type { FeatureModule } from "../normalize/features.ts";
import { flagTable } from "./flag-docs.ts";

/** Where a feature's README sections may go, as the package template names them. */
export const README_SLOTS = [
  "connect",
  "auth",
  "deploy-run",
  "deploy-state",
  "monitoring",
  "credentials",
  "serving",
] as const;

const FEATURES = new URL("../../runtime/features/", import.meta.url);
const SLOT_LINE = /^<!-- slot: ([a-z-]+) -->$/;
const fragmentCache = new Map<string, ReadmeSection[]>();

type ReadmeSection = { slot: string; render: Handlebars.TemplateDelegate };

/** A feature's README sections in file order (none when its folder has no readme.md.hbs). */
export function featureReadmeSections(name: string): ReadmeSection[] {
  const cached = fragmentCache.get(name);
  if (cached) return cached;
  const file = new URL(`${name}/readme.md.hbs`, FEATURES);
  const sections: ReadmeSection[] = [];
  if (existsSync(file)) {
    const text = readFileSync(file, "utf8").replace(/^\{\{!--[\s\S]*?--\}\}\n/, "");
    let current: { slot: string; lines: string[] } | undefined;
    const close = () => {
      if (!current) return;
      const source = current.lines.join("\n").trim();
      sections.push({ slot: current.slot, render: Handlebars.compile(source, { strict: true, noEscape: true }) });
    };
    for (const line of text.split("\n")) {
      const slot = SLOT_LINE.exec(line)?.[1];
      if (slot !== undefined) {
        close();
        current = { slot, lines: [] };
      } else current?.lines.push(line);
    }
    close();
  }
  fragmentCache.set(name, sections);
  return sections;
}

/** The package README's slots (camelCased, as the template reads them), each the sections of `features`. */
export function featureReadmeSlots(features: readonly FeatureModule[]): Record<string, string> {
  const slots: Record<string, string[]> = Object.fromEntries(README_SLOTS.map((slot) => [slot, []]));
  for (const feature of features) {
    for (const section of featureReadmeSections(feature.name)) {
      slots[section.slot]?.push(section.render({ flagTable: flagTable([feature.name], { links: false }) }));
    }
  }
  return Object.fromEntries(
    Object.entries(slots).map(([slot, texts]) => [
      slot.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()),
      texts.join("\n\n"),
    ]),
  );
}
