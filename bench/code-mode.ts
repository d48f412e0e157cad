// `npm run bench:code`: what code mode saves an agent's context, and what its sandbox costs (issue 15).
// Three multi-step GitHub tasks are really run against the generated GitHub server behind Prism, in
// all, dynamic and code mode, each by the official SDK client over stdio, and every token the agent's
// context receives is counted (o200k): tools/list, then each call's name and arguments and the text of
// its result. Prism's answers go through a caching proxy, so the three modes see the same upstream data.
// Then the sandbox overhead: an execute on a fresh server (cold), a warm one, and a bridged call, each
// against a direct tools/call of the same tool. Writes the `code-mode` section of bench/RESULTS.md.
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { startPrism } from "../test/openapi/prism.ts";
import { startCachingProxy } from "./lib/caching-proxy.ts";
import { type Agent, TASKS } from "./lib/code-mode-tasks.ts";
import { BIN, CORPORA, NODE, RESULTS_FILE, ROOT, SCRATCH } from "./lib/paths.ts";
import { renderSection, type Section, writeSections } from "./lib/results-file.ts";
import { summarize } from "./lib/stats.ts";

const { values } = parseArgs({ options: { "no-write": { type: "boolean", default: false } } });
const MODES = ["all", "dynamic", "code"] as const;
type Mode = (typeof MODES)[number];
type Obj = Record<string, unknown>;

const github = CORPORA.find((corpus) => corpus.id === "github");
if (!github) throw new Error("no github corpus in bench/lib/paths.ts");
const out = `${SCRATCH}code-mode/github`;
mkdirSync(out, { recursive: true });
// Every feature: the three modes, and the response budget that cuts large answers (the tokens measured).
const generateArgs = ["generate", github.file, "--out", out, "--quiet", "--features", "all"];
const generated = spawnSync(NODE, [BIN.mcpgen, ...generateArgs], { encoding: "utf8" });
if (generated.status !== 0) throw new Error(`mcpgen generate exited ${generated.status}: ${generated.stderr}`);

const prism = await startPrism(github.file, { dynamic: true, startTimeoutMs: 300_000 });
const proxy = await startCachingProxy(prism.url, { fillPages: true });
// A failed step must not leave Prism running.
const stopOnFailure = (error: unknown) => {
  process.stderr.write(`${(error as Error)?.stack ?? error}\n`);
  void proxy.close();
  void prism.stop().finally(() => process.exit(1));
};
process.once("uncaughtException", stopOnFailure);
process.once("unhandledRejection", stopOnFailure);
const tokens = (value: unknown) => countTokens(typeof value === "string" ? value : JSON.stringify(value));
const resultText = (result: Obj) => (result.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("\n");

async function connect(mode: Mode): Promise<Client> {
  const client = new Client({ name: "bench-code-mode", version: "1.0.0" });
  const args = ["--import", "tsx", `${out}/src/server.ts`, "--base-url", proxy.url, "--mode", mode];
  // Code mode would ask the user before each write; the bench's tasks are run unattended.
  if (mode === "code") args.push("--allow-destructive");
  const env = { ...process.env, GITHUB_V3_REST_API_TOKEN: "t" } as Record<string, string>;
  await client.connect(new StdioClientTransport({ command: NODE, args, cwd: ROOT, env, stderr: "pipe" }));
  return client;
}

/** Tokens of the whole tools/list, every page of it (all mode pages GitHub's 1,223 tools). */
async function listCost(client: Client): Promise<number> {
  let total = 0;
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    total += tokens({ tools: page.tools, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return total;
}

/** Runs one task in one mode; the tokens the agent's context received, and how many calls it made. */
async function runTask(
  task: (typeof TASKS)[number],
  mode: Mode,
): Promise<{ tokens: number; calls: number; items?: unknown }> {
  const client = await connect(mode);
  let total = await listCost(client);
  let calls = 0;
  const call = async (name: string, args: Obj) => {
    const result = (await client.callTool({ name, arguments: args })) as Obj;
    calls++;
    total += tokens({ name, arguments: args }) + tokens(resultText(result));
    if (result.isError) throw new Error(`${task.id}/${mode}: ${name} failed: ${resultText(result)}`);
    return result;
  };
  const described = new Set<string>();
  const agent: Agent = {
    async find(query, tool) {
      if (mode === "all") return; // every definition is in tools/list already
      if (mode === "code") return void (await call("search_docs", { query, limit: 3 }));
      await call("search_tools", { query, limit: 5 });
      if (!described.has(tool)) await call("describe_tools", { names: [tool] });
      described.add(tool);
    },
    async call(tool, args) {
      const result = mode === "all" ? await call(tool, args) : await call("call_tool", { name: tool, arguments: args });
      // The answer is the first text block (a cut answer has a note after it).
      return result.structuredContent ?? JSON.parse((result.content as Array<{ text: string }>)[0].text);
    },
  };
  try {
    if (mode === "code") {
      for (const [query, tool] of task.searches) await agent.find(query, tool);
      await call("execute", { code: task.code });
      return { tokens: total, calls };
    }
    const items = await task.run(agent);
    return { tokens: total, calls, items };
  } finally {
    await client.close();
  }
}

const taskRows: string[][] = [];
for (const task of TASKS) {
  const measured = {} as Record<Mode, { tokens: number; calls: number; items?: unknown }>;
  for (const mode of MODES) measured[mode] = await runTask(task, mode);
  const calls = (n: number) => `${n} ${n === 1 ? "call" : "calls"}`;
  const cell = (mode: Mode) => `${measured[mode].tokens.toLocaleString("en-US")} (${calls(measured[mode].calls)})`;
  const saved = (mode: Mode) => `${(measured[mode].tokens / measured.code.tokens).toFixed(1)}×`;
  const items = String(measured.all.items);
  taskRows.push([task.title, items, cell("all"), cell("dynamic"), cell("code"), saved("all"), saved("dynamic")]);
  process.stderr.write(`${task.id}: ${MODES.map((m) => `${m} ${measured[m].tokens}`).join(", ")}\n`);
}

/** Wall time of one tools/call, ms. */
async function timed(client: Client, name: string, args: Obj): Promise<number> {
  const started = performance.now();
  const result = (await client.callTool({ name, arguments: args })) as Obj;
  if (result.isError) throw new Error(`${name} failed: ${resultText(result)}`);
  return performance.now() - started;
}

const ROUNDS = 30;
const BRIDGED = 20;
const code = await connect("code");
const cold = await timed(code, "execute", { code: "return 1;" });
const direct = summarize(await sequence(ROUNDS, () => timed(code, "meta_get-zen", {})));
const warm = summarize(await sequence(ROUNDS, () => timed(code, "execute", { code: "return 1;" })));
const loop = `for (let i = 0; i < ${BRIDGED}; i++) await api["meta_get-zen"]({});\nreturn ${BRIDGED};`;
const bridgedRuns = summarize(await sequence(10, () => timed(code, "execute", { code: loop })));
await code.close();
const bridged = Math.max(0, bridgedRuns.median - warm.median) / BRIDGED;
await proxy.close();
await prism.stop();

async function sequence(rounds: number, run: () => Promise<number>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) times.push(await run());
  return times;
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const section: Section = {
  id: "code-mode",
  title: "Code mode: tokens an agent's context receives, and the sandbox's cost (GitHub)",
  intro: [
    "`npm run bench:code` (bench/code-mode.ts, tasks in bench/lib/code-mode-tasks.ts): each task really run against the generated GitHub server behind Prism (`-d --seed 1`, every answer cached so the three modes see the same data), by the official SDK client over stdio. Counted in o200k tokens: tools/list, then every call's name and arguments and its result's text. All mode calls the tools directly; dynamic mode runs search_tools + describe_tools once per tool, then call_tool per step; code mode runs search_docs per tool, then one execute.",
  ],
  tables: [
    {
      headers: ["task", "items listed", "all mode", "dynamic mode", "code mode", "all ÷ code", "dynamic ÷ code"],
      rows: taskRows,
    },
    {
      headers: ["sandbox", "time (median)", "÷ direct tools/call"],
      rows: [
        ["direct tools/call of meta_get-zen (reference)", fmt(direct.median), "1.0×"],
        ["execute `return 1`, first on a fresh server (cold)", fmt(cold), `${(cold / direct.median).toFixed(1)}×`],
        ["execute `return 1`, warm", fmt(warm.median), `${(warm.median / direct.median).toFixed(1)}×`],
        [
          `one bridged api["meta_get-zen"]() (execute of ${BRIDGED} calls, minus a warm execute, ÷ ${BRIDGED})`,
          fmt(bridged),
          `${(bridged / direct.median).toFixed(2)}×`,
        ],
      ],
    },
  ],
  notes: [
    "Items listed: how many issues or pull requests the task's list call gave the agent. Prism generates one item per list; the proxy fills each list answer up to the page the call asks for (`per_page`, else 10) with renumbered copies, as a real repository's page would be full (bench/lib/caching-proxy.ts). The response budget (25,000 tokens) then applies as in real use: Prism's issues each carry a whole repository object, so the labels task's page of 30 reaches the agent, in every mode, as its first 3 with a note on how to fetch the rest.",
    "Times are of the whole round trip from the client over stdio; Prism's answers come from the cache after the first, so they measure the server, not Prism.",
  ],
};
if (values["no-write"]) process.stdout.write(`${renderSection(section)}\n`);
else writeSections(RESULTS_FILE, [section]);
