// A validator loading its precompiled chunk on first use: a server over a large API answers `initialize`
// without parsing megabytes of validator code it may never run.
import { ownValue } from "../protocol/codec.ts";
import type { Validator } from "../protocol/types.ts";

export function lazyValidator(load: () => Record<string, Validator>, name: string): Validator {
  let compiled: Validator | undefined;
  const validate = ((data: unknown) => {
    compiled ??= ownValue(load(), name);
    // Only a hand-edited package can get here: the generator writes each name beside its chunk.
    if (typeof compiled !== "function") throw new Error(`validator ${name} is missing from its compiled chunk`);
    return compiled(data);
  }) as Validator;
  // The runtime reads `errors` after a failed call; they live on the compiled function.
  Object.defineProperty(validate, "errors", { get: () => compiled?.errors ?? null });
  return validate;
}
