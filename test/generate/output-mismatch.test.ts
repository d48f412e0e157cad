/**
 * An upstream answer that breaks the tool's outputSchema (issue 33 item 8), against a generated server run as a real
 * process and a real upstream on 127.0.0.1: 400 listed disks whose `format: byte` fingerprint is not base64.
 * A direct tools/call stays an error (clients check structuredContent against the outputSchema, formats included),
 * with a short note naming the first three problems and the answer after it; code mode's `execute` hands the code the
 * answer itself, with the same note beside its value instead of an 11,000-character exception.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type McpClient } from "../../runtime/client/client.ts";
import { ROOT, scratchDir, serverCommand, startUpstream } from "./support.ts";

const DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "Disks", version: "1.0.0" },
  paths: {
    "/disks": {
      get: {
        operationId: "list_disks",
        summary: "List disks",
        responses: {
          "200": {
            description: "The disks",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: {
                    items: {
                      type: "array",
                      items: {
                        type: "object",
                        properties: { name: { type: "string" }, fingerprint: { type: "string", format: "byte" } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

const DISKS = { items: Array.from({ length: 400 }, (_, i) => ({ name: `disk-${i}`, fingerprint: "not base64!" })) };

let pkg: string;
let upstream: Awaited<ReturnType<typeof startUpstream>>;
beforeAll(async () => {
  const dir = scratchDir("output-mismatch");
  writeFileSync(join(dir, "disks.json"), JSON.stringify(DOCUMENT));
  pkg = join(dir, "pkg");
  const args = ["generate", join(dir, "disks.json"), "--out", pkg, "--features", "code"];
  execFileSync(process.execPath, [join(ROOT, "bin/mcpgen.js"), ...args], { cwd: ROOT, stdio: "pipe" });
  upstream = await startUpstream({ "GET /disks": () => ({ json: DISKS }) });
}, 60_000);
afterAll(() => upstream?.close());

const texts = (result: { content?: unknown }) => (result.content as Array<{ text: string }>).map((block) => block.text);

async function withClient(mode: string, run: (client: McpClient) => Promise<void>): Promise<void> {
  const client = await connect({ ...serverCommand(pkg, ["--base-url", upstream.url, "--mode", mode]), cwd: ROOT });
  try {
    await run(client);
  } finally {
    await client.close();
  }
}

describe("an answer that breaks the outputSchema", () => {
  it("is an error result with a short note (three problems and a count) followed by the answer", async () => {
    await withClient("all", async (client) => {
      const result = await client.callTool("list_disks", {});
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      const [note, answer] = texts(result);
      expect(note).toMatch(/^The upstream API's answer does not match this tool's outputSchema \(/);
      expect(note).toContain('/items/0/fingerprint must match format "byte"');
      expect(note).toContain("(and 397 more)");
      expect(note.length).toBeLessThan(400);
      expect(JSON.parse(answer)).toEqual(DISKS);
    });
  });

  it("reaches execute's code as the answer, with the note beside the code's value", async () => {
    await withClient("code", async (client) => {
      const code = "const disks = await api.list_disks({}); return disks.items.length;";
      const result = await client.callTool("execute", { code });
      expect(result.isError ?? false).toBe(false);
      const [value, notes] = texts(result);
      expect(JSON.parse(value)).toBe(400);
      expect(notes).toMatch(/^notes:\napi\.list_disks: the answer does not match the tool's outputSchema \(/);
      expect(notes.length).toBeLessThan(500);
    });
  });
});
