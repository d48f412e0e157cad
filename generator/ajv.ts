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
