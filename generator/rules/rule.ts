/** What every validation rule is: a function over the whole IR that reports what it finds. */
import type { Report } from "../diagnostics/diagnostic.ts";
import type { ServerNode } from "../ir.ts";

export type Rule = (server: ServerNode, report: Report) => void;
