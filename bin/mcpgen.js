#!/usr/bin/env node
// mcpgen is written in TypeScript and run through tsx, so the repository needs no build step.
import { register } from "tsx/esm/api";

register();
await import("../generator/cli.ts");
