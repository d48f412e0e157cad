// `npm run test:scale`: scale-out checks with real nginx and Redis (issue 18), several server processes
// each; kept out of `npm test` for their length. `.ci/run` installs nginx and redis-server when missing.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.scale.ts"],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    pool: "forks",
    // One file at a time: each starts several servers, nginx and Redis, and some measure load.
    maxWorkers: 1,
  },
});
