// Branches on the protocol revision live in the revision modules (issue 13 §3): the client, its
// negotiation's callers and the HTTP client transport ask client/revision.ts's revision2025 or revision2026
// what to do, and never test the era themselves. Only negotiation names the modules it chooses between.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const RUNTIME = resolve(import.meta.dirname, "../../runtime");
const ASKS_THE_REVISION = ["client/client.ts", "transport/http/client.ts"];

describe("client revision seam", () => {
  it.each(ASKS_THE_REVISION)("%s does not compare against an era name", (file) => {
    const source = readFileSync(resolve(RUNTIME, file), "utf8");
    // Comments may name an era; code may not compare against one.
    const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    expect(code).not.toMatch(/["'](legacy|modern)["']/);
    expect(code).not.toMatch(/\bera\s*[!=]==/);
  });

  it("each revision module names its own era", async () => {
    const { revision2025, revision2026 } = await import("../../runtime/client/revision.ts");
    expect(revision2025.era).toBe("legacy");
    expect(revision2026.era).toBe("modern");
    expect(revision2025.pingMethod).toBe("ping");
    expect(revision2026.pingMethod).toBe("server/discover");
  });
});
