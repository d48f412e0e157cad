// The runtime half of `import { defineConfig } from "mcpgen"` (types: define-config.ts). Plain CommonJS,
// so a config loads whether Node treats it as a module or as CommonJS, and without tsx.
"use strict";
exports.defineConfig = (config) => config;
