// The spec fuzz suite (spec-fuzz-suite.ts) with the type-check: the packages of the saved regressions and
// the largest of the seeded random documents compile under `tsc --strict`, in one run.
import { fuzzSuite } from "./spec-fuzz-suite.ts";

fuzzSuite({ compile: true });
