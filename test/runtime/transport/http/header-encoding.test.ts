import { describe, expect, test } from "vitest";
import {
  checkHeaderParams,
  collectHeaderParams,
  decodeHeaderValue,
  encodeHeaderValue,
  headerParamValues,
} from "../../../../runtime/transport/http/header-encoding.ts";

describe("header value encoding (streamable-http Value Encoding table)", () => {
  test.each([
    ["us-west1", "us-west1"],
    ["Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
    [" padded ", "=?base64?IHBhZGRlZCA=?="],
    ["line1\nline2", "=?base64?bGluZTEKbGluZTI=?="],
    ["=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="],
  ])("%j encodes as %s and decodes back", (original, encoded) => {
    expect(encodeHeaderValue(original)).toBe(encoded);
    expect(decodeHeaderValue(encoded)).toBe(original);
  });

  test("control characters and tabs are base64-encoded", () => {
    expect(encodeHeaderValue("a\tb")).toBe(`=?base64?${Buffer.from("a\tb").toString("base64")}?=`);
    expect(encodeHeaderValue("bell\u0007")).toMatch(/^=\?base64\?/);
  });

  test("decoding rejects malformed base64 and invalid characters", () => {
    expect(decodeHeaderValue("=?base64?not base64!?=")).toBeUndefined();
    expect(decodeHeaderValue("=?base64?//79?=")).toBeUndefined(); // 0xFF 0xFE is not UTF-8
    expect(decodeHeaderValue("caf\u00e9")).toBeUndefined();
  });
});

describe("x-mcp-header annotations", () => {
  const schema = {
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      nested: { type: "object", properties: { level: { type: "integer", "x-mcp-header": "Level" } } },
      flag: { type: "boolean", "x-mcp-header": "Flag" },
      other: { type: "string" },
    },
  };

  test("collects statically reachable annotations with their paths", () => {
    const result = collectHeaderParams(schema);
    expect(result).toEqual({
      ok: true,
      params: [
        { header: "Region", path: ["region"], type: "string" },
        { header: "Level", path: ["nested", "level"], type: "integer" },
        { header: "Flag", path: ["flag"], type: "boolean" },
      ],
    });
  });

  test.each([
    ["empty name", { a: { type: "string", "x-mcp-header": "" } }, /non-empty/],
    ["non-token name", { a: { type: "string", "x-mcp-header": "Bad Name" } }, /token/],
    ["control character", { a: { type: "string", "x-mcp-header": "A\r\nB" } }, /token/],
    ["number type", { a: { type: "number", "x-mcp-header": "A" } }, /integer, string or boolean/],
    ["object type", { a: { type: "object", "x-mcp-header": "A" } }, /integer, string or boolean/],
    [
      "duplicate (case-insensitive)",
      { a: { type: "string", "x-mcp-header": "Dup" }, b: { type: "string", "x-mcp-header": "dup" } },
      /not unique/,
    ],
    ["inside items", { a: { type: "array", items: { type: "string", "x-mcp-header": "A" } } }, /not reachable/],
    ["inside anyOf", { a: { anyOf: [{ type: "string", "x-mcp-header": "A" }] } }, /not reachable/],
  ])("rejects %s", (_label, properties, reason) => {
    const result = collectHeaderParams({ type: "object", properties });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  test("rejects annotations under $defs even if referenced", () => {
    const result = collectHeaderParams({
      type: "object",
      $defs: { r: { type: "string", "x-mcp-header": "R" } },
      properties: { r: { $ref: "#/$defs/r" } },
    });
    expect(result.ok).toBe(false);
  });

  test("builds Mcp-Param headers for present values only", () => {
    const result = collectHeaderParams(schema);
    if (!result.ok) throw new Error(result.reason);
    expect(headerParamValues(result.params, { region: "Hello, 世界", nested: { level: 42 }, flag: false })).toEqual({
      "Mcp-Param-Region": "=?base64?SGVsbG8sIOS4lueVjA==?=",
      "Mcp-Param-Level": "42",
      "Mcp-Param-Flag": "false",
    });
    expect(headerParamValues(result.params, { region: null })).toEqual({});
  });

  test("server check: matches, numeric comparison, missing and mismatching headers", () => {
    const result = collectHeaderParams(schema);
    if (!result.ok) throw new Error(result.reason);
    const headers = (values: Record<string, string>) => (name: string) => values[name];
    const args = { region: "eu", nested: { level: 42 } };
    expect(
      checkHeaderParams(result.params, args, headers({ "Mcp-Param-Region": "eu", "Mcp-Param-Level": "42.0" })),
    ).toBeUndefined();
    expect(checkHeaderParams(result.params, args, headers({ "Mcp-Param-Region": "eu" }))).toMatch(
      /Level header is missing/,
    );
    expect(
      checkHeaderParams(result.params, args, headers({ "Mcp-Param-Region": "us", "Mcp-Param-Level": "42" })),
    ).toMatch(/does not match/);
    expect(checkHeaderParams(result.params, {}, headers({ "Mcp-Param-Flag": "true" }))).toMatch(/argument is absent/);
  });
});
