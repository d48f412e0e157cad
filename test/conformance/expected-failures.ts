// Judges conformance results against test/conformance/expected-failures.yaml. Like the suite's own
// baseline, it works per check and both ways: an unlisted non-passing check is a regression, and a
// listed entry that no longer matches anything is stale and must be removed.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import type { Check, ScenarioResult } from "./harness.ts";
import { REPO_ROOT } from "./harness.ts";

export type ExpectedFailure = {
  /** Which run: e.g. "server-2025", "server-2026", "client-2026". */
  run: string;
  scenario: string;
  /** A check id; absent means every check of the scenario. */
  check?: string;
  /** A check name, to single out one row when a scenario reuses the id for many rows. */
  name?: string;
  reason: string;
};

// INFO checks are the suite's narration (requests seen, events sent), not verdicts.
const PASSING = new Set(["SUCCESS", "INFO"]);

export function loadExpectedFailures(
  file = join(REPO_ROOT, "test/conformance/expected-failures.yaml"),
): ExpectedFailure[] {
  const parsed = parse(readFileSync(file, "utf8")) as { expected?: ExpectedFailure[] | null } | null;
  const entries = parsed?.expected ?? [];
  for (const entry of entries) {
    if (!entry.run || !entry.scenario || !entry.reason) {
      throw new Error(`expected-failures.yaml entry needs run, scenario and reason: ${JSON.stringify(entry)}`);
    }
  }
  return entries;
}

export type Verdict = {
  unexpected: { scenario: string; check: Check }[];
  excused: { scenario: string; check: Check; reason: string }[];
  stale: ExpectedFailure[];
};

function matches(entry: ExpectedFailure, run: string, scenario: string, check: Check): boolean {
  return (
    entry.run === run &&
    entry.scenario === scenario &&
    (entry.check === undefined || entry.check === check.id) &&
    (entry.name === undefined || entry.name === check.name)
  );
}

export function findExpected(
  expected: ExpectedFailure[],
  run: string,
  scenario: string,
  check: Check,
): ExpectedFailure | undefined {
  return expected.find((entry) => matches(entry, run, scenario, check));
}

export function judge(run: string, results: ScenarioResult[], expected: ExpectedFailure[]): Verdict {
  const verdict: Verdict = { unexpected: [], excused: [], stale: [] };
  const used = new Set<ExpectedFailure>();
  for (const { scenario, checks } of results) {
    for (const check of checks) {
      if (PASSING.has(check.status)) continue;
      const entry = findExpected(expected, run, scenario, check);
      if (entry) {
        used.add(entry);
        verdict.excused.push({ scenario, check, reason: entry.reason });
      } else {
        verdict.unexpected.push({ scenario, check });
      }
    }
  }
  const ranScenarios = new Set(results.map((r) => r.scenario));
  verdict.stale = expected.filter((e) => e.run === run && ranScenarios.has(e.scenario) && !used.has(e));
  return verdict;
}

export function describeVerdict(verdict: Verdict): string {
  const lines: string[] = [];
  for (const { scenario, check } of verdict.unexpected) {
    lines.push(`UNEXPECTED ${check.status} ${scenario} :: ${check.id} (${check.name}): ${check.errorMessage ?? ""}`);
  }
  for (const entry of verdict.stale) {
    lines.push(
      `STALE expected failure (now passes, remove it): ${entry.scenario}${entry.check ? `:${entry.check}` : ""}`,
    );
  }
  return lines.join("\n");
}

export function countChecks(results: ScenarioResult[]): { passed: number; total: number } {
  let passed = 0;
  let total = 0;
  for (const { checks } of results) {
    for (const check of checks) {
      if (check.status === "INFO") continue;
      total++;
      if (check.status === "SUCCESS") passed++;
    }
  }
  return { passed, total };
}
