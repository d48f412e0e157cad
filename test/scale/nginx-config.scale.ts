// The generated deploy/nginx.conf is a configuration nginx accepts (`nginx -t`), for the example specs and
// for a spec whose tool names try to write directives. Here rather than in npm test: it needs nginx.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderNginxConfig } from "../../generator/render/nginx-config.ts";
import { REPO_ROOT } from "../conformance/harness.ts";
import { model, tool } from "../render/model.ts";
import { nginxConfigError } from "../support/nginx.ts";

// The access log's directory is the system's (/var/log/nginx); nginx -t would want to open it.
const checked = (config: string) => nginxConfigError(config.replace(/access_log [^;]+;/, "access_log off;"));

describe("deploy/nginx.conf passes nginx -t", () => {
  it.each(["weather", "petstore", "notes", "tasks"])("generated/%s", (name) => {
    const config = readFileSync(join(REPO_ROOT, "generated", name, "deploy/nginx.conf"), "utf8");
    expect(checked(config)).toBeUndefined();
  });

  it("with hostile tool names, which are left out", () => {
    const hostile = model({
      tools: [tool('x" 1; } server { listen 1; } map $a $b { "', { annotations: { readOnlyHint: true } })],
    });
    expect(checked(renderNginxConfig(hostile, "# header"))).toBeUndefined();
  });
});
