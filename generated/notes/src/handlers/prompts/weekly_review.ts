// Handler for the prompt "weekly_review".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { GetPromptResult, SpecContext } from "../../../runtime/handler-api.ts";
import { allNotes } from "../../notes-store.ts";
import type { WeeklyReviewPromptArgs } from "../../types.ts";

export default async function promptWeeklyReview(
  args: WeeklyReviewPromptArgs,
  _ctx: SpecContext,
): Promise<GetPromptResult> {
  const weekAgo = Date.now() - 7 * 24 * 3600 * 1000;
  const recent = allNotes().filter((note) => Date.parse(note.createdAt) >= weekAgo);
  const list = recent.map((note) => `- ${note.title}`).join("\n") || "(no notes this week)";
  const focus = args.focus ? ` Focus on ${args.focus}.` : "";
  return {
    messages: [
      { role: "user", content: { type: "text", text: `Review my notes from this week:\n${list}\n${focus}`.trim() } },
    ],
  };
}
