// Start-up: from spawn to the first answer over stdio, 2025 era (`initialize`)
// and 2026 era (`server/discover`); idle memory and `tools/list` size. Also
// checks that generated servers never load ajv's schema compiler at start-up
// (they ship precompiled validators).
import { existsSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { CLIENT_INFO, discoverParams, LEGACY_VERSION, type RawConnection } from "../clients/raw-connection.ts";
import { spawnStdio } from "../clients/stdio-client.ts";
import { distEntry, type GeneratedServer, generate, openApiAvailable, type ServerFiles } from "../lib/build.ts";
import { bytes, mib, msSpread, ratio } from "../lib/format.ts";
import { footprintTable } from "../lib/package-footprint.ts";
import { CORPORA, NODE, PETSTORE_SPEC, SCRATCH } from "../lib/paths.ts";
import { vmRss } from "../lib/process.ts";
import type { Section, Table } from "../lib/results-file.ts";
import { alternate, log } from "../lib/rounds.ts";
import { summarize } from "../lib/stats.ts";

type Contender = { id: string; label: string; args: string[]; modern: boolean; ours: boolean };

// Preloaded into every server: reports on stderr when ajv's compiler (not its standalone runtime helpers) loads.
const AJV_PROBE = `data:text/javascript,${encodeURIComponent(
  `import Module from "node:module";
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const exported = load.apply(this, arguments);
  try {
    const file = Module._resolveFilename(request, parent, isMain);
    if (/node_modules[\\\\/]ajv[\\\\/]dist[\\\\/]compile[\\\\/]index\\.js$/.test(file)) process.stderr.write("AJV_COMPILER_LOADED\\n");
  } catch {}
  return exported;
};`,
)}`;

export async function startupSuite(
  servers: ServerFiles,
  echo: GeneratedServer,
  options: { rounds: number },
): Promise<Section> {
  const contenders: Contender[] = [
    { id: "floor", label: "bare node (newline-JSON echo)", args: [servers.rawStdio], modern: true, ours: false },
    { id: "sdk", label: "SDK v1 McpServer, echo tool", args: [servers.sdk], modern: false, ours: false },
    { id: "echo", label: "mcpgen generated: echo (1 tool)", args: [echo.jsEntry], modern: true, ours: true },
    {
      id: "echo-tsx",
      label: "mcpgen generated: echo, run from source with tsx",
      args: ["--import", "tsx", echo.tsEntry],
      modern: true,
      ours: true,
    },
  ];
  const missing: string[] = [];
  const openapi = openApiAvailable(PETSTORE_SPEC);
  let github: GeneratedServer | undefined;
  if (openapi.ok) {
    log("startup: generating and building the Petstore and GitHub packages");
    const petstore = tryBuildGenerated("petstore", PETSTORE_SPEC, missing);
    github = tryBuildGenerated("github", CORPORA.find((corpus) => corpus.id === "github")?.file ?? "", missing);
    if (petstore) {
      const label = "mcpgen generated: Petstore (19 tools)";
      contenders.push({ id: "petstore", label, args: [petstore.jsEntry], modern: true, ours: true });
    }
    if (github) {
      contenders.push({
        id: "github",
        label: "mcpgen generated: GitHub",
        args: [github.jsEntry],
        modern: true,
        ours: true,
      });
    }
  } else {
    missing.push(`Petstore and GitHub servers: not measured: ${openapi.reason}.`);
  }

  const rows: string[][] = [];
  const targets: string[][] = [];
  let sdk = Number.NaN; // SDK v1's initialize median: the reference for both eras (it has no server/discover)
  const FIRST: Record<Step, string> = {
    legacy: "initialize (2025-11-25)",
    modern: "server/discover (2026-07-28)",
    list: "initialize, then tools/list (first page)",
  };
  for (const era of ["legacy", "modern", "list"] as const) {
    const eligible = contenders.filter(
      (contender) => (era !== "modern" || contender.modern) && (era !== "list" || contender.id !== "floor"),
    );
    log(`startup: ${FIRST[era]}, ${eligible.length} servers`);
    const samples = await alternate(options.rounds, eligible, (contender) => timeFirstAnswer(contender, era));
    if (era === "legacy") sdk = summarize(samples.get("sdk")?.map((sample) => sample.ms) ?? []).median;
    for (const contender of eligible) {
      const list = samples.get(contender.id) ?? [];
      const time = summarize(list.map((sample) => sample.ms));
      const compiled = list.some((sample) => sample.compilerLoaded);
      rows.push([
        FIRST[era],
        contender.label,
        msSpread(time),
        contender.id === "sdk" && era === "legacy" ? "1.00×" : ratio(time.median, sdk),
        contender.ours ? (compiled ? "**yes**" : "no") : "–",
      ]);
      // The target is the handshake; the tools/list rows show what a server that reads its catalog on
      // first need (generated packages) pays for it then.
      if (contender.ours && !contender.id.endsWith("-tsx") && era !== "list") {
        const met = time.median <= sdk * 0.4 && !compiled;
        targets.push([
          `start-up ≤ 0.4× SDK v1 initialize (issue 32), no schema compiled: ${contender.label}, ${era === "legacy" ? "initialize" : "server/discover"}`,
          `${ratio(time.median, sdk)}${compiled ? ", compiler loaded" : ""}`,
          met ? "yes" : "**no**",
        ]);
      }
    }
  }
  const table: Table = {
    headers: ["first answer to", "server", "spawn → answer", "vs SDK v1 initialize", "ajv compiler loaded"],
    rows,
  };
  const sections: Table[] = [table, { headers: ["target", "measured", "met"], rows: targets }];
  sections.push(await sizeTable(servers, echo, github));
  log("startup: package footprints (generate, npm install --omit=dev)");
  sections.push(footprintTable(github ? CORPORA.find((corpus) => corpus.id === "github")?.file : undefined));
  return {
    id: "startup",
    title: "Start-up, memory and size",
    intro: [
      `Spawn of \`node <server>.js\` to the first answer on stdout, the request written right after spawn; ${options.rounds} rounds in alternating order. Generated packages run the documented way, \`node dist/server.js\` from the dist/ that \`mcpgen generate\` writes (no build step); the SDK v1 peer is a minimal stdio \`McpServer\` with one tool (bench/servers/sdk-echo.ts) compiled to JavaScript, in the same run; the tsx row is \`node --import tsx src/server.ts\`, what \`npm start\` ran before issue 16. SDK v1 has no 2026 era, so \`server/discover\` rows are compared with its \`initialize\`. "ajv compiler loaded" is detected by a preloaded hook on \`Module._load\` (ajv/dist/compile).`,
    ],
    tables: sections,
    notes: missing,
  };
}

/** Generates a package (dist/ included) (reusing the codegen suite's output of this run when there is one);
 * on failure records why in `missing` (the row then says "not measured"). */
function tryBuildGenerated(name: string, spec: string, missing: string[]): GeneratedServer | undefined {
  const fromCodegen = `${SCRATCH}codegen/mcpgen-${name}`;
  const dir = existsSync(`${fromCodegen}/src/server.ts`) ? fromCodegen : `${SCRATCH}gen/${name}`;
  try {
    // Always generate: a package left by an older mcpgen must not be measured (a no-change rerun is instant).
    generate(spec, dir);
    return { dir, tsEntry: `${dir}/src/server.ts`, jsEntry: distEntry(dir) };
  } catch (error) {
    const lines = (error as Error).message.split("\n").slice(1);
    const reason = lines.find((line) => /error/i.test(line) && !line.includes("triggerUncaught")) ?? lines[0] ?? "";
    missing.push(`${name}: not measured: mcpgen generate failed (${reason.trim().slice(0, 200) || "timed out"}).`);
    log(`startup: ${name} not available: ${reason}`);
    return undefined;
  }
}

type Step = "legacy" | "modern" | "list";

async function timeFirstAnswer(contender: Contender, era: Step): Promise<{ ms: number; compilerLoaded: boolean }> {
  const started = performance.now();
  const connection = spawnStdio({ command: NODE, args: ["--import", AJV_PROBE, ...contender.args] });
  try {
    if (era === "legacy" || era === "list") {
      await connection.call("initialize", {
        protocolVersion: LEGACY_VERSION,
        capabilities: {},
        clientInfo: CLIENT_INFO,
      });
      if (era === "list") {
        await connection.notify("notifications/initialized");
        await connection.call("tools/list", {});
      }
    } else {
      await connection.call("server/discover", discoverParams());
    }
    const elapsed = performance.now() - started;
    await sleep(50); // let a lazily loaded compiler show up too
    return { ms: elapsed, compilerLoaded: connection.stderr().includes("AJV_COMPILER_LOADED") };
  } finally {
    await connection.close();
  }
}

/** Idle RSS after the handshake and a full `tools/list`, and the bytes of that listing (all pages). */
async function sizeTable(servers: ServerFiles, echo: GeneratedServer, github?: GeneratedServer): Promise<Table> {
  const rows: string[][] = [];
  const entries: [string, string][] = [
    ["SDK v1 McpServer, echo tool", servers.sdk],
    ["mcpgen generated: echo (1 tool)", echo.jsEntry],
  ];
  if (github) entries.push(["mcpgen generated: GitHub", github.jsEntry]);
  for (const [label, script] of entries) {
    const connection = spawnStdio({ command: NODE, args: [script] });
    try {
      await connection.call("initialize", {
        protocolVersion: LEGACY_VERSION,
        capabilities: {},
        clientInfo: CLIENT_INFO,
      });
      await connection.notify("notifications/initialized");
      const listing = await listAllTools(connection);
      await sleep(1000);
      rows.push([
        label,
        String(listing.tools),
        bytes(listing.bytes),
        String(listing.pages),
        mib(vmRss(connection.pid)),
      ]);
    } finally {
      await connection.close();
    }
  }
  if (!github) rows.push(["mcpgen generated: GitHub", "not measured (see below)", "–", "–", "–"]);
  return { headers: ["server", "tools", "tools/list bytes (all pages)", "pages", "idle RSS"], rows };
}

async function listAllTools(connection: RawConnection): Promise<{ tools: number; bytes: number; pages: number }> {
  let cursor: string | undefined;
  let total = 0;
  let size = 0;
  let pages = 0;
  do {
    const result = (await connection.call("tools/list", cursor ? { cursor } : {})) as {
      tools: unknown[];
      nextCursor?: string;
    };
    pages++;
    total += result.tools.length;
    size += Buffer.byteLength(JSON.stringify(result));
    cursor = result.nextCursor;
  } while (cursor);
  return { tools: total, bytes: size, pages };
}
