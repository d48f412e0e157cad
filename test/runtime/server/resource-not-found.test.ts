// "Resource not found" from a handler: -32602 for a 2026-07-28 client (server/resources.mdx), -32002 for a
// 2025-11-25 one. `notFound(uri)` from the runtime entry and `ctx.notFound(uri)` both answer with the code
// of the request's era, over real Streamable HTTP, as does a URI no resource or template matches.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  connect,
  createServer,
  type HttpServerHandle,
  McpError,
  notFound,
  ResourceNotFoundError,
  serveHttp,
} from "../../../runtime/index.ts";

let http: HttpServerHandle;
beforeAll(async () => {
  const server = createServer({ name: "shelf", version: "1.0.0" });
  const text = (uri: string) => ({ contents: [{ uri, text: "here" }] });
  server.resourceTemplate({
    uriTemplate: "shelf://imported/{id}",
    name: "imported",
    read: (uri, { id }) => {
      if (id !== "1") throw notFound(uri, `No item ${id}`);
      return text(uri);
    },
  });
  server.resourceTemplate({
    uriTemplate: "shelf://ctx/{id}",
    name: "ctx",
    read: (uri, { id }, ctx) => {
      if (id !== "1") throw ctx.notFound(uri);
      return text(uri);
    },
  });
  http = await serveHttp(server);
});
afterAll(() => http.close());

const eras = [
  ["2026-07-28", -32602],
  ["2025-11-25", -32002],
] as const;

for (const [version, code] of eras) {
  describe(`a ${version} client`, () => {
    test(`gets ${code} from notFound(uri), ctx.notFound(uri) and an unmatched URI`, async () => {
      const client = await connect({ url: http.url }, { protocolVersion: version });
      try {
        expect(client.protocolVersion).toBe(version);
        await expect(client.readResource("shelf://imported/1")).resolves.toMatchObject({
          contents: [{ text: "here" }],
        });
        await expect(client.readResource("shelf://imported/2")).rejects.toMatchObject({
          code,
          message: "No item 2",
          data: { uri: "shelf://imported/2" },
        });
        await expect(client.readResource("shelf://ctx/2")).rejects.toMatchObject({
          code,
          message: "Resource not found: shelf://ctx/2",
          data: { uri: "shelf://ctx/2" },
        });
        await expect(client.readResource("elsewhere://x")).rejects.toMatchObject({ code });
      } finally {
        await client.close();
      }
    });
  });
}

test("notFound is an McpError whose code defaults to the 2026 one", () => {
  const error = notFound("shelf://x");
  expect(error).toBeInstanceOf(McpError);
  expect(error).toBeInstanceOf(ResourceNotFoundError);
  expect(error.toJson()).toEqual({
    code: -32602,
    message: "Resource not found: shelf://x",
    data: { uri: "shelf://x" },
  });
  expect(new ResourceNotFoundError("shelf://x", "legacy").code).toBe(-32002);
});
