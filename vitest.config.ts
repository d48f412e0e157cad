import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one on CI's 2 cores. Most suites wait on child
    // processes and sockets rather than compute, so two files at a time halve the wall time there.
    maxWorkers: 2,
    // Node 22 for the conformance suite, installed on first use (not at `npm install`: issue 12).
    globalSetup: ["test/setup/node22.ts"],
  },
});
