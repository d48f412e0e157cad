// The host's context (spec "Theming", "Container Dimensions", "Display Modes") applied to the page: theme and
// style variables on <html>, the host's fonts, the size the container allows, and the page size per mode.
import type { FormatContext } from "./format.ts";

type Dimensions = { height?: number; maxHeight?: number; width?: number; maxWidth?: number };
export type HostContext = {
  theme?: "light" | "dark";
  styles?: { variables?: Record<string, string | undefined>; css?: { fonts?: string } };
  displayMode?: "inline" | "fullscreen" | "pip";
  containerDimensions?: Dimensions;
  locale?: string;
  timeZone?: string;
  [key: string]: unknown;
};

const FONTS_ID = "mcpgen-host-fonts";

function applyDimensions(root: CSSStyleDeclaration, dims: Dimensions | undefined): void {
  for (const name of ["height", "max-height", "width", "max-width"]) root.removeProperty(name);
  if (!dims) return;
  // Fixed: fill the container; flexible: grow with the content up to the maximum; omitted: unbounded.
  if ("height" in dims) root.setProperty("height", "100vh");
  else if (dims.maxHeight) root.setProperty("max-height", `${dims.maxHeight}px`);
  if ("width" in dims) root.setProperty("width", "100vw");
  else if (dims.maxWidth) root.setProperty("max-width", `${dims.maxWidth}px`);
}

function applyFonts(fonts: string | undefined): void {
  if (typeof fonts !== "string") return;
  let style = document.getElementById(FONTS_ID);
  if (!style) {
    style = document.createElement("style");
    style.id = FONTS_ID;
    document.head.append(style);
  }
  style.textContent = fonts;
}

export function applyHostContext(context: HostContext): void {
  const html = document.documentElement;
  // The host's theme, else the system's: the styles read only data-theme.
  const system = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  const theme = context.theme === "light" || context.theme === "dark" ? context.theme : system;
  html.dataset.theme = theme;
  html.style.colorScheme = theme;
  html.dataset.display = context.displayMode ?? "inline";
  // Only custom properties: a host's `color` or `display` key must not restyle the page's root.
  for (const [key, value] of Object.entries(context.styles?.variables ?? {})) {
    if (key.startsWith("--") && typeof value === "string") html.style.setProperty(key, value);
  }
  applyFonts(context.styles?.css?.fonts);
  applyDimensions(html.style, context.containerDimensions);
}

/** The host's context after a `host-context-changed`: its fields replace ours, the rest stay. */
export function mergeContext(current: HostContext, change: HostContext): HostContext {
  const styles = change.styles
    ? {
        variables: { ...current.styles?.variables, ...change.styles.variables },
        css: { ...current.styles?.css, ...change.styles.css },
      }
    : current.styles;
  return { ...current, ...change, styles };
}

/** Rows a page: a short table inline, a long one when the host gives the view the screen. */
export const pageSizeOf = (context: HostContext) => (context.displayMode === "fullscreen" ? 100 : 25);

export const formatContextOf = (context: HostContext, openLink?: (url: string) => void): FormatContext => ({
  locale: context.locale,
  timeZone: context.timeZone,
  openLink,
});
