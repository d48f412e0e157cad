// JSON Schema compilation for hand-written servers and clients (tests, fixtures).
// Generated servers ship precompiled ajv standalone validators instead, so the
// server core never imports this module and never compiles at start-up.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { Validator } from "./types.ts";

// ajv-formats is CommonJS; depending on the loader its default export may be wrapped once more.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

let shared: Ajv2020 | undefined;

function ajv(): Ajv2020 {
  if (!shared) {
    // ownProperties: a property the schema names is read from the arguments themselves, never through
    // their prototype (an absent optional `constructor` is absent, a `__proto__` key is checked as data).
    shared = new Ajv2020({ allErrors: true, strict: false, ownProperties: true });
    addFormats(shared);
  }
  return shared;
}

/** Compiles a JSON Schema (2020-12 by default) into a validator of the ajv standalone shape. */
export function compileSchema(schema: object): Validator {
  return ajv().compile(schema) as Validator;
}
