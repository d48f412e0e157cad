import { describe, expect, test } from "vitest";
import {
  decodeMessage,
  encodeMessage,
  isNotification,
  isRequest,
  isResponse,
} from "../../../runtime/protocol/codec.ts";

describe("codec", () => {
  test("decodes requests, notifications and responses", () => {
    const request = decodeMessage('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}');
    expect(request.ok && isRequest(request.message)).toBe(true);
    const note = decodeMessage('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    expect(note.ok && isNotification(note.message)).toBe(true);
    const response = decodeMessage('{"jsonrpc":"2.0","id":"a","result":{}}');
    expect(response.ok && isResponse(response.message)).toBe(true);
    const error = decodeMessage('{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"nope"}}');
    expect(error.ok && isResponse(error.message)).toBe(true);
  });

  test("parse errors are -32700 without an id", () => {
    const decoded = decodeMessage("{not json");
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) {
      expect(decoded.error.error.code).toBe(-32700);
      expect("id" in decoded.error).toBe(false);
    }
  });

  test.each([
    ["a batch", '[{"jsonrpc":"2.0","id":1,"method":"ping"}]'],
    ["a wrong version", '{"jsonrpc":"1.0","id":1,"method":"ping"}'],
    ["a non-string method", '{"jsonrpc":"2.0","id":1,"method":7}'],
    ["array params", '{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}'],
    ["a null id", '{"jsonrpc":"2.0","id":null,"method":"ping"}'],
    ["a fractional id", '{"jsonrpc":"2.0","id":1.5,"method":"ping"}'],
    ["both result and error", '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}'],
    ["a scalar", "42"],
  ])("rejects %s with -32600", (_label, text) => {
    const decoded = decodeMessage(text);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.error.error.code).toBe(-32600);
  });

  test("keeps the id of an invalid request when it is usable", () => {
    const decoded = decodeMessage('{"jsonrpc":"1.0","id":9,"method":"ping"}');
    expect(!decoded.ok && decoded.error.id).toBe(9);
  });

  test("encoding never produces a raw newline", () => {
    const text = encodeMessage({ jsonrpc: "2.0", method: "x", params: { text: "a\nb\r\nc\u2028" } });
    expect(text).not.toMatch(/\n|\r/);
    expect(JSON.parse(text).params.text).toBe("a\nb\r\nc\u2028");
  });
});
