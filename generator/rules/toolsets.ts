/** Toolset names (normalize/toolset-names.ts): a spec-language `toolset:` must be usable as `--toolsets` takes it. */
import { RESERVED_TOOLSET, toolsetNameProblem } from "../normalize/toolset-names.ts";
import type { Rule } from "./rule.ts";

export const toolsetRules: Rule = (server, report) => {
  for (const tool of server.tools) {
    if (tool.toolset === undefined) continue;
    const problem = toolsetNameProblem(tool.toolset);
    if (!problem) continue;
    const at = `${tool.loc.pointer}/toolset`;
    if (tool.toolset === RESERVED_TOOLSET)
      report("TOOLSET_NAME_RESERVED", at, `toolset '${tool.toolset}' of tool '${tool.name}' ${problem}`);
    else report("TOOLSET_NAME_INVALID", at, `toolset '${tool.toolset}' of tool '${tool.name}' ${problem}`);
  }
};
