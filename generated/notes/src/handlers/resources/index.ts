// Handler for the resource "notes://index".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { ResourceReadResult, SpecContext } from "../../../runtime/handler-api.ts";
import { allNotes } from "../../notes-store.ts";

export default async function resourceIndex(uri: string, _ctx: SpecContext): Promise<ResourceReadResult> {
  const index = allNotes().map(({ id, title }) => ({ id, title }));
  return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(index) }] };
}
