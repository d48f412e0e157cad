// The client's OAuth is the oauth feature's (runtime/features/oauth/client/), not the core's: a weather
// package generated with `--features none` carries no OAuth file and no jose, and its client, asked to log
// in, says in one line which feature that takes; with `--features oauth` it carries them (that client
// logging in for real: oauth-generated-client.test.ts).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import type { ConnectTarget, McpClient } from "../../runtime/index.ts";
import { type ServerProcess, startServer } from "../auth/support.ts";
import { ROOT, scratchDir } from "../generate/support.ts";

const WEATHER = join(ROOT, "specs/weather.yaml");
const OAUTH_CLIENT_FILES = ["auth-code.ts", "auth-discovery.ts", "auth-flow.ts", "auth-grants.ts", "auth-types.ts"];

async function weather(features: string[]): Promise<string> {
  const out = join(scratchDir("oauth-feature"), "pkg");
  const result = await generate(WEATHER, out, { features });
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return out;
}

const dependencies = (pkg: string) =>
  Object.keys(JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).dependencies ?? {});

/** Every runtime file of a package, relative to its runtime/ folder. */
const runtimeFiles = (pkg: string) =>
  readdirSync(join(pkg, "runtime"), { recursive: true, encoding: "utf8" }).map((path) => path.replaceAll("\\", "/"));

type GeneratedClient = { connect(target: ConnectTarget | { url: string; auth: unknown }): Promise<McpClient> };

let core: string;
let withOAuth: string;
let server: ServerProcess;

beforeAll(async () => {
  core = await weather(["none"]);
  withOAuth = await weather(["oauth"]);
  server = await startServer(core, []);
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe("the client's OAuth belongs to the oauth feature", () => {
  it("--features none: no OAuth client file, no jose, and src/client.ts imports no OAuth", () => {
    expect(dependencies(core)).not.toContain("jose");
    expect(existsSync(join(core, "runtime/features/oauth"))).toBe(false);
    expect(
      runtimeFiles(core).filter((path) => /(^|\/)auth-(code|discovery|flow|grants|loopback|types)\.ts$/.test(path)),
    ).toEqual([]);
    const client = readFileSync(join(core, "src/client.ts"), "utf8");
    expect(client).not.toMatch(/oauth|startLoopbackRedirect/i);
    // The core keeps its seam: the authorizer type and the static bearer token.
    expect(runtimeFiles(core)).toContain("client/transport.ts");
  });

  it("--features none: the client connects without auth, and asking for OAuth fails in one line naming the feature", async () => {
    const generated = (await import(join(core, "src/client.ts"))) as GeneratedClient;
    const client = await generated.connect({ url: server.url });
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("get_forecast");
    } finally {
      await client.close();
    }
    const refused = await generated
      .connect({ url: server.url, auth: { clientCredentials: { clientId: "c", clientSecret: "s" } } })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toBe(
      "connect({ url, auth }) needs the 'oauth' feature, which this package was generated without: add it to the spec's features: list, or to mcpgen generate's --features, and generate again",
    );
  });

  it("--features oauth: the OAuth client's files and jose, imported by src/client.ts", () => {
    expect(dependencies(withOAuth)).toContain("jose");
    for (const file of OAUTH_CLIENT_FILES)
      expect(existsSync(join(withOAuth, "runtime/features/oauth/client", file)), file).toBe(true);
    expect(readFileSync(join(withOAuth, "src/client.ts"), "utf8")).toContain(
      'import { type OAuthTarget, withOAuth } from "../runtime/features/oauth/client/index.ts";',
    );
  });
});
