import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Node 22 for the conformance suite, installed on first use (not at `npm install`: issue 12).
    globalSetup: ["test/setup/node22.ts"],
  },
});
