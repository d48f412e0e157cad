// Checks a tool's structuredContent against its outputSchema (MCP tools: clients SHOULD). A generated
// client passes precompiled validators; a hand-written one may pass `compileSchema`. No ajv import here.
import { ErrorCode } from "../protocol/constants.ts";
import { errorMessage, McpError } from "../protocol/errors.ts";
import type { CallToolResult, Tool, Validator } from "../protocol/types.ts";

export type OutputValidators = Record<string, Validator>;

/** A tool result that breaks its tool's outputSchema: which tool, and where (a JSON pointer, "" for the root). */
export class ToolOutputError extends McpError {
  constructor(
    code: number,
    readonly tool: string,
    readonly pointer: string,
    message: string,
  ) {
    super(code, message, { tool, pointer });
    this.name = "ToolOutputError";
  }
}

export class ToolOutputCheck {
  private precompiled: OutputValidators | undefined;
  /** outputSchema per tool name from tools/list (null: listed without one); undefined until a listing. */
  private listed: Map<string, object | null> | undefined;
  /** Validators compiled from listed schemas, by the schema's JSON; null: it did not compile (warned once). */
  private readonly compiled = new Map<string, { schema: string; validator: Validator | null }>();

  constructor(
    private readonly load: (() => OutputValidators) | OutputValidators | undefined,
    private readonly compile: ((schema: object) => Validator) | undefined,
    private readonly warn: (message: string) => void,
  ) {}

  learn(tools: readonly Tool[]): void {
    this.listed ??= new Map();
    for (const tool of tools) this.listed.set(tool.name, tool.outputSchema ?? null);
  }

  /** True when only a tools/list could tell how to check `name`: it can compile, yet knows nothing of it. */
  needsListing(name: string): boolean {
    return this.compile !== undefined && !this.listed && !Object.hasOwn(this.precompiledSet(), name);
  }

  /** tools/list_changed: what was learned may be stale. */
  forget(): void {
    this.listed = undefined;
  }

  /** Throws ToolOutputError when `result` does not keep to the tool's outputSchema; error results pass. */
  check(name: string, result: CallToolResult): void {
    if (result.isError === true) return;
    const listedSchema = this.listed?.get(name);
    // The server's own listing says the tool has no outputSchema: nothing to hold it to.
    if (listedSchema === null) return;
    const validator = this.validatorFor(name, listedSchema);
    if (validator === undefined && listedSchema === undefined) return; // nothing known about this tool
    if (result.structuredContent === undefined) {
      // The tools spec: a server MUST provide structuredContent when the tool declares an outputSchema.
      const message = `Tool ${name} declares an outputSchema but returned no structuredContent`;
      throw new ToolOutputError(ErrorCode.InvalidRequest, name, "", message);
    }
    if (validator === undefined || validator(result.structuredContent)) return;
    const first = validator.errors?.[0];
    const pointer = first?.instancePath ?? "";
    const problem = `${pointer === "" ? "(root)" : pointer} ${first?.message ?? "is invalid"}`;
    const message = `Tool ${name} returned structuredContent not matching its outputSchema: ${problem}`;
    throw new ToolOutputError(ErrorCode.InvalidParams, name, pointer, message);
  }

  private precompiledSet(): OutputValidators {
    this.precompiled ??= typeof this.load === "function" ? this.load() : (this.load ?? {});
    return this.precompiled;
  }

  private validatorFor(name: string, listedSchema: object | undefined): Validator | undefined {
    const precompiled = this.precompiledSet();
    if (Object.hasOwn(precompiled, name)) return precompiled[name];
    if (listedSchema === undefined || this.compile === undefined) return undefined;
    // Each listing brings new objects: the same schema text keeps its compiled validator.
    const text = JSON.stringify(listedSchema);
    let entry = this.compiled.get(name);
    if (entry?.schema !== text) {
      entry = { schema: text, validator: null };
      try {
        entry.validator = this.compile(listedSchema);
      } catch (error) {
        this.warn(`Not checking tool "${name}" results: its outputSchema does not compile (${errorMessage(error)})`);
      }
      this.compiled.set(name, entry);
    }
    return entry.validator ?? undefined;
  }
}
