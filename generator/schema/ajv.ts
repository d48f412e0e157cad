/**
 * ajv's classes and the ajv-formats plugin, typed once. Both packages are CommonJS with a `default`
 * property; under NodeNext a default import would give the module object, so take the named exports.
 */
import { Ajv as AjvDraft07 } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import formatsModule from "ajv-formats";

export { Ajv2020, AjvDraft07 };
export type AnyAjv = AjvDraft07 | Ajv2020;

const plugin = formatsModule as unknown as { default?: (ajv: AnyAjv) => AnyAjv } & ((ajv: AnyAjv) => AnyAjv);
export const addFormats: (ajv: AnyAjv) => AnyAjv = plugin.default ?? plugin;

/**
 * Options every ajv in mcpgen gets. `ownProperties`: a property the schema names is looked up on the
 * instance itself, never through its prototype, so an optional `constructor` or `toString` that the
 * caller left out is absent (not Object.prototype's function), and a `__proto__` key is checked as data.
 */
export const OWN_PROPERTIES = { ownProperties: true } as const;
