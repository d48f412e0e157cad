// A tool that stands for another: dynamic mode's `call_tool` names the tool to run, and the server runs
// it exactly as a direct `tools/call` of that name (its input validation, handler, output checks, MRTR
// rounds), so the two can never answer differently. A handler asks for this by returning
// `forwardTo(...)` instead of a result; features.ts's callTool sees the mark and calls the named tool.
import type { JsonObject } from "../protocol/types.ts";
import type { ToolHandlerResult } from "./types.ts";

const FORWARD = Symbol("tool-forward");

/** Where a forwarding handler sends the call, and `_meta` entries added to the named tool's result. */
export type ToolForward = { name: string; arguments: unknown; meta?: JsonObject };

/** The result a handler returns to have the server run another tool in its place (one hop only). */
export function forwardTo(forward: ToolForward): ToolHandlerResult {
  // No content of its own: were the mark ever lost, the result would be an empty success, not a leak.
  return Object.defineProperty({ content: [] }, FORWARD, { value: forward, enumerable: false });
}

/** The forward a handler's result asks for, if it is one. */
export function forwardOf(result: unknown): ToolForward | undefined {
  return typeof result === "object" && result !== null
    ? ((result as { [FORWARD]?: ToolForward })[FORWARD] ?? undefined)
    : undefined;
}
