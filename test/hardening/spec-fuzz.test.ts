// The spec fuzz suite (spec-fuzz-suite.ts) in `npm test`: the saved regressions and 120 seeded random
// documents, each ending in diagnostics or a package. The packages' type-check runs in `test:large`
// (spec-fuzz.large.ts) and, over many more cases, in `npm run test:fuzz`.
import { fuzzSuite } from "./spec-fuzz-suite.ts";

fuzzSuite({ compile: process.env.FUZZ_RUNS !== undefined });
