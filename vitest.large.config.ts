// `npm run test:large`: the slow end-to-end checks kept out of `npm test` (all of GitHub's REST API).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.large.ts"],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: "forks",
  },
});
