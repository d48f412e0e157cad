/**
 * The Petstore example (specs/petstore.yaml → generated/petstore) end to end: Prism serves the same
 * document and validates every request; the generated server forwards to it; the generated client
 * calls every tool. Each call must come back as a Prism-validated 2xx answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect } from "../../generated/petstore/src/client.ts";
import { ROOT, type RunningHttpServer, startHttpServer } from "../generate/support.ts";
import { type Prism, startPrism } from "./prism.ts";

type Result = { isError?: boolean; content?: Array<{ type: string; text?: string }>; structuredContent?: unknown };
const expectOk = (result: Result) => expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);

describe("petstore through Prism", () => {
  let prism: Prism;
  let server: RunningHttpServer;
  let client: Awaited<ReturnType<typeof connect>>;

  beforeAll(async () => {
    prism = await startPrism(`${ROOT}/specs/petstore.yaml`);
    server = await startHttpServer(`${ROOT}/generated/petstore`, ["--base-url", prism.url], {
      PETSTORE_API_KEY: "test-key",
    });
    client = await connect({ url: server.url });
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
    await prism?.stop();
  });

  it("lists one tool per operation, minus the excluded one, with annotations from the method", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "listPets",
      "createPet",
      "getPet",
      "updatePetWithForm",
      "deletePet",
      "inventory",
    ]);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.listPets.annotations).toMatchObject({ readOnlyHint: true });
    // Hints at MCP's default (destructiveHint: true, readOnlyHint: false) are left out of tools/list.
    expect(byName.deletePet.annotations).toEqual({ idempotentHint: true });
    // A POST is not claimed harmless: every hint is MCP's default, so none is listed.
    expect(byName.createPet.annotations).toBeUndefined();
    expect(byName.getPet.outputSchema).toBeDefined();
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["petstore://pets/{petId}/photo"]);
  });

  it("serializes query arrays (form, explode false), headers and the API key as Prism expects", async () => {
    const result = await client.callTool("listPets", {
      status: "available",
      tags: ["dog", "small"],
      limit: 5,
      "X-Request-Id": "req-1",
    });
    expectOk(result);
    expect(result.structuredContent?.items).toBeInstanceOf(Array);
  });

  it("sends a JSON body built from flattened arguments", async () => {
    const result = await client.callTool("createPet", { name: "Rex", tag: null, status: "pending" });
    expectOk(result);
    expect(result.structuredContent).toHaveProperty("id");
  });

  it("fills path parameters and sends form-urlencoded bodies", async () => {
    expectOk(await client.callTool("getPet", { petId: 7 }));
    expectOk(await client.callTool("updatePetWithForm", { petId: 7, name: "Max", status: "sold" }));
    expectOk(await client.callTool("deletePet", { petId: 7 }));
    expectOk(await client.callTool("inventory", {}));
  });

  it("reads a GET served as a resource template, an image, as a blob", async () => {
    const { contents } = await client.readResource("petstore://pets/7/photo");
    expect(contents[0]).toHaveProperty("blob");
  });

  it("turns a Prism rejection into an isError result with the status", async () => {
    const result = await client.callTool("getPet", { petId: "not-a-number" } as never);
    expect(result.isError).toBe(true);
  });
});
