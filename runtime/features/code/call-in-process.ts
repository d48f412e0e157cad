// A tool run from inside the server: code mode's `api.<tool>(args)` inside `execute`.
import { errorMessage } from "../../protocol/errors.ts";
import type { CallToolResult } from "../../protocol/types.ts";
import { runTool, toolError } from "../../server/features.ts";
import { InputRequiredSignal } from "../../server/mrtr.ts";
import type { ServerCore } from "../../server/scope.ts";
import type { HandlerContext } from "../../server/types.ts";

/** Runs a tool from inside the server (code mode's `api.<tool>(args)`) as a direct tools/call would, in the
 * calling request's context; an unanswered input propagates as InputRequiredSignal to the calling request. */
export async function callToolInProcess(server: ServerCore, name: string, args: unknown, ctx: HandlerContext) {
  const tool = server.tools.get(name);
  if (!tool) return toolError(`Unknown tool: ${name}`);
  try {
    const result = await runTool(server, tool, args, ctx);
    if (result.resultType === "input_required")
      return toolError(`Tool ${name} asked the client for input, which a call in process cannot pass on`);
    return result as CallToolResult;
  } catch (error) {
    if (error instanceof InputRequiredSignal || ctx.signal.aborted) throw error;
    return toolError(`Tool ${name} failed: ${errorMessage(error)}`);
  }
}
