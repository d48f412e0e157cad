// call_tool's view (dynamic mode): the result is the called tool's, so its view is that tool's page's config,
// read through the host (`resources/read`) and pulled out of the page without running it.
import { CONFIG_ELEMENT_ID, type ViewConfig, viewUri } from "../view-config.ts";
import type { HostBridge } from "./host-bridge.ts";

/** The ViewConfig a page carries, or undefined when it has none (the user's own page) or is not HTML. */
export function configOfPage(html: string): ViewConfig | undefined {
  // DOMParser builds an inert document: the page's scripts never run here.
  const page = new DOMParser().parseFromString(html, "text/html");
  const text = page.getElementById(CONFIG_ELEMENT_ID)?.textContent;
  if (!text) return undefined;
  try {
    const config = JSON.parse(text) as ViewConfig;
    return typeof config === "object" && config !== null ? config : undefined;
  } catch {
    return undefined;
  }
}

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
