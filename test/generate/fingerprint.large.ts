/**
 * No-change regeneration answers from `.mcpgen/fingerprint.json` without running the pipeline, and
 * anything that could change the outcome takes the full path again: an edited spec or generated
 * file, a new or deleted handler, an external $ref. Each case compares with what the full path says.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { FINGERPRINT_FILE, fingerprintKey, readFingerprint } from "../../generator/output/fingerprint.ts";
import { OutputDir } from "../../generator/output/output-dir.ts";
import { OWNERSHIP_FILE } from "../../generator/output/ownership.ts";
import { scratchDir } from "./support.ts";

const SPEC = `server: { name: fp, version: 1.0.0, registryName: io.github.mcpgen-examples/fp }
tools:
  - name: greet
    description: Says hello.
    inputSchema: { type: object, properties: { name: { type: string } }, required: [name] }
  - name: shout
    inputSchema: { type: object }
`;

let dir: string;
let spec: string;
let out: string;
const drift = (r: Awaited<ReturnType<typeof generate>>) => ({
  changed: r.outcome?.changed,
  created: r.outcome?.created,
  removed: r.outcome?.removed,
});
const none = { changed: [], created: [], removed: [] };

beforeEach(async () => {
  dir = scratchDir("fingerprint");
  spec = join(dir, "spec.yaml");
  out = join(dir, "out");
  writeFileSync(spec, SPEC);
  const first = await generate(spec, out);
  expect(first.outcome?.created).toHaveLength(2);
});

describe("no-change regeneration", () => {
  it("answers from the fingerprint, with the same outcome and diagnostics as the full path", async () => {
    expect(existsSync(join(out, FINGERPRINT_FILE))).toBe(true);
    // Only the fingerprint is machine state; the ownership record is committed with the package.
    expect(readFileSync(join(out, ".mcpgen/.gitignore"), "utf8")).toBe("fingerprint.json\n");
    expect(existsSync(join(out, OWNERSHIP_FILE))).toBe(true);
    const fast = await generate(spec, out);
    expect(drift(fast)).toEqual(none);
    rmSync(join(out, FINGERPRINT_FILE));
    const full = await generate(spec, out);
    expect(fast).toEqual(full);
    expect(await generate(spec, out, { check: true })).toEqual(full);
  });

  it("replays warnings and obsolete handlers, as the full path reports them", async () => {
    writeFileSync(spec, SPEC.replace("  - name: shout\n    inputSchema: { type: object }\n", ""));
    await generate(spec, out);
    rmSync(join(out, FINGERPRINT_FILE));
    const full = await generate(spec, out);
    expect(full.diagnostics.map((d) => d.code)).toEqual(["HANDLER_OBSOLETE"]);
    const fast = await generate(spec, out);
    expect(fast).toEqual(full);
  });

  it("restores a generated file edited by hand, and --check sees the edit first", async () => {
    const types = join(out, "src/types.ts");
    const original = readFileSync(types, "utf8");
    writeFileSync(types, `${original}// edited\n`);
    expect(drift(await generate(spec, out, { check: true }))).toEqual({ ...none, changed: ["src/types.ts"] });
    expect(drift(await generate(spec, out))).toEqual({ ...none, changed: ["src/types.ts"] });
    expect(readFileSync(types, "utf8")).toBe(original);
  });

  it("recreates a deleted handler scaffold, removes a file mcpgen wrote, and keeps the user's own", async () => {
    rmSync(join(out, "src/handlers/tools/greet.ts"));
    writeFileSync(join(out, "runtime/stray.ts"), "export {};\n");
    // A runtime file an earlier run wrote and this mcpgen no longer has.
    const record = JSON.parse(readFileSync(join(out, OWNERSHIP_FILE), "utf8"));
    writeFileSync(
      join(out, OWNERSHIP_FILE),
      JSON.stringify({ ...record, generated: [...record.generated, "runtime/gone.ts"] }),
    );
    writeFileSync(join(out, "runtime/gone.ts"), "export {};\n");
    expect(drift(await generate(spec, out))).toEqual({
      ...none,
      created: ["src/handlers/tools/greet.ts"],
      removed: ["runtime/gone.ts"],
    });
    expect(existsSync(join(out, "runtime/stray.ts"))).toBe(true);
  });

  it("takes the full path when a user file under src/ changes, and replays handler type errors otherwise", async () => {
    const handler = join(out, "src/handlers/tools/greet.ts");
    writeFileSync(handler, `${readFileSync(handler, "utf8")}export const broken: number = "text";\n`);
    const full = await generate(spec, out);
    expect(full.diagnostics.map((d) => d.code)).toContain("HANDLER_TYPE_ERROR");
    // The full run recompiled the handler's dist/ twin; the replay writes nothing, dist/ included.
    const { distWritten, ...replayed } = full;
    expect(distWritten).toBe(1);
    expect(await generate(spec, out)).toEqual(replayed);
    writeFileSync(join(out, "src/lib.ts"), "export const x = 1;\n");
    expect(readFingerprint(new OutputDir(out))?.user).not.toHaveProperty("src/lib.ts");
    await generate(spec, out);
    expect(readFingerprint(new OutputDir(out))?.user).toHaveProperty("src/lib.ts");
  });

  it("regenerates after the spec changes", async () => {
    writeFileSync(spec, SPEC.replace("Says hello.", "Says hello, politely."));
    const result = await generate(spec, out);
    expect(result.outcome?.changed).toEqual(expect.arrayContaining(["src/catalog.json", "README.md"]));
  });

  it("keys on the spec's bytes, its path from the package and the options; an unreadable spec has none", () => {
    expect(fingerprintKey(join(dir, "missing.yaml"), "../missing.yaml", {})).toBeUndefined();
    const key = fingerprintKey(spec, "../spec.yaml", {});
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprintKey(spec, "../elsewhere/spec.yaml", {})).not.toBe(key);
    expect(fingerprintKey(spec, "../spec.yaml", { openapi: { include: ["tag:x"], exclude: [] } })).not.toBe(key);
  });

  it("keeps no fingerprint for an OpenAPI document whose $refs reach other files, and does for an OData path", async () => {
    const doc = (paths: string, schema: unknown) =>
      JSON.stringify({
        openapi: "3.0.3",
        info: { title: "t", version: "1.0.0" },
        servers: [{ url: "https://api.example.com" }],
        paths: {
          [paths]: {
            get: {
              operationId: "get",
              responses: { 200: { description: "ok", content: { "application/json": { schema } } } },
            },
          },
        },
      });
    writeFileSync(
      join(dir, "other.json"),
      JSON.stringify({ a: { type: "object", properties: { x: { type: "string" } } } }),
    );
    writeFileSync(join(dir, "external.json"), doc("/a", { $ref: "other.json#/a" }));
    const external = await generate(join(dir, "external.json"), join(dir, "external-out"));
    expect(external.outcome?.changed.length).toBeGreaterThan(0);
    expect(existsSync(join(dir, "external-out", FINGERPRINT_FILE))).toBe(false);
    // "$ref" in a path (OData's /owners/$ref) is not a reference.
    writeFileSync(join(dir, "odata.json"), doc("/owners/$ref", { type: "object" }));
    await generate(join(dir, "odata.json"), join(dir, "odata-out"));
    expect(existsSync(join(dir, "odata-out", FINGERPRINT_FILE))).toBe(true);
  });
});
