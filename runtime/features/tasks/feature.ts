// The `tasks` feature: tools bound to an upstream job (TaskBinding) answer with an MCP task that is polled to
// the upstream's result, in both protocol eras.
import type { Feature } from "../../package/feature.ts";
import { tasksFlags } from "./flags.ts";

export const tasksFeature: Feature = { name: "tasks", flags: tasksFlags };
