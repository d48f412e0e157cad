#!/usr/bin/env node
// mcpgen is written in TypeScript and run through tsx, so the repository needs no build step.
// (Large specs once restarted with a larger young generation; paired runs on GitHub now show V8's default
// as fast, cold and warm, with less peak memory, so every run is one process.)
const { register } = await import("tsx/esm/api");
register();
// tsx turns source maps on, and Node then reads the source map comment of every module it loads (~0.1 s
// for a large generate). mcpgen never prints a stack trace, so it has no use for them.
process.setSourceMapsEnabled(false);
await import("../generator/cli.ts");
