// The test host page's script (bundled by host-page.ts with esbuild): the official host side of MCP Apps,
// @modelcontextprotocol/ext-apps's AppBridge, embedding a view as hosts do (the spec's Lifecycle). The MCP
// connection itself is the test process's (window.hostCall, exposed by puppeteer), as a desktop host's would be.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

const SANDBOX = "allow-scripts";

/**
 * Mounts `html` (a view's page) for a call of `tool` with `input`; via a sandbox proxy when `proxyUrl` is given (with
 * `csp`, the resource's declared domains). `hold` sends the input but keeps the result back, as while a call runs.
 */
window.mountView = async ({ html, tool, input, hostContext, proxyUrl, csp, hold }) => {
  const events = [];
  window.hostEvents = events;
  const iframe = document.createElement("iframe");
  iframe.id = "view";
  iframe.title = "view";
  iframe.style.cssText = "width: 100%; height: 200px; border: 0; display: block";
  // The proxy needs its own (different) origin's scripts; the view itself gets scripts only, an opaque origin.
  iframe.setAttribute("sandbox", proxyUrl ? "allow-scripts allow-same-origin" : SANDBOX);
  document.body.append(iframe);
  const bridge = new AppBridge(
    null,
    { name: "mcpgen-test-host", version: "1.0.0" },
    { serverTools: {}, serverResources: {}, openLinks: {}, logging: {} },
  );
  bridge.setHostContext(hostContext);
  bridge.oncalltool = async (params) => {
    events.push(["tools/call", params]);
    return window.hostCall("tools/call", params);
  };
  bridge.onreadresource = async (params) => {
    events.push(["resources/read", params]);
    return window.hostCall("resources/read", params);
  };
  bridge.onopenlink = async (params) => {
    events.push(["open-link", params]);
    return {};
  };
  bridge.onsizechange = (size) => {
    events.push(["size-changed", size]);
    if (size.height) iframe.style.height = `${Math.ceil(size.height)}px`;
  };
  bridge.oninitialized = async () => {
    events.push(["initialized"]);
    await bridge.sendToolInput({ arguments: input });
    events.push(["tool-input"]);
    if (hold) return;
    const result = await window.hostCall("tools/call", { name: tool, arguments: input });
    await bridge.sendToolResult(result);
    events.push(["tool-result"]);
  };
  window.hostBridge = bridge;
  // Connected before the page loads: its ui/initialize (or the proxy's ready) must find the bridge listening.
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  if (proxyUrl) {
    // The sandbox proxy (the spec's web-host architecture) says when it is ready for the page.
    bridge.onsandboxready = async () => {
      events.push(["sandbox-proxy-ready"]);
      await bridge.sendSandboxResourceReady({ html, csp: csp ?? {} });
    };
    // The proxy's page is served under the view's CSP: the resource's declared domains go with its URL.
    iframe.src = `${proxyUrl}?csp=${encodeURIComponent(JSON.stringify(csp ?? {}))}`;
  } else iframe.srcdoc = html;
};
