// The generated deploy/nginx.conf is a configuration nginx accepts (`nginx -t`), for the example specs and
// for a spec whose tool names try to write directives. Here rather than in npm test: it needs nginx.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderNginxConfig } from "../../generator/render/nginx-config.ts";
import { REPO_ROOT } from "../conformance/harness.ts";
import { model, tool } from "../render/model.ts";
import { freePort } from "../support/free-port.ts";
import { nginxConfigError, startNginx } from "../support/nginx.ts";

// The access log's directory is the system's (/var/log/nginx); nginx -t would want to open it.
const checked = (config: string) => nginxConfigError(config.replace(/access_log [^;]+;/, "access_log off;"));

describe("deploy/nginx.conf passes nginx -t", () => {
  it.each(["weather", "petstore", "notes", "tasks"])("generated/%s", (name) => {
    const config = readFileSync(join(REPO_ROOT, "generated", name, "deploy/nginx.conf"), "utf8");
    expect(checked(config)).toBeUndefined();
  });

  it("with 1,500 resendable tools (their keys split under nginx's token limit)", () => {
    const many = model({
      tools: Array.from({ length: 1500 }, (_, i) =>
        tool(`tool.number_${i}-of_a_large_api`, { annotations: { readOnlyHint: true } }),
      ),
    });
    expect(checked(renderNginxConfig(many, "# header"))).toBeUndefined();
  });

  it("with hostile tool names, which are left out", () => {
    const hostile = model({
      tools: [tool('x" 1; } server { listen 1; } map $a $b { "', { annotations: { readOnlyHint: true } })],
    });
    expect(checked(renderNginxConfig(hostile, "# header"))).toBeUndefined();
  });
});

/**
 * Issue 27 item 13: nginx compares plain map keys ignoring case, so the key for read-only `purge` matched
 * `Mcp-Name: PURGE` (another, destructive tool) and nginx resent it. The generated map, in a real nginx
 * that answers with the value it chose.
 */
describe("deploy/nginx.conf routes tool names case-sensitively", () => {
  it("resends read-only purge, never PURGE", async () => {
    const clash = model({ tools: [tool("purge", { annotations: { readOnlyHint: true } }), tool("PURGE")] });
    const map = /^ {4}map "\$http_mcp_method:\$http_mcp_name" \$mcp_retry_safe \{\n[\s\S]*?^ {4}\}$/m.exec(
      renderNginxConfig(clash, "# header"),
    )?.[0];
    expect(map).toBeDefined();
    const port = await freePort();
    const config = `events {}\nhttp {\n    access_log off;\n${map}\n    server {\n        listen 127.0.0.1:${port};\n        location / { return 200 "$mcp_retry_safe"; }\n    }\n}\n`;
    const nginx = await startNginx(config, port);
    try {
      const routed = async (method: string, name: string) => {
        const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
          headers: { "Mcp-Method": method, "Mcp-Name": name },
        });
        return await response.text();
      };
      expect(await routed("tools/call", "purge")).toBe("1");
      expect(await routed("tools/call", "PURGE")).toBe("0");
      expect(await routed("tools/call", "Purge")).toBe("0");
      expect(await routed("TOOLS/CALL", "purge")).toBe("0");
      expect(await routed("tools/list", "")).toBe("1");
    } finally {
      await nginx.stop();
    }
  });
});
