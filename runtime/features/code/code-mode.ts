// `--mode code` (docs/large-apis.md#code-mode): tools/list gives only search_docs and execute (code-tools.ts).
// search_docs runs dynamic mode's search and answers with the TypeScript declarations of the hits (code-api.ts);
// execute runs the agent's program in a WebAssembly sandbox (code-sandbox.ts) where `api.<tool>(args)`
// calls the tool in process exactly as a direct tools/call would (server/features.ts callToolInProcess:
// validation, auth, upstream, response budget), so credentials never enter the sandbox. The real tools
// stay registered, unlisted. A destructive tool asks the client first (elicitation), or needs --allow-destructive.
import { existsSync } from "node:fs";
import type { CatalogTool } from "../../package/catalog-types.ts";
import type { Instrument } from "../../package/feature.ts";
import { OUTPUT_MISMATCH_META, RESPONSE_META } from "../../package/field-select.ts";
import { didYouMean } from "../../package/tool-selection.ts";
import type { CallToolResult, JsonObject } from "../../protocol/types.ts";
import type { ToolSearch } from "../../search/tool-search.ts";
import { showsTool } from "../../server/features.ts";
import { InputRequiredSignal } from "../../server/mrtr.ts";
import type { McpServer } from "../../server/server.ts";
import type { ToolHandlerResult } from "../../server/types.ts";
import { type DynamicCatalog, visibleNames } from "../dynamic/dynamic-mode.ts";
import { callToolInProcess } from "./call-in-process.ts";
import type { CodeApiFile } from "./code-api-types.ts";
import { type ConfirmState, confirmCall } from "./code-confirm.ts";
import type { CodeBridge, CodeCallOutcome, CodeLimits, CodeRunResult, CodeSandbox } from "./code-sandbox-types.ts";
import { CODE_TOOLS, DOCS_LIMIT } from "./code-tools.ts";

export type CodeModeOptions = {
  limits: CodeLimits;
  /** Destructive tools run without asking (--allow-destructive); else the client must confirm each. */
  allowDestructive: boolean;
  /**
   * The response budget (--max-response-tokens) of execute's and search_docs's results, when the package
   * has the `budget` feature: taken as a function so code mode carries none of the budget's files.
   */
  fitResult?: (result: ToolHandlerResult) => Promise<ToolHandlerResult>;
  /** Executes that run at once (--code-concurrency; default: the cores, at most 4). */
  concurrency?: number;
  /** --otel (the `otel` feature): the sandbox's run, and each bridged call, in spans of their own. */
  instrument?: Pick<Instrument, "span" | "bind">;
};

/** What the two tools share: one search, one API description and one sandbox per server, each made on first use. */
type CodeMode = {
  server: McpServer;
  catalog: DynamicCatalog;
  options: CodeModeOptions;
  search?: ToolSearch;
  api?: CodeApiFile;
  sandbox?: Promise<CodeSandbox>;
};

type Args = Record<string, unknown>;
type Ctx = Parameters<Parameters<McpServer["tool"]>[0]["handler"]>[1];

export function registerCodeTools(server: McpServer, catalog: DynamicCatalog, options: CodeModeOptions): void {
  const mode: CodeMode = { server, catalog, options };
  server.onClose(() => void mode.sandbox?.then((s) => s.dispose()).catch(() => undefined));
  const definition = (name: string) => CODE_TOOLS.find((tool) => tool.name === name) as (typeof CODE_TOOLS)[number];
  server.tool({ ...definition("search_docs"), handler: (args, ctx) => searchDocs(mode, args, ctx) });
  server.tool({ ...definition("execute"), handler: (args, ctx) => execute(mode, args, ctx) });
}

/** The sandbox, made on the first execute (its first thread and wasm engine cost tens of ms). */
function startSandbox(mode: CodeMode): Promise<CodeSandbox> {
  const { concurrency } = mode.options;
  mode.sandbox ??= import("./code-sandbox.ts").then((module) =>
    module.createCodeSandbox(concurrency ? { threads: concurrency } : {}),
  );
  return mode.sandbox;
}

async function searchDocs(mode: CodeMode, args: Args, ctx: Ctx): Promise<ToolHandlerResult> {
  const { server, catalog } = mode;
  if (typeof args.query !== "string" || args.query.trim() === "")
    return failure("Invalid arguments: query must be a non-empty string");
  const limit = args.limit ?? DOCS_LIMIT.default;
  if (!Number.isInteger(limit) || Number(limit) < 1 || Number(limit) > DOCS_LIMIT.max)
    return failure(`Invalid arguments: limit must be a whole number from 1 to ${DOCS_LIMIT.max}`);
  // An agent searches before it executes: the sandbox's thread starts meanwhile (a failure shows at execute).
  startSandbox(mode).catch(() => undefined);
  mode.search ??= (await import("../../search/tool-search.ts")).createToolSearch(
    catalog.all,
    packageFile("search-index.json"),
    catalog.toolsets,
  );
  const names = mode.search.search(args.query, {
    limit: Number(limit),
    allowed: (name) => catalog.served.has(name) && showsTool(server, name, ctx.auth),
  });
  if (names.length === 0) return failure(`No API function matches '${args.query}'. Try other words.`, false);
  const { loadCodeApi, declarationsFor } = await import("./code-api.ts");
  const file = packageFile("code-api.json");
  mode.api ??= (file && loadCodeApi(file)) || plainCodeApi(catalog.served);
  const text = declarationsFor(mode.api, names);
  return fitted({ structuredContent: { tools: names }, content: [{ type: "text", text }] }, mode.options);
}

async function execute(mode: CodeMode, args: Args, ctx: Ctx): Promise<ToolHandlerResult> {
  const { server, catalog } = mode;
  if (typeof args.code !== "string" || args.code.trim() === "")
    return failure("Invalid arguments: code must be a non-empty string: the body of an async function");
  const ready = startSandbox(mode);
  const run = new AbortController();
  const stop = () => run.abort();
  ctx.signal.addEventListener("abort", stop, { once: true });
  const state: RunState = { destructiveRan: false, used: new Map(), notes: [] };
  // `api` holds what this caller may see; a tool its scopes hide is refused as a direct call is.
  const seen = (name: string) => showsTool(server, name, ctx.auth);
  const unavailable = (name: string) => {
    const refusal = catalog.served.has(name) ? server.options.toolGate?.toolRefusal(name, ctx.auth) : undefined;
    return refusal ?? unknownToolText(name, catalog, seen);
  };
  const call = { mode, ctx, run, state, unavailable };
  const { instrument } = mode.options;
  const runCode = async (code: string) => {
    const sandbox = await ready;
    const bridge: CodeBridge = {
      names: visibleNames(catalog, seen),
      call: traced(instrument, (name, callArgs, signal) => bridgedCall(call, name, callArgs, signal)),
      unavailable,
    };
    return sandbox.run(code, bridge, mode.options.limits, run.signal);
  };
  let result: CodeRunResult;
  try {
    const code = args.code;
    result = await (instrument ? instrument.span("code execute", {}, () => runCode(code)) : runCode(code));
  } catch (error) {
    mode.sandbox = undefined; // the next execute tries again
    return failure(`The sandbox could not start: ${(error as Error).message}`);
  } finally {
    ctx.signal.removeEventListener("abort", stop);
  }
  // 2026 era: the client must confirm a destructive call first; the retry runs the code again.
  if (state.pending) throw state.pending;
  return fitted(executeResult(result, state.notes), mode.options);
}

/** --otel: each bridged call in a span under execute's, though it comes back through a sandbox thread's message. */
function traced(instrument: CodeModeOptions["instrument"], call: CodeBridge["call"]): CodeBridge["call"] {
  if (!instrument) return call;
  return instrument.bind((name, args, signal) =>
    instrument.span(`code call ${name}`, { "gen_ai.tool.name": name }, () => call(name, args, signal)),
  );
}

/** One execute's view of its calls: the caller's context, the run to stop, what it has done so far. */
type ExecuteCall = {
  mode: CodeMode;
  ctx: Ctx;
  run: AbortController;
  state: RunState;
  unavailable: (name: string) => string;
};

/** `api.<name>(args)` from the sandbox: the tool run on the host, as a direct tools/call of it. */
async function bridgedCall(
  { mode, ctx, run, state, unavailable }: ExecuteCall,
  name: string,
  callArgs: unknown,
  signal: AbortSignal,
): Promise<CodeCallOutcome> {
  const tool = mode.catalog.served.get(name);
  if (!tool) return refusal(unavailable(name));
  if (signal.aborted) return refusal("execute has ended");
  if (isDestructive(tool)) {
    const refused = await confirmCall(tool, callArgs, ctx, mode.options.allowDestructive, state);
    if (refused instanceof InputRequiredSignal) {
      state.pending = refused;
      run.abort();
      return refusal("waiting for the client's confirmation");
    }
    if (refused) return refusal(refused);
    state.destructiveRan = true;
  }
  try {
    return outcomeOf(name, await callToolInProcess(mode.server, name, callArgs ?? {}, ctx), state.notes);
  } catch (error) {
    // 2026 era: the tool itself asks the client something; the retry runs the code again.
    if (error instanceof InputRequiredSignal) {
      state.pending = error;
      run.abort();
      return refusal("waiting for the client's answer");
    }
    return refusal(`${name} did not run: ${(error as Error).message}`);
  }
}

/** A result of code mode's own tools within the response budget, when the package has one. */
const fitted = (result: ToolHandlerResult, { fitResult }: CodeModeOptions) => (fitResult ? fitResult(result) : result);

/** `notes`: what the response budget said of the answers it cut, and which answers broke their outputSchema. */
type RunState = ConfirmState & { notes: string[]; pending?: InputRequiredSignal };

/** What MCP reads a tool's hints as: destructive unless it says read-only or destructiveHint: false. */
export const isDestructive = (tool: CatalogTool): boolean =>
  tool.annotations?.readOnlyHint !== true && tool.annotations?.destructiveHint !== false;

/**
 * A tool's result as the sandbox sees it: its structured result (or text), or `{ status?, message }`.
 * An answer the response budget cut or narrowed is its first block (the JSON, shorter); the budget's
 * notes after it (how much is left out, which arguments fetch the rest) go to `notes`.
 */
function outcomeOf(name: string, result: CallToolResult, notes: string[]): CodeCallOutcome {
  const texts = (result.content ?? []).flatMap((block) => (block.type === "text" ? [block.text] : []));
  const text = texts.join("\n");
  const mismatch = result._meta?.[OUTPUT_MISMATCH_META];
  if (result.isError && typeof mismatch === "string" && texts.length > 1) {
    // The call ran and the upstream answered; only its shape drifted from the document: the code gets the answer.
    notes.push(`api.${name}: the answer does not match the tool's outputSchema (${mismatch}); it was used as it came`);
    for (const note of texts.slice(2)) notes.push(`api.${name}: ${note}`);
    return { ok: true, value: parsedOrText(texts[1]) };
  }
  if (result.isError) {
    const status = /Upstream API answered (\d{3})/.exec(text)?.[1];
    return { ok: false, error: { ...(status ? { status: Number(status) } : {}), message: text || "error" } };
  }
  if (result._meta?.[RESPONSE_META] !== undefined && texts.length > 0) {
    for (const note of texts.slice(1)) notes.push(`api.${name}: ${note}`);
    return { ok: true, value: result.structuredContent ?? parsedOrText(texts[0]) };
  }
  return { ok: true, value: result.structuredContent ?? parsedOrText(text) };
}

/** A text result that is JSON (an upstream's array answer, say) as its value; other text as is. */
function parsedOrText(text: string): unknown {
  if (!/^\s*[[{]/.test(text)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * execute's result: the returned value as JSON, then the notes on the answers the code got shortened or
 * drifted from their outputSchema (so the agent knows), then the logs; an error with its kind and line.
 */
function executeResult(result: CodeRunResult, notes: string[]): ToolHandlerResult {
  const block = (title: string, lines: string[]) =>
    lines.length > 0 ? [{ type: "text" as const, text: `${title}:\n${lines.join("\n")}` }] : [];
  const logs = [...block("notes", notes), ...block("console.log", result.logs)];
  if (result.ok) {
    const text = JSON.stringify(result.value === undefined ? null : result.value) ?? "null";
    return { content: [{ type: "text", text }, ...logs] };
  }
  const where = result.line !== undefined ? ` at line ${result.line}` : "";
  const text = `${KIND_TEXT[result.kind]}${where}: ${result.message}`;
  return { isError: true, content: [{ type: "text", text }, ...logs] };
}

const KIND_TEXT: Record<Exclude<CodeRunResult, { ok: true }>["kind"], string> = {
  error: "Error",
  syntax: "Syntax error",
  timeout: "Time limit (--code-timeout)",
  memory: "Memory limit (--code-memory)",
  calls: "API call limit (--code-max-calls)",
  output: "Output limit",
};

/** When the package has no src/code-api.json: each tool's arguments as its JSON Schema, typed loosely. */
function plainCodeApi(served: ReadonlyMap<string, CatalogTool>): CodeApiFile {
  const tools: CodeApiFile["tools"] = {};
  for (const tool of served.values()) {
    const doc = (tool.description ?? tool.title ?? "").split("\n")[0].replaceAll("*/", "*\\/");
    const declaration = `/** ${doc} Arguments: ${JSON.stringify(tool.inputSchema)} */\n${tool.name}(args: Record<string, unknown>): Promise<unknown>;`;
    tools[tool.name] = { declaration, types: [] };
  }
  return { tools, types: {} };
}

/** A file `mcpgen generate` writes beside src/catalog.json (this file is <package>/runtime/features/code/code-mode.ts). */
function packageFile(name: string): URL | undefined {
  const file = new URL(`../../src/${name}`, import.meta.url);
  return existsSync(file) ? file : undefined;
}

/** Close names come only from the tools `visible` to this caller, so a suggestion names no hidden tool. */
function unknownToolText(name: string, catalog: DynamicCatalog, visible: (name: string) => boolean): string {
  const reason = catalog.notEnabled(name, visible);
  if (reason) return `${reason}.`;
  return `Unknown API function api.${name}${didYouMean(name, visibleNames(catalog, visible))}. Use search_docs to find one by what it does.`;
}

const refusal = (message: string): CodeCallOutcome => ({ ok: false, error: { message } });

function failure(text: string, isError = true): ToolHandlerResult {
  return {
    ...(isError ? { isError: true } : {}),
    content: [{ type: "text", text }],
  } as JsonObject as ToolHandlerResult;
}
