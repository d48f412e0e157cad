// call_tool's view (dynamic mode): the result is the called tool's, so its view is that tool's page's config,
// read through the host (`resources/read`) and pulled out of the page without running it.
import { CONFIG_ELEMENT_ID, type ViewConfig, viewUri } from "../view-config.ts";
import type { HostBridge } from "./host-bridge.ts";

/** The ViewConfig a document carries (the page's own, or one parsed), or undefined when it has none. */
export function configIn(page: Document): ViewConfig | undefined {
  const text = page.getElementById(CONFIG_ELEMENT_ID)?.textContent;
  if (!text) return undefined;
  try {
    const config = JSON.parse(text) as ViewConfig;
    return typeof config === "object" && config !== null ? config : undefined;
  } catch {
    return undefined;
  }
}

/** The ViewConfig a page's HTML carries, or undefined (the user's own page, or not HTML). DOMParser builds an
 * inert document: the page's scripts never run here. */
export const configOfPage = (html: string) => configIn(new DOMParser().parseFromString(html, "text/html"));

/** The called tool's ViewConfig, or undefined (no page, no resource reads through this host): then infer. */
export async function calledToolConfig(bridge: HostBridge, server: string, tool: string) {
  try {
    const result = await bridge.request("resources/read", { uri: viewUri(server, tool) });
    const contents = (result.contents ?? []) as Array<{ text?: unknown }>;
    const text = contents[0]?.text;
    return typeof text === "string" ? configOfPage(text) : undefined;
  } catch {
    return undefined;
  }
}
