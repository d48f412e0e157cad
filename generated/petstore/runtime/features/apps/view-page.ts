// A view's page: one self-contained HTML file (the spec's `text/html;profile=mcp-app`), the shared script and
// styles inline, so the host's default CSP (no network, inline scripts) is all it needs.
import { VIEW_SCRIPT, VIEW_STYLE } from "./view-assets.ts";
import { CONFIG_ELEMENT_ID, type ViewConfig } from "./view-config.ts";

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/** The page of `config`: the API's names and titles in it are text, never markup. */
export function viewPage(config: ViewConfig): string {
  const title = config.title.replace(/[&<>"]/g, (char) => HTML_ESCAPES[char]);
  // A script element ends at the first `</script`, whatever JSON says: every `<` goes as its escape.
  const json = JSON.stringify(config).replace(/</g, "\\u003c");
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${title}</title><style>${VIEW_STYLE}</style></head><body>`,
    '<main id="view" data-state="loading" aria-live="polite"></main>',
    `<script type="application/json" id="${CONFIG_ELEMENT_ID}">${json}</script>`,
    `<script>${VIEW_SCRIPT}</script></body></html>`,
  ].join("");
}
