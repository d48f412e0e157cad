/** What every validation rule is: a function over the whole IR that reports what it finds. */
import type { Report } from "../diagnostics/diagnostic.ts";
import type { ServerNode } from "../ir.ts";

export type Rule = (server: ServerNode, report: Report) => void;

/** Whether the features asked for (the spec's, the config's or --features) allow `name`. Nothing asked, the
 * feature a spec implies (tasks for a task tool, apps for a view) is on by default. */
export function featureAsked(server: ServerNode, name: string): boolean {
  const asked = server.features;
  return asked === undefined || asked.includes("all") || asked.includes(name);
}
