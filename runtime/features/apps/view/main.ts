// The view's script: reads the page's ViewConfig, greets the host (`ui/initialize`, then `initialized`), and
// renders each tool result it is sent into <main id="view">, as docs/views.md describes.
import type { GeneratedView, ViewConfig } from "../view-config.ts";
import { calledToolConfig, configIn } from "./dispatch.ts";
import { el } from "./dom.ts";
import { isRecord } from "./format.ts";
import { connectHost } from "./host-bridge.ts";
import { openRow } from "./open.ts";
import { type RenderOptions, renderResult, type ToolResult } from "./render.ts";
import type { TableState } from "./table.ts";
import { applyHostContext, formatContextOf, type HostContext, mergeContext, pageSizeOf } from "./theme.ts";

type Shown = { result: ToolResult; title: string; view?: GeneratedView; input: Record<string, unknown> };

const readConfig = (): ViewConfig => configIn(document) ?? { server: "", tool: "", title: document.title };

/** Tells the host the page's size (rounded up to whole pixels) whenever it changes, so it can fit the frame. */
function reportSize(notify: (width: number, height: number) => void): void {
  const root = document.documentElement;
  let last = "";
  new ResizeObserver(() => {
    const box = root.getBoundingClientRect();
    const width = Math.ceil(box.width);
    const height = Math.ceil(box.height);
    if (`${width}x${height}` === last) return;
    last = `${width}x${height}`;
    notify(width, height);
  }).observe(root);
}

function start(): void {
  const main = document.getElementById("view") ?? document.body.appendChild(el("main"));
  const config = readConfig();
  const bridge = connectHost();
  let context: HostContext = {};
  let capabilities: Record<string, unknown> = {};
  let input: Record<string, unknown> = {};
  let shown: Shown | undefined;
  let state: TableState = { page: 1 };
  let sequence = 0; // a newer result wins over an older one still reading its page

  const openLink = (url: string) => void bridge.request("ui/open-link", { url }).catch(() => undefined);
  const options = (): RenderOptions => ({
    title: shown?.title ?? config.title,
    view: shown?.view,
    ctx: formatContextOf(context, capabilities.openLinks ? openLink : undefined),
    pageSize: pageSizeOf(context),
    state,
  });
  const draw = () => {
    if (!shown) return;
    const { view, input: listInput } = shown;
    const link = view?.kind === "table" ? view.open : undefined;
    const server = capabilities.serverResources ? config.server : undefined;
    const open = link && { bridge, main, link, input: listInput, options, server };
    renderResult(main, shown.result, {
      ...options(),
      onOpen: open ? (row, button) => openRow(open, row, button) : undefined,
    });
  };
  const show = async (result: ToolResult) => {
    const mine = ++sequence;
    let next: Shown = { result, title: config.title, view: config.view, input };
    if (config.dispatch && typeof input.name === "string") {
      const args = isRecord(input.arguments) ? input.arguments : {};
      const called = capabilities.serverResources
        ? await calledToolConfig(bridge, config.server, input.name)
        : undefined;
      next = { result, title: called?.title ?? input.name, view: called?.view, input: args };
    }
    if (mine !== sequence) return;
    shown = next;
    state = { page: 1 };
    draw();
  };

  bridge.on("ui/notifications/tool-input", (params) => {
    input = isRecord(params.arguments) ? params.arguments : {};
  });
  bridge.on("ui/notifications/tool-result", (params) => void show(params as ToolResult));
  bridge.on("ui/notifications/tool-cancelled", (params) => {
    sequence++;
    main.dataset.state = "cancelled";
    const reason = typeof params.reason === "string" && params.reason ? `: ${params.reason}` : ".";
    main.replaceChildren(el("p", "cancelled", `The tool call was cancelled${reason}`));
  });
  bridge.on("ui/notifications/host-context-changed", (params) => {
    context = mergeContext(context, params as HostContext);
    applyHostContext(context);
    draw();
  });

  // A host that refuses the handshake will send no result: say so rather than stay "loading" for ever.
  const showFailure = (error: Error) => {
    main.dataset.state = "error";
    const alert = el("p", "error", `The host did not connect the view: ${error.message}`);
    alert.setAttribute("role", "alert");
    main.replaceChildren(alert);
  };
  const appCapabilities = { availableDisplayModes: ["inline", "fullscreen"] };
  const hello = { appInfo: { name: "mcpgen-view", version: "1" }, appCapabilities, protocolVersion: "2026-01-26" };
  bridge.request("ui/initialize", hello).then((result) => {
    capabilities = isRecord(result.hostCapabilities) ? result.hostCapabilities : {};
    context = isRecord(result.hostContext) ? (result.hostContext as HostContext) : {};
    applyHostContext(context);
    bridge.notify("ui/notifications/initialized", {});
    reportSize((width, height) => bridge.notify("ui/notifications/size-changed", { width, height }));
  }, showFailure);
}

start();
