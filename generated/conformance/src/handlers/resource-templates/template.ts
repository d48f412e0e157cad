// Handler for the resource template "test://template/{id}/data".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.

export default async function resourceTemplateTemplate(
  uri: string,
  variables: Record<string, string>,
): Promise<ResourceReadResult> {
  const data = { id: variables.id, templateTest: true, data: `Data for ID: ${variables.id}` };
  return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(data) }] };
}

import type { ResourceReadResult } from "../../../runtime/handler-api.ts";
