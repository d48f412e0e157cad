/**
 * Property (issue 11): whatever a `$ref` names (absolute paths, /proc, /dev, FIFOs, symlinks out,
 * ../ chains, file:// URLs, huge files, alias bombs, http URLs that redirect, flood or stall), and wherever it sits
 * (description, example, schema, parameter, or behind a file that refers on), and whichever of
 * --allow-remote-refs, --allow-insecure-refs and --allow-ref-root are given, mcpgen either returns
 * content it may read or fails with well-formed diagnostics: never content from outside the allowed
 * roots, never an exception or a stack trace, always within bounded time and memory.
 * FUZZ_RUNS (npm run test:fuzz) raises the case count (a tenth of it: each case starts a worker).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalog } from "../../generator/diagnostics/catalog.ts";
import { DiagnosticBag } from "../../generator/diagnostics/diagnostic.ts";
import { load } from "../../generator/load.ts";
import { scratchDir } from "../generate/support.ts";
import { aliasBomb, hostileRefTarget, type RefFlags, type RefTarget } from "./arbitraries-openapi.ts";

const RUNS = Math.max(30, Math.round(Number(process.env.FUZZ_RUNS ?? 300) / 10));
const CANARY = "outside-canary-5be1d0";
const CASE_LIMIT_MS = 15_000;
/** More than any legitimate case needs (the budget is 32 MiB), far less than /dev/zero read whole. */
const MEMORY_GROWTH = 512 * 1024 * 1024;

// The upstream of the http targets runs in its own process: bundling blocks this thread while it waits.
const SERVER = `
const { createServer } = require("node:http");
const server = createServer((req, res) => {
  if (req.url === "/pet.yaml") return res.end("type: object\\nproperties:\\n  remoteField: { type: string }\\n");
  if (req.url === "/bomb.yaml") return res.end(${JSON.stringify(aliasBomb())});
  if (req.url === "/moved") return res.writeHead(302, { location: "/pet.yaml" }).end();
  if (req.url === "/to-file") return res.writeHead(302, { location: "file:///etc/passwd" }).end();
  if (req.url === "/to-proc") return res.writeHead(301, { location: "file:///proc/self/environ" }).end();
  if (req.url === "/huge") {
    const chunk = Buffer.alloc(1 << 20, 97);
    let sent = 0;
    const write = () => { while (sent++ < 64) if (!res.write(chunk)) return void res.once("drain", write); res.end(); };
    return write();
  }
  if (req.url === "/slow") return;
  res.writeHead(404).end();
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

const places = ["description", "example", "schema", "parameter", "chain"] as const;

describe("hostile $ref targets (fuzz)", () => {
  const base = scratchDir("ref-fuzz");
  const root = join(base, "root");
  const outside = join(base, "outside");
  let server: ChildProcess | undefined;
  let origin = "";
  let counter = 0;
  let baseline = 0;

  beforeAll(async () => {
    baseline = process.memoryUsage().rss;
    mkdirSync(join(root, "sub"), { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, "secret.yaml"), `type: string\ndescription: ${CANARY}\n`);
    writeFileSync(join(root, "ok.yaml"), "type: string\n");
    writeFileSync(join(root, "bomb.yaml"), aliasBomb());
    execFileSync("mkfifo", [join(root, "pipe.yaml")]);
    writeFileSync(join(root, "huge.yaml"), "");
    truncateSync(join(root, "huge.yaml"), 40 * 1024 * 1024);
    symlinkSync(join(outside, "secret.yaml"), join(root, "link-out.yaml"));
    symlinkSync("/dev/zero", join(root, "link-zero.yaml"));
    symlinkSync("/proc/self/environ", join(root, "link-proc.yaml"));
    symlinkSync(outside, join(root, "link-dir"));
    symlinkSync(join(root, "pipe.yaml"), join(root, "link-pipe.yaml"));
    server = spawn(process.execPath, ["-e", SERVER], { stdio: ["ignore", "pipe", "inherit"] });
    const [port] = await once(server.stdout!, "data");
    origin = `http://127.0.0.1:${String(port).trim()}`;
  });
  afterAll(() => {
    server?.kill();
  });

  function documentWith(target: RefTarget, place: (typeof places)[number]): string {
    const ref = { $ref: target.ref };
    let schema: unknown = { type: "string" };
    let description: unknown = "d";
    let example: unknown;
    let parameter: unknown = { name: "q", in: "query", schema: { type: "string" } };
    if (place === "description") description = ref;
    else if (place === "example") example = ref;
    else if (place === "schema") schema = ref;
    else if (place === "parameter") parameter = ref;
    else {
      const chain = join(root, `chain-${counter}.yaml`);
      writeFileSync(chain, `$ref: ${JSON.stringify(target.ref)}\n`);
      schema = { $ref: `chain-${counter}.yaml` };
    }
    const doc = {
      openapi: "3.0.3",
      info: { title: "refs", version: "1.0.0" },
      servers: [{ url: "https://api.example.com" }],
      paths: {
        "/x": {
          get: {
            operationId: "x",
            description,
            parameters: [parameter, { name: "e", in: "query", schema: { type: "string", example } }],
            responses: { 200: { description: "ok", content: { "application/json": { schema } } } },
          },
        },
      },
    };
    const file = join(root, `doc-${counter++}.json`);
    writeFileSync(file, JSON.stringify(doc));
    return file;
  }

  it(`${RUNS} hostile $ref targets: content only from inside the roots, else diagnostics; bounded`, async () => {
    const flags = fc.record<RefFlags>({
      allowRemote: fc.boolean(),
      allowInsecure: fc.boolean(),
      widenToOutside: fc.boolean(),
    });
    const seen = { refused: 0, read: 0 };
    await fc.assert(
      fc.asyncProperty(
        hostileRefTarget({ root, outside, origin }),
        fc.constantFrom(...places),
        flags,
        async (target, place, flag) => {
          const file = documentWith(target, place);
          const bag = new DiagnosticBag();
          const started = Date.now();
          const loaded = load(file, bag, {
            openapi: {
              ...(flag.allowRemote ? { allowRemoteRefs: true } : {}),
              ...(flag.allowInsecure ? { allowInsecureRefs: true } : {}),
              ...(flag.widenToOutside ? { refRoots: [outside] } : {}),
              refTimeoutMs: 1000,
            },
          });
          const took = Date.now() - started;
          const label = `${target.ref} at ${place} with ${JSON.stringify(flag)}`;
          expect(took, label).toBeLessThan(CASE_LIMIT_MS);
          expect(process.memoryUsage().rss - baseline, label).toBeLessThan(MEMORY_GROWTH);
          for (const d of bag.items) {
            expect(Object.hasOwn(catalog, d.code), d.code).toBe(true);
            expect(d.line >= 1 && d.col >= 1, `${d.code} has a position`).toBe(true);
            expect(d.message, label).not.toMatch(/\n\s+at .*:\d+:\d+|Error: |undefined/);
          }
          const content = JSON.stringify(loaded?.server ?? null);
          if (!target.allowed(flag)) {
            expect(bag.hasErrors, `${label}: no error`).toBe(true);
            expect(content, label).not.toContain(CANARY);
            expect(content, label).not.toContain("root:x:0:0");
            expect(content, label).not.toContain(`PATH=${process.env.PATH}`);
            seen.refused++;
          } else if (!bag.hasErrors) seen.read++;
        },
      ),
      {
        numRuns: RUNS,
        seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : process.env.FUZZ_RUNS ? undefined : 20261123,
      },
    );
    // Both outcomes must occur, or the property tests little.
    expect(seen.refused).toBeGreaterThan(0);
    expect(seen.read).toBeGreaterThan(0);
  }, 900_000);
});
