// The views of a server (MCP Apps, SEP-1865): a `ui://<server>/<tool>` resource per tool with a view, named in the
// tool's `_meta.ui` for every client (as the extension's own registerAppTool does: a host without MCP Apps uses the
// tool as any other) and listed in resources/list only to clients whose capabilities take the extension.
import type { Catalog, CatalogTool } from "../../package/catalog-types.ts";
import type { ClientCapabilities, Result } from "../../protocol/types.ts";
import { sharedMethods } from "../../server/methods.ts";
import type { MethodCall } from "../../server/scope.ts";
import type { McpServer } from "../../server/server.ts";
import { LEGACY_URI_KEY, UI_EXTENSION, VIEW_MIME_TYPE, type ViewConfig, viewUri } from "./view-config.ts";
import { viewPage } from "./view-page.ts";

/** The tool of dynamic mode that runs any other: its view shows the called tool's result with that tool's view. */
const CALL_TOOL = "call_tool";
// The pages need nothing from the network: an empty CSP declares exactly that (the spec's restrictive default).
const RESOURCE_META = { ui: { csp: {}, prefersBorder: true } };

export function serveViews(server: McpServer, catalog: () => Catalog): void {
  const { capabilities } = server.options;
  const extensions = { ...capabilities?.extensions, [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } };
  server.options.capabilities = { ...capabilities, extensions };
  // After the catalog's own registrations (deferred before this), so the served tools and a mode's are known.
  server.defer(() => registerViews(server, catalog()), { resources: true });
  // The spec lets a server leave UI-only resources out of resources/list: a client without MCP Apps has no use
  // for HTML pages it cannot show.
  for (const methods of Object.values(server.methods)) {
    const resources = methods["resources/list"] ?? sharedMethods["resources/list"];
    methods["resources/list"] = { ...resources, run: viewsIfNegotiated(resources.run) };
  }
}

/** Whether the client said it renders views: `extensions["io.modelcontextprotocol/ui"].mimeTypes` has ours. */
export function rendersViews(capabilities: ClientCapabilities): boolean {
  const settings = capabilities.extensions?.[UI_EXTENSION];
  return Array.isArray(settings?.mimeTypes) && settings.mimeTypes.includes(VIEW_MIME_TYPE);
}

/** resources/list without the views for a client without the extension. */
function viewsIfNegotiated(run: (call: MethodCall) => Promise<Result>) {
  return async (call: MethodCall): Promise<Result> => {
    const result = await run(call);
    if (rendersViews(call.scope.clientCapabilities)) return result;
    const resources = result.resources as Array<{ mimeType?: string }>;
    return { ...result, resources: resources.filter((resource) => resource.mimeType !== VIEW_MIME_TYPE) };
  };
}

function registerViews(server: McpServer, { tools }: Catalog): void {
  const serverName = server.info.name;
  const config = (tool: CatalogTool): ViewConfig => ({
    server: serverName,
    tool: tool.name,
    title: tool.title ?? tool.name,
    ...(tool.view && tool.view.kind !== "html" ? { view: tool.view } : {}),
  });
  const viewed = tools.filter((tool) => tool.view && server.tools.has(tool.name));
  for (const tool of viewed) {
    const { view } = tool;
    registerView(server, tool, () => (view?.kind === "html" ? view.html : viewPage(config(tool))));
  }
  // Dynamic mode lists call_tool in place of the API's tools: its view shows whichever tool it called.
  const callTool = server.tools.get(CALL_TOOL);
  if (!callTool?.forwardsTo || viewed.length === 0) return;
  const uri = viewUri(serverName, CALL_TOOL);
  callTool._meta = { ...callTool._meta, ui: { resourceUri: uri }, [LEGACY_URI_KEY]: uri };
  const page = { server: serverName, tool: CALL_TOOL, title: "Tool result", dispatch: true } as const;
  registerView(server, { name: CALL_TOOL, title: "call_tool" }, () => viewPage(page));
}

/** The resource of one view; its page is made on the first read (a large API has a view per tool). */
function registerView(server: McpServer, tool: Pick<CatalogTool, "name" | "title" | "scopes">, make: () => string) {
  const uri = viewUri(server.info.name, tool.name);
  let page: string | undefined;
  server.resource({
    uri,
    name: `${tool.name}_view`,
    title: `${tool.title ?? tool.name} (view)`,
    description: `How people see the results of the tool ${tool.name} (MCP Apps)`,
    mimeType: VIEW_MIME_TYPE,
    _meta: RESOURCE_META,
    ...(tool.scopes ? { scopes: tool.scopes } : {}),
    read: () => {
      page ??= make();
      return { contents: [{ uri, mimeType: VIEW_MIME_TYPE, text: page, _meta: RESOURCE_META }] };
    },
  });
}
