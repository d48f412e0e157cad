/**
 * Issue 11, items 1, 2 and 17: what an OpenAPI `$ref` may read. Each case runs the real CLI
 * (`node bin/mcpgen.js`) in a child process with a heap cap and a deadline. A `$ref` may read regular
 * files inside the document's directory (or an --allow-ref-root), within one byte budget (--max-size)
 * shared by every file; URLs only with --allow-remote-refs, https only unless --allow-insecure-refs.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchDir } from "../generate/support.ts";
import { aliasBomb } from "./arbitraries-openapi.ts";
import { expectControlled, runMcpgen } from "./cli-run.ts";

const CANARY = "canary-7f3a9c41e2";
const info = { title: "refs", version: "1.0.0" };
const servers = [{ url: "https://api.example.com" }];

/** One GET operation whose description, example and response schema are the given `$ref`s. */
function document(refs: { description?: string; example?: string; schema?: string }): unknown {
  const schema = refs.schema ? { $ref: refs.schema } : { type: "object" };
  return {
    openapi: "3.0.3",
    info,
    servers,
    paths: {
      "/leak": {
        get: {
          operationId: "leak",
          ...(refs.description ? { description: { $ref: refs.description } } : {}),
          parameters: [
            {
              name: "q",
              in: "query",
              schema: { type: "string", ...(refs.example ? { example: { $ref: refs.example } } : {}) },
            },
          ],
          responses: { 200: { description: "ok", content: { "application/json": { schema } } } },
        },
      },
    },
  };
}

/** Every file under a directory, concatenated (empty when nothing was written). */
function everything(dir: string): string {
  if (!existsSync(dir)) return "";
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8"))
    .join("\n");
}

describe("$ref targets (issue 11: items 1, 2, 17)", () => {
  const base = scratchDir("ref-targets");
  const root = join(base, "root");
  const outside = join(base, "outside");
  let counter = 0;
  const spec = (doc: unknown) => {
    const path = join(root, `doc-${counter++}.json`);
    writeFileSync(path, JSON.stringify(doc));
    return path;
  };
  const out = () => join(base, `out-${counter++}`);

  beforeAll(() => {
    mkdirSync(root, { recursive: true });
    mkdirSync(outside, { recursive: true });
    mkdirSync(join(root, "sub"));
    writeFileSync(join(outside, "secret.yaml"), `type: string\ndescription: ${CANARY}\n`);
    writeFileSync(join(root, "ok.yaml"), "type: string\ndescription: inside the root\n");
    symlinkSync(join(outside, "secret.yaml"), join(root, "link-out.yaml"));
    symlinkSync("/dev/zero", join(root, "link-zero.yaml"));
    execFileSync("mkfifo", [join(root, "pipe.yaml")]);
    // 40 MB, sparse: the size is what the limit must see, not the bytes on disk.
    writeFileSync(join(root, "huge.yaml"), "");
    truncateSync(join(root, "huge.yaml"), 40 * 1024 * 1024);
  });

  it("item 1: $ref: /proc/self/environ (description and example) leaks no environment and fails with a diagnostic", async () => {
    const target = out();
    const run = await runMcpgen(
      [
        "generate",
        spec(document({ description: "/proc/self/environ", example: "/proc/self/environ" })),
        "--out",
        target,
      ],
      { env: { MCPGEN_REF_CANARY: CANARY } },
    );
    expectControlled(run);
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toMatch(/doc-\d+\.json:\d+:\d+: error REF_OUTSIDE_ROOT: \$ref '\/proc\/self\/environ'/);
    expect(run.stdout).toContain("--allow-ref-root");
    expect(`${run.stdout}${run.stderr}${everything(target)}`).not.toContain(CANARY);
    expect(existsSync(target)).toBe(false);
  }, 120_000);

  it("item 1: absolute paths, ../ chains, file:// URLs and symlinks out are refused (REF_OUTSIDE_ROOT)", async () => {
    const targets = [
      join(outside, "secret.yaml"),
      "../outside/secret.yaml",
      "sub/../../outside/secret.yaml",
      "%2E%2E/outside/secret.yaml",
      `file://${join(outside, "secret.yaml")}`,
      "link-out.yaml",
      "/etc/passwd",
    ];
    for (const ref of targets) {
      const target = out();
      const run = await runMcpgen(["generate", spec(document({ schema: ref })), "--out", target]);
      expectControlled(run);
      expect(run.code, `${ref}: ${run.stdout}`).toBe(1);
      expect(run.stdout, ref).toContain("REF_OUTSIDE_ROOT");
      expect(`${run.stdout}${everything(target)}`, ref).not.toContain(CANARY);
      expect(`${run.stdout}${everything(target)}`, ref).not.toContain("root:x:0:0");
    }
  }, 240_000);

  it("item 1: files inside the root still resolve; --allow-ref-root widens the root", async () => {
    const inside = await runMcpgen(["generate", spec(document({ schema: "./ok.yaml" })), "--out", out()]);
    expectControlled(inside);
    expect(inside.code, inside.stdout).toBe(0);

    const doc = spec(document({ schema: "../outside/secret.yaml" }));
    const refused = await runMcpgen(["validate", doc]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("REF_OUTSIDE_ROOT");
    const widened = await runMcpgen(["validate", doc, "--allow-ref-root", outside]);
    expectControlled(widened);
    expect(widened.code, widened.stdout).toBe(0);
  }, 120_000);

  it("items 1-2: FIFOs, devices, directories and /proc files are refused at once (REF_NOT_REGULAR_FILE)", async () => {
    // --allow-ref-root / lifts the root rule, so only the file-type rule stands between mcpgen and these.
    const targets = ["pipe.yaml", "/dev/zero", "/dev/urandom", "link-zero.yaml", "sub", "/proc/self/environ"];
    for (const ref of targets) {
      const run = await runMcpgen(["validate", spec(document({ schema: ref })), "--allow-ref-root", "/"], {
        heapMb: 256,
        limitMs: 30_000,
        env: { MCPGEN_REF_CANARY: CANARY },
      });
      expectControlled(run);
      expect(run.code, `${ref}: ${run.stdout}`).toBe(1);
      expect(run.stdout, ref).toContain("REF_NOT_REGULAR_FILE");
      expect(run.stdout).not.toContain(CANARY);
      expect(run.ms, ref).toBeLessThan(20_000);
    }
  }, 240_000);

  it("item 2: a 40 MB referenced file is refused (REF_TOO_LARGE), and the budget counts all files together", async () => {
    const huge = await runMcpgen(["validate", spec(document({ schema: "huge.yaml" }))], { heapMb: 256 });
    expectControlled(huge);
    expect(huge.code, huge.stdout).toBe(1);
    expect(huge.stdout).toContain("REF_TOO_LARGE");
    // Two files of 0.6 MiB: each fits a 1 MiB limit, together they do not.
    const padding = `# ${"x".repeat(600 * 1024)}\n`;
    writeFileSync(join(root, "a.yaml"), `${padding}type: string\n`);
    writeFileSync(join(root, "b.yaml"), `${padding}type: integer\n`);
    const two = spec(document({ description: "a.yaml", schema: "b.yaml" }));
    const over = await runMcpgen(["validate", two, "--max-size", "1"]);
    expectControlled(over);
    expect(over.code, over.stdout).toBe(1);
    expect(over.stdout).toContain("REF_TOO_LARGE");
    const within = await runMcpgen(["validate", two, "--max-size", "2"]);
    expect(within.stdout).not.toContain("REF_TOO_LARGE");
  }, 120_000);

  it("item 2: a YAML alias bomb in a referenced file is refused (YAML_ALIAS_LIMIT), not expanded or walked", async () => {
    writeFileSync(join(root, "bomb.yaml"), aliasBomb());
    const run = await runMcpgen(["generate", spec(document({ schema: "bomb.yaml" })), "--out", out()], {
      heapMb: 512,
      limitMs: 60_000,
    });
    expectControlled(run);
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toMatch(/error YAML_ALIAS_LIMIT: \$ref '.*bomb\.yaml': .*bomb\.yaml:\d+:\d+: aliases expand/);
    expect(run.ms).toBeLessThan(30_000);
  }, 90_000);

  it("item 2: a FIFO or a device given as the spec itself is refused, not read (FILE_NOT_REGULAR, exit 2)", async () => {
    for (const path of [join(root, "pipe.yaml"), "/dev/zero"]) {
      const run = await runMcpgen(["validate", path], { heapMb: 256, limitMs: 30_000 });
      expectControlled(run);
      expect(run.code, run.stdout).toBe(2);
      expect(run.stdout).toContain("FILE_NOT_REGULAR");
      const generated = await runMcpgen(["generate", path, "--out", out()], { heapMb: 256, limitMs: 30_000 });
      expectControlled(generated);
      expect(generated.code, generated.stdout).toBe(2);
    }
  }, 120_000);
});

describe("spec-language $refs (issue 11, item 1)", () => {
  it("never read a file: an external $ref in a schema is SCHEMA_INVALID, whatever it names", async () => {
    const dir = scratchDir("ref-spec-language");
    const file = join(dir, "spec.yaml");
    const refs = ["/etc/passwd", "file:///proc/self/environ", "../../etc/passwd#/x", "/dev/zero"];
    const properties = Object.fromEntries(refs.map((ref, i) => [`p${i}`, { $ref: ref }]));
    const spec = {
      server: { name: "s", version: "1.0.0" },
      tools: [{ name: "t", description: "d", inputSchema: { type: "object", properties } }],
    };
    writeFileSync(file, JSON.stringify(spec));
    const target = join(dir, "out");
    const run = await runMcpgen(["generate", file, "--out", target], { heapMb: 256, limitMs: 60_000 });
    expectControlled(run);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("SCHEMA_INVALID");
    expect(run.stdout).not.toContain("root:x:0:0");
    expect(existsSync(target)).toBe(false);
  }, 90_000);
});

describe("remote $refs (issue 11, item 17)", () => {
  const base = scratchDir("ref-remote");
  let counter = 0;
  const spec = (doc: unknown) => {
    const path = join(base, `doc-${counter++}.json`);
    writeFileSync(path, JSON.stringify(doc));
    return path;
  };
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? "");
    if (req.url === "/pet.yaml") res.end("type: object\nproperties:\n  remoteField: { type: string }\n");
    else if (req.url === "/bomb.yaml") res.end(aliasBomb());
    else if (req.url === "/moved") res.writeHead(302, { location: "/pet.yaml" }).end();
    else if (req.url === "/to-file") res.writeHead(302, { location: "file:///etc/passwd" }).end();
    else if (req.url === "/huge") {
      const chunk = Buffer.alloc(1024 * 1024, 97);
      let sent = 0;
      const write = () => {
        while (sent < 40) {
          sent++;
          if (!res.write(chunk)) return void res.once("drain", write);
        }
        res.end();
      };
      write();
    } else if (req.url === "/slow") {
      // Never answers; the request is closed by the client's time limit (or by close() below).
    } else res.writeHead(404).end();
  });
  let origin = "";
  beforeAll(async () => {
    server.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });
  const REMOTE = ["--allow-remote-refs", "--allow-insecure-refs"];

  it("with --allow-remote-refs --allow-insecure-refs, an http $ref (and a redirect) is fetched into the package", async () => {
    for (const path of ["/pet.yaml", "/moved"]) {
      const target = join(base, `out-${counter++}`);
      const run = await runMcpgen([
        "generate",
        spec(document({ schema: `${origin}${path}` })),
        "--out",
        target,
        ...REMOTE,
      ]);
      expectControlled(run);
      expect(run.code, `${path}: ${run.stdout}${run.stderr}`).toBe(0);
      expect(everything(target)).toContain("remoteField");
    }
  }, 120_000);

  it("without --allow-insecure-refs, http is refused with REF_INSECURE and nothing is fetched", async () => {
    const before = hits.length;
    const run = await runMcpgen(["validate", spec(document({ schema: `${origin}/pet.yaml` })), "--allow-remote-refs"]);
    expectControlled(run);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/error REF_INSECURE: plain-http \$ref refused: http:\/\/127\.0\.0\.1:\d+\/pet\.yaml/);
    expect(run.stdout).toContain("--allow-insecure-refs");
    expect(hits.length).toBe(before);
  }, 60_000);

  it("redirects, sizes and time stay within the rules: file:// target, 40 MB body, a server that never answers", async () => {
    const redirect = await runMcpgen(["validate", spec(document({ schema: `${origin}/to-file` })), ...REMOTE]);
    expectControlled(redirect);
    expect(redirect.code).toBe(1);
    expect(redirect.stdout).toContain("redirected from");
    expect(redirect.stdout).not.toContain("root:x:0:0");

    const bomb = await runMcpgen(["validate", spec(document({ schema: `${origin}/bomb.yaml` })), ...REMOTE], {
      limitMs: 60_000,
    });
    expectControlled(bomb);
    expect(bomb.code).toBe(1);
    expect(bomb.stdout).toContain("YAML_ALIAS_LIMIT");

    const huge = await runMcpgen(["validate", spec(document({ schema: `${origin}/huge` })), ...REMOTE], {
      heapMb: 256,
    });
    expectControlled(huge);
    expect(huge.code).toBe(1);
    expect(huge.stdout).toContain("REF_TOO_LARGE");

    const slow = await runMcpgen(
      ["validate", spec(document({ schema: `${origin}/slow` })), ...REMOTE, "--ref-timeout", "1"],
      { limitMs: 30_000 },
    );
    expectControlled(slow);
    expect(slow.code).toBe(1);
    expect(slow.stdout).toContain("REF_TIMEOUT");
    expect(slow.ms).toBeLessThan(20_000);
  }, 120_000);
});
