// Code mode's confirmation of a destructive `api.<tool>(args)` call (code-mode.ts). The user is shown the
// tool and its arguments, and the answer is bound to exactly those: its MRTR key is a digest of the tool
// and the canonical arguments, and an answer to such a key counts only when the sealed requestState says
// it was asked (server/mrtr.ts). In the 2026 era the retry runs the code again; a run that then picks another target
// (an upstream read, Math.random) makes another key, so the user is asked again rather than the first
// "yes" being spent on a call nobody saw.
import { createHash } from "node:crypto";
import type { CatalogTool } from "../../package/catalog-types.ts";
import type { ElicitResult } from "../../protocol/types.ts";
import { CONFIRMATION_KEY_PREFIX, canonicalJson, InputRequiredSignal } from "../../server/mrtr.ts";
import type { HandlerContext } from "../../server/types.ts";

/** The most characters of arguments a question shows; the rest is counted, not shown. */
export const MAX_SHOWN_ARGUMENTS = 400;

/** What one execute remembers across its calls: whether a destructive call ran, and keys used so far. */
export type ConfirmState = { destructiveRan: boolean; used: Map<string, number> };

/**
 * Asks the client to confirm a destructive call: undefined when it may run, the reason it may not, or
 * the 2026-era signal that the question must go to the client first (an MRTR round).
 */
export async function confirmCall(
  tool: CatalogTool,
  args: unknown,
  ctx: HandlerContext,
  allowDestructive: boolean,
  state: ConfirmState,
): Promise<string | InputRequiredSignal | undefined> {
  if (allowDestructive) return undefined;
  if (!ctx.clientCapabilities.elicitation)
    return `${tool.name} is a destructive tool: this client cannot confirm it (no elicitation), so the server must run with --allow-destructive (MCP_ALLOW_DESTRUCTIVE=1) for code to call it`;
  const message = `The code wants to call the destructive tool ${tool.name} with ${shownArguments(args)}. Allow it?`;
  const key = confirmationKey(tool.name, args, state);
  try {
    const request = { method: "elicitation/create" as const, params: { message, requestedSchema: EMPTY_FORM } };
    const answer = (await ctx.requestInputs({ [key]: request }))[key] as ElicitResult | undefined;
    if (answer?.action === "accept") return undefined;
    return `The user declined the call of the destructive tool ${tool.name} (${answer?.action ?? "no answer"})`;
  } catch (error) {
    if (!(error instanceof InputRequiredSignal)) throw error;
    // The retry runs the code again from the start: a destructive call made before this one would run twice.
    if (state.destructiveRan)
      return `${tool.name} needs confirmation after another destructive call in the same execute, which this client's protocol (MRTR) cannot give without running that call again: make one destructive call per execute, or run the server with --allow-destructive`;
    return error;
  }
}

const EMPTY_FORM = { type: "object" as const, properties: {} };

/**
 * `confirm-<digest of tool and arguments>-<n>`: the n-th identical call of one run gets its own key, so
 * one "yes" allows one call, never a repeat of it.
 */
function confirmationKey(name: string, args: unknown, state: ConfirmState): string {
  const digest = createHash("sha256")
    .update(canonicalJson({ tool: name, arguments: args ?? {} }))
    .digest("base64url")
    .slice(0, 32);
  const n = state.used.get(digest) ?? 0;
  state.used.set(digest, n + 1);
  return `${CONFIRMATION_KEY_PREFIX}${digest}-${n}`;
}

/**
 * The arguments as the user reads them: JSON with invisible, bidi-override and line-breaking characters
 * written as \u escapes and runs of spaces counted (so padding cannot push the real value out of sight
 * or reorder what is shown), cut at MAX_SHOWN_ARGUMENTS characters with the rest counted.
 */
export function shownArguments(args: unknown): string {
  const json = JSON.stringify(args ?? {}) ?? "{}";
  const visible = json
    .replace(/[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\p{Zs}/gu, escapeChar)
    .replace(/ {3,}/g, (run) => ` [${run.length} spaces] `);
  if (visible.length <= MAX_SHOWN_ARGUMENTS) return visible;
  // Not between the halves of a surrogate pair.
  const end = /[\uDC00-\uDFFF]/.test(visible[MAX_SHOWN_ARGUMENTS]) ? MAX_SHOWN_ARGUMENTS - 1 : MAX_SHOWN_ARGUMENTS;
  return `${visible.slice(0, end)}… (${visible.length - end} more characters not shown)`;
}

function escapeChar(char: string): string {
  const code = char.codePointAt(0) as number;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`;
}
