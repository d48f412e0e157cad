// What a view page carries for its script, and the names the MCP Apps extension (SEP-1865) fixes. Shared by the
// page builder (view-page.ts) and the view's own script (view/), which reads the config from the page.
import type { ToolView } from "../../package/catalog-types.ts";

export const UI_EXTENSION = "io.modelcontextprotocol/ui";
export const VIEW_MIME_TYPE = "text/html;profile=mcp-app";
/** The deprecated flat `_meta` key the spec still names; hosts of early 2026 read only it. */
export const LEGACY_URI_KEY = "ui/resourceUri";
/** The id of the page's `<script type="application/json">` holding its ViewConfig. */
export const CONFIG_ELEMENT_ID = "mcpgen-view";

export type GeneratedView = Exclude<ToolView, { kind: "html" }>;

/** One page's settings: whose result it shows, and how (`view` absent: chosen from the answer's shape). */
export type ViewConfig = {
  server: string; // the server's name: its views are ui://<server>/<tool>
  tool: string;
  title: string; // the tool's title, else its name
  view?: GeneratedView;
  /** call_tool's view (dynamic mode): shows the called tool's result with that tool's view, read through the host. */
  dispatch?: true;
};

/** A tool's view URI (a tool name is URI-safe: MCP's tool names are letters, digits, `_`, `-`, `.`). */
export const viewUri = (server: string, tool: string) => `ui://${encodeURIComponent(server)}/${tool}`;

/** A property's key in words, its label where the schema gives no title: "created_at", "createdAt" → "Created at". */
export function labelFromKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.]+/g, " ")
    .trim()
    .toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : key;
}
