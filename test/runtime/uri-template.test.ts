import { describe, expect, test } from "vitest";
import { compileUriTemplate } from "../../runtime/uri-template.ts";

describe("uri templates", () => {
  test.each([
    ["file:///{path}", "file:///notes.txt", { path: "notes.txt" }],
    ["file:///{path}", "file:///a/b.txt", undefined],
    ["file:///{+path}", "file:///a/b.txt", { path: "a/b.txt" }],
    ["users://{id}/posts/{post}", "users://42/posts/7", { id: "42", post: "7" }],
    ["users://{id}", "users://j%C3%BCrgen", { id: "jürgen" }],
    ["search://items{?q,limit}", "search://items?q=cat&limit=5", { q: "cat", limit: "5" }],
    ["search://items{?q,limit}", "search://items", {}],
    ["api://v1{/resource}", "api://v1/orders", { resource: "orders" }],
    ["a://x.{ext}", "a://x.json", { ext: "json" }],
    ["a://(literal)/{x}", "a://(literal)/1", { x: "1" }],
  ])("%s matches %s", (template, uri, expected) => {
    expect(compileUriTemplate(template).match(uri)).toEqual(expected);
  });
});
