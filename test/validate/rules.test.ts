import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Code, catalog } from "../../generator/diagnostics/catalog.ts";
import { validateFiles } from "../../generator/index.ts";
import { ruleCases } from "./rule-cases.ts";

const dir = mkdtempSync(join(tmpdir(), "mcpgen-rules-"));

function check(name: string, text: string) {
  const file = join(dir, name);
  writeFileSync(file, text);
  return validateFiles([file]).diagnostics;
}

/** Codes only a real file system can trigger; read-source.test.ts covers them. */
const FILE_CODES: Code[] = [
  "FILE_NOT_FOUND",
  "FILE_IS_DIRECTORY",
  "FILE_UNREADABLE",
  "FILE_TOO_LARGE",
  "FILE_NOT_UTF8",
  "FILE_NOT_REGULAR",
];

/** What a $ref may read: test/hardening/ref-targets.large.ts covers them through the real CLI. */
const REF_CODES: Code[] = ["REF_OUTSIDE_ROOT", "REF_NOT_REGULAR_FILE", "REF_TOO_LARGE", "REF_INSECURE", "REF_TIMEOUT"];

/** Codes about writing a package; test/generate/handlers.test.ts, cli-generate.large.ts,
 * cli-workflow.large.ts (npm run test:large) and test/hardening/render-failed.test.ts cover them. */
const GENERATE_CODES: Code[] = [
  "OUTPUT_NOT_DIRECTORY",
  "WRITE_FAILED",
  "RENDER_FAILED",
  "HANDLER_OBSOLETE",
  "HANDLER_TYPE_ERROR",
  "OUTPUT_NOT_OWNED",
  // test/generate/features.large.ts
  "HANDLER_RUNTIME_IMPORT",
  // test/generate/output-escape.large.ts
  "OUTPUT_PATH_OUTSIDE",
  // test/generate/runtime-js-cache.large.ts
  "CACHE_DIR_UNSAFE",
  // Publishing (issue 16): test/render/publish-files.large.ts (the first said by the package's npm publish)
  "REGISTRY_NAME_PLACEHOLDER",
  "SERVER_JSON_VERSION_DRIFT",
];

/** OpenAPI input codes: test/openapi/mapping.test.ts and repair.large.ts cover them with OpenAPI documents (and files for $refs). */
const OPENAPI_CODES: Code[] = [
  "OPENAPI_VERSION_UNSUPPORTED",
  "OPENAPI_OUTPUT_SCHEMA_DROPPED",
  "OPENAPI_INFO_REPAIRED",
  "OPENAPI_PATTERN_REPAIRED",
  "OPENAPI_PATTERN_DROPPED",
  "OPENAPI_TYPE_REPAIRED",
  "OPENAPI_REF_UNRESOLVED",
  "OPENAPI_REMOTE_REF",
  "OPENAPI_CONFIG_INVALID",
  "OPENAPI_SECURITY_UNSUPPORTED",
  "OPENAPI_SECURITY_TOKEN_FROM_ENV",
  "UPSTREAM_OAUTH_SCOPES",
  "OPENAPI_DESCRIPTION_CUT",
  "OPENAPI_NO_OPERATIONS",
  "OPENAPI_SERVER_RELATIVE",
  "OPENAPI_TOO_MANY_TOOLS",
  "OPENAPI_OPTIONAL_BODY_REQUIRED_FIELDS",
  // test/openapi/shared-parameters.test.ts
  "OPENAPI_SHARED_PARAMETERS",
  // test/render/publish-files.large.ts
  "OPENAPI_REGISTRY_NAME_INVALID",
];

/** Task bindings read from OpenAPI documents (detection, x-mcp-task): test/openapi/tasks.test.ts. */
const TASK_OPENAPI_CODES: Code[] = [
  "TASK_DETECTED",
  "TASK_RESULT_IS_STATUS",
  "TASK_POLL_UNKNOWN",
  "TASK_EXTENSION_INVALID",
  "TASK_CANCEL_OPERATION_UNKNOWN",
  "TASK_PATH_UNDOCUMENTED",
];

/** View settings (ui:, x-mcp-ui), each with a failing case beside passing ones: test/generate/apps-views.test.ts. */
const VIEW_CODES: Code[] = ["UI_VALUE_INVALID", "UI_FILE_UNREADABLE", "UI_VIEW_MISMATCH", "UI_FEATURE_OFF"];

/** Codes about how mcpgen is called (strict .json, options, the config file): test/cli/*.test.ts;
 * CONFIG_TOOLSET_UNKNOWN: test/normalize/toolsets.test.ts; CONFIG_FLAG_MIXUP: test/openapi/mapping.test.ts. */
const CLI_CODES: Code[] = [
  "JSON_SYNTAX",
  "CONFIG_FLAG_MIXUP",
  "OPENAPI_OPTION_UNUSED",
  "CONFIG_INVALID",
  "CONFIG_LOAD_FAILED",
  "CONFIG_TOOLSET_UNKNOWN",
];

describe("every diagnostic code has a failing and a passing fixture", () => {
  it("covers the whole catalog", () => {
    const covered = new Set<string>([
      ...ruleCases.map((c) => c.code),
      ...FILE_CODES,
      ...GENERATE_CODES,
      ...OPENAPI_CODES,
      ...TASK_OPENAPI_CODES,
      ...VIEW_CODES,
      ...CLI_CODES,
      ...REF_CODES,
    ]);
    expect(Object.keys(catalog).filter((code) => !covered.has(code))).toEqual([]);
  });

  for (const { code, fail, pass, at } of ruleCases) {
    it(`${code}: the failing fixture reports exactly it, at ${at}`, () => {
      const found = check(`${code}.fail.yaml`, fail);
      expect(found.map((d) => d.code)).toEqual([code]);
      expect(`${found[0].line}:${found[0].col}`).toBe(at);
      expect(found[0].severity).toBe(catalog[code].severity);
      expect(found[0].message.length).toBeGreaterThan(10);
    });
    it(`${code}: the fixed fixture is clean`, () => {
      expect(check(`${code}.pass.yaml`, pass)).toEqual([]);
    });
  }
});
