/**
 * Issue 15, the sandbox (runtime/features/code/code-sandbox.ts): the agent's code in QuickJS-wasm against a fake
 * host bridge (an in-process function; the real server is code mode's own end-to-end test). Values, logs
 * and API calls first, then the hostile corpus as a table: each row ends with a clear result within its
 * limit, and the next run still works. Small limits (8 MB; 300 ms where a run is meant to time out) keep
 * the file fast; a run meant to end some other way gets 10 s, so a loaded machine never turns it into a timeout.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCodeSandbox } from "../../../../runtime/features/code/code-sandbox.ts";
import { GRACE_MS } from "../../../../runtime/features/code/code-sandbox-thread.ts";
import {
  CODE_LIMIT_DEFAULTS,
  type CodeBridge,
  type CodeCallOutcome,
  type CodeFailureKind,
  type CodeLimits,
  type CodeSandbox,
} from "../../../../runtime/features/code/code-sandbox-types.ts";

const limits: CodeLimits = { timeoutMs: 10_000, memoryBytes: 8 * 1024 * 1024, maxCalls: 20, maxOutputChars: 20_000 };
/** The limits of a run that is meant to time out. */
const short: CodeLimits = { ...limits, timeoutMs: 300 };
const MARGIN_MS = 1_000;

type Seen = { name: string; args: unknown }[];

/** A host bridge over in-process functions, recording what the sandbox asked for. */
function fakeBridge(seen: Seen = [], delayMs = 1): CodeBridge {
  const tools: Record<string, (args: Record<string, unknown>) => CodeCallOutcome> = {
    issues_get: (args) => ({ ok: true, value: { number: args.issue_number, title: `Issue ${args.issue_number}` } }),
    issues_list: () => ({
      ok: true,
      value: [
        { number: 1, labels: ["wontfix"] },
        { number: 2, labels: [] },
      ],
    }),
    repos_get: () => ({ ok: false, error: { status: 404, message: "Not Found" } }),
  };
  return {
    names: Object.keys(tools),
    call(name, args, signal) {
      seen.push({ name, args });
      if (delayMs === 0) return Promise.resolve(tools[name](args as Record<string, unknown>));
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(tools[name](args as Record<string, unknown>)), delayMs);
        signal.addEventListener("abort", () => clearTimeout(timer));
      });
    },
  };
}

let sandbox: CodeSandbox;
/** The first sandbox of the process loads the wasm module: that is the cold start. */
let coldLoadMs = 0;
let coldRunMs = 0;
beforeAll(async () => {
  const started = performance.now();
  sandbox = await createCodeSandbox();
  coldLoadMs = performance.now() - started;
  const first = performance.now();
  await sandbox.run("return 1", fakeBridge(), limits);
  coldRunMs = performance.now() - first;
});
afterAll(() => sandbox.dispose());

const run = (code: string, bridge = fakeBridge(), l = limits) => sandbox.run(code, bridge, l);

describe("values, logs and API calls", () => {
  it.each([
    ["return 1 + 2", 3],
    ["return { a: [1, 'x', true], b: null }", { a: [1, "x", true], b: null }],
    ["return [1, [2, [3]]]", [1, [2, [3]]]],
    ["return null", null],
    ["return undefined", null],
    ["const x = 1", null],
    ["return () => 1", null],
    ["await null; return 'after await'", "after await"],
  ])("%s", async (code, value) => {
    const result = await run(code);
    expect(result).toMatchObject({ ok: true, value, calls: 0 });
  });

  it("captures console lines: strings as they are, objects as JSON", async () => {
    const result = await run(
      "console.log('a', 1, { b: 2 }); console.warn([1]); console.error(new Error('e')); return 0",
    );
    expect(result).toMatchObject({ ok: true, logs: ['a 1 {"b":2}', "[1]", "Error: e"] });
  });

  it("calls the host in sequence and in Promise.all, arguments copied as JSON", async () => {
    const seen: Seen = [];
    const code = `
      const list = await api.issues_list({ owner: "o", repo: "r" });
      const stale = list.filter((i) => i.labels.includes("wontfix"));
      const more = await Promise.all([1, 2].map((n) => api.issues_get({ owner: "o", repo: "r", issue_number: n })));
      return { stale: stale.map((i) => i.number), titles: more.map((i) => i.title) };`;
    const result = await run(code, fakeBridge(seen));
    expect(result).toMatchObject({ ok: true, value: { stale: [1], titles: ["Issue 1", "Issue 2"] }, calls: 3 });
    expect(seen.map((s) => s.name)).toEqual(["issues_list", "issues_get", "issues_get"]);
    expect(seen[1].args).toEqual({ owner: "o", repo: "r", issue_number: 1 });
  });

  it("runs in parallel keep to themselves", async () => {
    const code = (n: number) =>
      `globalThis.mine = ${n}; const got = await api.issues_get({ issue_number: ${n} }); return [mine, got.number];`;
    const results = await Promise.all([1, 2, 3].map((n) => run(code(n))));
    expect(results.map((r) => (r.ok ? r.value : r.message))).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
  });

  it("an isError result rejects with a plain { status, message } the code can catch", async () => {
    const code = `try { await api.repos_get({}); } catch (e) { return [e instanceof Error, e.status, e.message]; }`;
    expect(await run(code)).toMatchObject({ ok: true, value: [false, 404, "Not Found"] });
    const uncaught = await run("await api.repos_get({})");
    expect(uncaught).toMatchObject({ ok: false, kind: "error", message: "Not Found (status 404)" });
  });

  it.each([
    ["api.issues_delete({})", "api.issues_delete is not available"],
    ["api['constructor']()", "api.constructor is not available"],
    ["new Proxy(api, {}).secret_tool()", "api.secret_tool is not available"],
    ["Reflect.get(api, 'x')()", "api.x is not available"],
  ])("a name that is not exposed rejects naming it: %s", async (call, fragment) => {
    const seen: Seen = [];
    const result = await run(`await ${call}`, fakeBridge(seen));
    expect(result).toMatchObject({ ok: false, kind: "error", calls: 0 });
    expect(result.ok ? "" : result.message).toContain(fragment);
    expect(seen).toEqual([]);
  });
});

type Row = { name: string; code: string; kind: CodeFailureKind; fragment: string; line?: number };

const hostile: Row[] = [
  { name: "while(true){}", code: "while (true) {}", kind: "timeout", fragment: "Timed out" },
  {
    name: "a regular expression that backtracks for ever",
    code: 'return /(a+)+$/.test("a".repeat(40) + "b");',
    kind: "timeout",
    fragment: "Timed out",
  },
  {
    name: "for(;;){} after an await",
    code: "await api.issues_list({});\nfor (;;) {}",
    kind: "timeout",
    fragment: "300 ms",
  },
  {
    name: "array growth",
    code: "const a = []; for (let i = 0; ; i++) a.push({ i, text: 'item ' + i });",
    kind: "memory",
    fragment: "Out of memory",
  },
  { name: "string doubling", code: "let s = 'x'; for (;;) s += s;", kind: "memory", fragment: "" },
  {
    name: "string doubling, flattened",
    code: "let s = 'x'.repeat(4096); for (;;) s = (s + s).toUpperCase();",
    kind: "memory",
    fragment: "Out of memory",
  },
  {
    name: "deep recursion",
    code: "function f(n) { return f(n + 1) + 1 }\nreturn f(0);",
    kind: "memory",
    fragment: "Stack overflow",
    line: 1,
  },
  {
    name: "nested JSON.stringify",
    code: "let a = []; for (let i = 0; i < 1e5; i++) a = [a]; return JSON.stringify(a).length;",
    kind: "memory",
    fragment: "Stack overflow",
  },
  {
    name: "deeply nested source",
    code: `return ${"(".repeat(5000)}1${")".repeat(5000)};`,
    kind: "memory",
    fragment: "Stack overflow",
  },
  { name: "process", code: "return process.env", kind: "error", fragment: "'process' is not defined" },
  { name: "require", code: "return require('fs')", kind: "error", fragment: "'require' is not defined" },
  { name: "import('fs')", code: "return await import('fs')", kind: "error", fragment: "could not load module 'fs'" },
  {
    name: "constructor.constructor",
    code: "return globalThis.constructor.constructor('return process')()",
    kind: "error",
    fragment: "'process' is not defined",
  },
  {
    name: "Function('return this') finds no host object",
    code: "const g = Function('return this')();\nconst found = ['process', 'require', 'module', 'fetch', 'setTimeout', 'Deno', 'Bun', 'std', 'os'].filter((k) => k in g);\nthrow new Error('found: [' + found.join(',') + ']');",
    kind: "error",
    fragment: "Error: found: []",
    line: 3,
  },
  { name: "huge logs", code: "for (;;) console.log('x'.repeat(1000));", kind: "output", fragment: "logs passed 20000" },
  { name: "huge value", code: "return 'x'.repeat(30000);", kind: "output", fragment: "Output too large" },
  {
    name: "thousands of API calls",
    code: "const all = []; for (let i = 0; i < 5000; i++) all.push(api.issues_get({ issue_number: i }).catch((e) => e)); await Promise.all(all); return 'done';",
    kind: "calls",
    fragment: "Too many API calls: the limit is 20",
  },
  { name: "throw a string", code: "throw 'plain string'", kind: "error", fragment: "plain string" },
  { name: "throw a number", code: "throw 42", kind: "error", fragment: "42" },
  { name: "throw null", code: "throw null", kind: "error", fragment: "null" },
  { name: "throw an object", code: "throw { code: 7 }", kind: "error", fragment: '{"code":7}' },
  {
    name: "throw with a line",
    code: "const a = 1;\nconst b = 2;\nnull.x;",
    kind: "error",
    fragment: "TypeError",
    line: 3,
  },
  {
    name: "a cycle",
    code: "const o = {}; o.self = o; return o;",
    kind: "error",
    fragment: "cannot be converted to JSON",
  },
  { name: "a BigInt", code: "return { n: 10n };", kind: "error", fragment: "cannot be converted to JSON" },
  {
    name: "a promise that never settles",
    code: "await new Promise(() => {});",
    kind: "timeout",
    fragment: "Timed out",
  },
  {
    name: "an endless microtask chain",
    code: "const f = () => Promise.resolve().then(f); f(); await new Promise(() => {});",
    kind: "timeout",
    fragment: "Timed out",
  },
  {
    name: "async recursion",
    code: "const f = async (n) => (await f(n + 1)) + 1; return await f(0);",
    kind: "memory",
    fragment: "Stack overflow",
  },
  { name: "a syntax error", code: "const a = 1;\nlet = = 2;", kind: "syntax", fragment: "SyntaxError", line: 2 },
  {
    name: "a hostile toJSON",
    code: "return { toJSON() { for (;;) {} } };",
    kind: "timeout",
    fragment: "Timed out",
  },
];

describe("the hostile corpus: a clear result within the limit, and the next run works", () => {
  it.each(hostile)("$name", async ({ code, kind, fragment, line }) => {
    const within = kind === "timeout" ? short : limits;
    const started = performance.now();
    const result = await run(code, fakeBridge(), within);
    const elapsed = performance.now() - started;
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect({ kind: result.kind, hasFragment: result.message.includes(fragment) }).toEqual({ kind, hasFragment: true });
    if (line !== undefined) expect(result.line).toBe(line);
    expect(elapsed).toBeLessThan(within.timeoutMs + MARGIN_MS);
    expect(await run("return 'still serving'")).toMatchObject({ ok: true, value: "still serving" });
  });

  it("huge logs keep their first part", async () => {
    const result = await run("for (let i = 0; ; i++) console.log('line ' + i);");
    expect(result).toMatchObject({ ok: false, kind: "output" });
    expect(result.logs.slice(0, 2)).toEqual(["line 0", "line 1"]);
    expect(result.logs.join("").length).toBe(limits.maxOutputChars);
  });

  it("a timeout aborts the pending calls' signal", async () => {
    let aborted = false;
    const bridge: CodeBridge = {
      names: ["slow"],
      call: (_name, _args, signal) =>
        new Promise((resolve) =>
          signal.addEventListener("abort", () => {
            aborted = true;
            resolve({ ok: true, value: 1 });
          }),
        ),
    };
    const result = await run("return await api.slow({})", bridge, short);
    expect(result).toMatchObject({ ok: false, kind: "timeout", calls: 1 });
    expect(aborted).toBe(true);
  });

  it("prototype pollution stays in its run and never reaches the host", async () => {
    const seen: Seen = [];
    const code = `
      Object.prototype.polluted = 1;
      Array.prototype.push = () => 0;
      JSON.parse = () => ({ hijacked: true });
      try { api.__proto__.x = 1; } catch {}
      try { api.issues_get = () => 'replaced'; } catch {}
      try { Object.getPrototypeOf(api.issues_get).call = () => 'replaced'; } catch {}
      const got = await api.issues_get({ issue_number: 5 });
      return { got, replaced: api.issues_get === undefined };`;
    const result = await run(code, fakeBridge(seen));
    expect(result).toMatchObject({ ok: true, value: { got: { number: 5, title: "Issue 5" }, replaced: false } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(seen[0].args)).toBe(Object.prototype);
    expect(Object.hasOwn(seen[0].args as object, "polluted")).toBe(false);
    const next = await run("return [({}).polluted, typeof JSON.parse('{}').hijacked, [1].push(2)]");
    expect(next).toMatchObject({ ok: true, value: [null, "undefined", 2] });
  });

  it("arguments with __proto__ keys arrive as plain data", async () => {
    const seen: Seen = [];
    await run(
      `return api.issues_get(JSON.parse('{"__proto__": {"admin": true}, "issue_number": 1}'))`,
      fakeBridge(seen),
    );
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect((seen[0].args as Record<string, unknown>).issue_number).toBe(1);
  });

  it("the caller's AbortSignal cancels a run waiting on a call", async () => {
    const controller = new AbortController();
    const slow = fakeBridge([], 10_000);
    const pending = sandbox.run(
      "return await api.issues_list({})",
      slow,
      { ...limits, timeoutMs: 5_000 },
      controller.signal,
    );
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ ok: false, kind: "error", message: "The execute was cancelled." });
  });

  it("a bridge that throws synchronously rejects the call with a plain { message }, like any failed call", async () => {
    const bridge: CodeBridge = {
      names: ["broken"],
      call: () => {
        throw new Error("host exploded");
      },
    };
    const code = "try { await api.broken({}); } catch (e) { return [e.message, String(e.stack)]; }";
    const result = await run(code, bridge);
    expect(result).toMatchObject({ ok: true, value: ["host exploded", "undefined"], calls: 1 });
  });

  it("the defaults hold a normal run", async () => {
    expect(await run("return 1", fakeBridge(), CODE_LIMIT_DEFAULTS)).toMatchObject({ ok: true, value: 1 });
  });
});

describe("threads: the engine never holds the server's thread", () => {
  it("an endless loop leaves the host's event loop running and other executes answering", async () => {
    const own = await createCodeSandbox({ threads: 2 });
    try {
      // The loop runs 3 s; on the server's thread it would stop every timer and the other execute for that long.
      let last = performance.now();
      let longestGap = 0;
      const ticker = setInterval(() => {
        longestGap = Math.max(longestGap, performance.now() - last);
        last = performance.now();
      }, 10);
      let loopDone = false;
      const loop = own.run("while (true) {}", fakeBridge(), { ...limits, timeoutMs: 3_000 }).finally(() => {
        loopDone = true;
      });
      const quick = await own.run("return 42", fakeBridge(), limits);
      const answeredDuringLoop = !loopDone;
      const looped = await loop;
      clearInterval(ticker);
      expect(quick).toMatchObject({ ok: true, value: 42 });
      expect(answeredDuringLoop).toBe(true);
      expect(looped).toMatchObject({ ok: false, kind: "timeout" });
      // On the server's thread the gap would be the whole 3 s; a loaded machine may still delay a timer.
      expect(longestGap).toBeLessThan(2_500);
    } finally {
      own.dispose();
    }
  });

  it("a cancel during a busy loop ends the thread after the grace period, and the next execute runs", async () => {
    const own = await createCodeSandbox({ threads: 1 });
    try {
      const controller = new AbortController();
      const started = performance.now();
      const pending = own.run("while (true) {}", fakeBridge(), { ...limits, timeoutMs: 20_000 }, controller.signal);
      setTimeout(() => controller.abort(), 100);
      expect(await pending).toMatchObject({ ok: false, message: "The execute was cancelled; its thread was ended." });
      expect(performance.now() - started).toBeLessThan(100 + GRACE_MS + 2 * MARGIN_MS);
      expect(await own.run("return 'next'", fakeBridge(), limits)).toMatchObject({ ok: true, value: "next" });
    } finally {
      own.dispose();
    }
  });

  it("with every thread busy an execute waits for one, and gives up with a clear message after its timeout and the grace", async () => {
    const own = await createCodeSandbox({ threads: 1 });
    try {
      // A waiting execute waits its own timeout plus GRACE_MS: 1,100 ms is too short, 4,000 ms long enough.
      const first = own.run("while (true) {}", fakeBridge(), { ...limits, timeoutMs: 1_500 });
      const waited = own.run("return 'waited'", fakeBridge(), { ...limits, timeoutMs: 3_000 });
      const refused = own.run("return 'never'", fakeBridge(), { ...limits, timeoutMs: 100 });
      expect(await refused).toMatchObject({
        ok: false,
        kind: "error",
        message: expect.stringContaining("The server is busy"),
      });
      expect(await first).toMatchObject({ ok: false, kind: "timeout" });
      expect(await waited).toMatchObject({ ok: true, value: "waited" });
    } finally {
      own.dispose();
    }
  });

  it("a name that is not exposed is refused with the bridge's reason, uncounted", async () => {
    const bridge: CodeBridge = {
      ...fakeBridge(),
      unavailable: (name) => `${name} is not served: the server runs with --read-only`,
    };
    const result = await run("try { await api.issues_delete({}); } catch (e) { return e.message; }", bridge);
    expect(result).toMatchObject({
      ok: true,
      value: "issues_delete is not served: the server runs with --read-only",
      calls: 0,
    });
  });

  it("after dispose a run answers that the sandbox is closed", async () => {
    const own = await createCodeSandbox({ threads: 1 });
    own.dispose();
    expect(await own.run("return 1", fakeBridge(), limits)).toMatchObject({
      ok: false,
      message: "The sandbox is closed.",
    });
  });
});

describe("overhead (printed for the report, not asserted)", () => {
  it("cold and warm runs", async () => {
    const warm: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await sandbox.run("return 1", fakeBridge(), limits);
      warm.push(performance.now() - t);
    }
    const calls = performance.now();
    await sandbox.run(
      "for (let i = 0; i < 20; i++) await api.issues_get({ issue_number: i });",
      fakeBridge([], 0),
      limits,
    );
    const perCall = (performance.now() - calls) / 20;
    warm.sort((a, b) => a - b);
    console.log(
      `code sandbox: cold load ${coldLoadMs.toFixed(1)} ms + first run ${coldRunMs.toFixed(1)} ms; warm run median ${warm[10].toFixed(2)} ms; per bridged call ~${perCall.toFixed(3)} ms`,
    );
    expect(warm).toHaveLength(20);
  });
});
