// The JavaScript that runs inside the sandbox (QuickJS) before the agent's code: it builds `api` and
// `console` from two host functions and returns the helpers the host needs to read results. Everything
// crossing the boundary is a string (JSON): no host object ever enters the sandbox, and nothing the
// code does to its own objects (prototypes, `api`, JSON) can reach the host, which parses the text itself.
//
// Evaluated once per run in a fresh context, as a script (never a module) that yields one function:
//   setup(hostCall, hostLog, namesJson) -> { toJson, describe }
// - hostCall(name, argsJson) -> Promise<string>: JSON of `{ ok: true, value } | { ok: false, error }`.
// - hostLog(line): one captured console line.
// The helpers are captured here, before the agent's code runs, so replacing JSON or Object in the
// sandbox changes only what the agent sees.

export const PRELUDE_FILE = "mcpgen-prelude.js";

export const PRELUDE = `(function setup(hostCall, hostLog, namesJson) {
  "use strict";
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const names = parse(namesJson);
  const exposed = new Set(names);
  const text = (value) => {
    if (typeof value === "string") return value;
    if (typeof value === "object" && value !== null && !(value instanceof Error)) {
      try { const json = stringify(value); if (json !== undefined) return json; } catch (e) {}
    }
    return String(value);
  };
  const line = (...args) => { hostLog(args.map(text).join(" ")); };
  globalThis.console = Object.freeze({ log: line, info: line, warn: line, error: line, debug: line });

  const call = async (name, args) => {
    const json = stringify(args === undefined ? {} : args);
    const outcome = parse(await hostCall(name, json === undefined ? "{}" : json));
    if (outcome.ok) return outcome.value;
    throw outcome.error;
  };
  const tools = Object.create(null);
  for (const name of names) tools[name] = (args) => call(name, args);
  Object.freeze(tools);
  // A Proxy so that api.<anything> is a function: a name that is not exposed goes to the host too, which
  // refuses it with the reason (--read-only, --toolsets, a typo) instead of "undefined is not a function".
  globalThis.api = new Proxy(tools, {
    get(target, key) {
      if (typeof key !== "string") return undefined;
      if (exposed.has(key)) return target[key];
      if (key === "then" || key === "toJSON") return undefined;
      return (args) => call(key, args);
    },
    set() { return false; },
    defineProperty() { return false; },
    deleteProperty() { return false; },
    setPrototypeOf() { return false; },
  });

  const toJson = (value) => {
    if (value === undefined) return "null";
    const json = stringify(value);
    return json === undefined ? "null" : json;
  };
  const describe = (error) => {
    try {
      if (error instanceof Error) {
        return stringify({ message: String(error.name) + ": " + String(error.message), stack: String(error.stack || ""),
          lineNumber: typeof error.lineNumber === "number" ? error.lineNumber : undefined, name: String(error.name) });
      }
      if (typeof error === "object" && error !== null && typeof error.message === "string") {
        const status = typeof error.status === "number" ? " (status " + error.status + ")" : "";
        return stringify({ message: error.message + status });
      }
      if (typeof error === "string") return stringify({ message: error });
      let json;
      try { json = stringify(error); } catch (e) {}
      return stringify({ message: json === undefined ? String(error) : json });
    } catch (e) {
      return stringify({ message: "a value that cannot be described" });
    }
  };
  return { toJson, describe };
})`;

/** Wraps the agent's code as the body of an async function; its line 1 is the wrapper's line 2. */
export function wrapCode(code: string): string {
  return `(async () => {\n${code}\n})()`;
}

export const CODE_FILE = "execute.js";
export const CODE_LINE_OFFSET = 1;
