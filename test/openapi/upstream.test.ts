/**
 * runtime/upstream/forward.ts with OpenAPI bindings against a real HTTP server on 127.0.0.1: parameter styles,
 * bodies, security schemes, server variables, retry with Retry-After, timeouts, and what results look
 * like (JSON, text, images, truncation, errors without secrets).
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpBinding } from "../../runtime/package/catalog-types.ts";
import { callUpstream } from "../../runtime/upstream/forward.ts";
import { resourceContentsFrom, toolAnswerFrom } from "../../runtime/upstream/response.ts";
import type { UpstreamConfig, UpstreamResponse } from "../../runtime/upstream/types.ts";
import { type RecordedRequest, startUpstream } from "../generate/support.ts";

const toolResultFrom = (response: UpstreamResponse) => toolAnswerFrom(response).result;

type Upstream = Awaited<ReturnType<typeof startUpstream>>;
let api: Upstream;
let flaky = 0;

beforeAll(async () => {
  api = await startUpstream({
    "GET /echo": () => ({ json: { ok: true } }),
    "GET /echo/*": () => ({ json: { ok: true } }),
    "POST /echo": () => ({ status: 201, json: { ok: true } }),
    "POST /token": (r) =>
      r.headers.authorization === `Basic ${Buffer.from("id:shh").toString("base64")}` &&
      r.body.includes("client_credentials")
        ? { json: { access_token: "tok-123", expires_in: 3600 } }
        : { status: 401, json: {} },
    "GET /flaky": () => (flaky++ < 2 ? { status: 429, text: "slow down", type: "text/plain" } : { json: { ok: true } }),
    "GET /guarded": (r) =>
      r.headers.authorization === "Bearer good"
        ? { json: { ok: true } }
        : { status: 401, json: { error: "bad token" } },
    "GET /forbidden": () => ({ status: 403, text: "forbidden", type: "text/plain" }),
    "GET /broken": (r) => ({ status: 400, text: `bad request, you sent ${r.headers["x-key"]}`, type: "text/plain" }),
  });
});
afterAll(() => api.close());

const upstream = (extra: Partial<UpstreamConfig> = {}): UpstreamConfig => ({ baseUrl: api.url, ...extra });
const last = (): RecordedRequest => api.requests.at(-1)!;
const raw = (r: RecordedRequest) => decodeURIComponent(`${r.path}?${r.query.toString()}`);
const call = (binding: HttpBinding, args: Record<string, unknown>, config = upstream(), env: NodeJS.ProcessEnv = {}) =>
  callUpstream(config, binding, args, new AbortController().signal, env);

describe("parameters", () => {
  it("serializes path styles simple, label and matrix", async () => {
    await call({ method: "GET", path: "/echo/{ids}", parameters: [{ name: "ids", in: "path" }] }, { ids: [1, 2] });
    expect(last().path).toBe("/echo/1,2");
    await call(
      { method: "GET", path: "/echo/{id}", parameters: [{ name: "id", in: "path", style: "label" }] },
      { id: "a b" },
    );
    expect(last().path).toBe("/echo/.a%20b");
    await call(
      { method: "GET", path: "/echo/{c}", parameters: [{ name: "c", in: "path", style: "matrix", explode: true }] },
      { c: ["x", "y"] },
    );
    expect(last().path).toBe("/echo/;c=x;c=y");
  });

  it("serializes query arrays and objects by style and explode", async () => {
    const q = (p: HttpBinding["parameters"], args: Record<string, unknown>) =>
      call({ method: "GET", path: "/echo", parameters: p }, args).then(() => raw(last()));
    expect(await q([{ name: "t", in: "query" }], { t: ["a", "b"] })).toBe("/echo?t=a&t=b");
    expect(await q([{ name: "t", in: "query", explode: false }], { t: ["a", "b"] })).toBe("/echo?t=a,b");
    expect(await q([{ name: "t", in: "query", style: "pipeDelimited", explode: false }], { t: ["a", "b"] })).toBe(
      "/echo?t=a|b",
    );
    await q([{ name: "t", in: "query", style: "spaceDelimited", explode: false }], { t: ["a", "b"] });
    expect(last().query.get("t")).toBe("a b");
    expect(await q([{ name: "f", in: "query", style: "deepObject", explode: true }], { f: { a: 1, b: "x" } })).toBe(
      "/echo?f[a]=1&f[b]=x",
    );
    expect(await q([{ name: "f", in: "query" }], { f: { a: 1 } })).toBe("/echo?a=1");
    expect(await q([{ name: "f", in: "query", explode: false }], { f: { a: 1, b: 2 } })).toBe("/echo?f=a,1,b,2");
  });

  it("sends headers and cookies, taking grouped arguments from their group", async () => {
    await call(
      {
        method: "GET",
        path: "/echo",
        parameters: [
          { name: "X-Trace", in: "header", arg: ["header", "X-Trace"] },
          { name: "session", in: "cookie", arg: ["cookie", "session"] },
          { name: "ids", in: "header", arg: ["header", "ids"] },
        ],
      },
      { header: { "X-Trace": "t1", ids: [1, 2] }, cookie: { session: "s1" } },
    );
    expect(last().headers["x-trace"]).toBe("t1");
    expect(last().headers.ids).toBe("1,2");
    expect(last().headers.cookie).toBe("session=s1");
  });
});

describe("bodies", () => {
  it("sends JSON, form-urlencoded and multipart bodies", async () => {
    await call(
      { method: "POST", path: "/echo", body: { contentType: "application/json", properties: ["a"] } },
      { a: 1, z: 2 },
    );
    expect(JSON.parse(last().body)).toEqual({ a: 1 });
    await call(
      { method: "POST", path: "/echo", body: { contentType: "application/x-www-form-urlencoded", arg: "body" } },
      { body: { name: "Rex", tags: ["a", "b"] } },
    );
    expect(last().body).toBe("name=Rex&tags=a&tags=b");
    await call(
      { method: "POST", path: "/echo", body: { contentType: "multipart/form-data", arg: "body" } },
      { body: { note: "hi", meta: { x: 1 } } },
    );
    expect(last().headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(last().body).toContain('name="note"');
    expect(last().body).toContain('{"x":1}');
  });
});

describe("security and servers", () => {
  const schemes: UpstreamConfig["securitySchemes"] = [
    { id: "key", type: "apiKey", in: "query", name: "api_key", env: "T_KEY" },
    { id: "jar", type: "apiKey", in: "cookie", name: "sid", env: "T_SID" },
    { id: "oauth", type: "oauth2", tokenUrl: "", clientIdEnv: "T_ID", clientSecretEnv: "T_SECRET" },
  ];

  it("fills apiKey (query, cookie) and OAuth2 client credentials from the environment", async () => {
    const config = upstream({
      securitySchemes: schemes.map((s) => (s.type === "oauth2" ? { ...s, tokenUrl: `${api.url}/token` } : s)),
    });
    await call({ method: "GET", path: "/echo", parameters: [], security: [["key", "jar"]] }, {}, config, {
      T_KEY: "k1",
      T_SID: "c1",
    });
    expect(last().query.get("api_key")).toBe("k1");
    expect(last().headers.cookie).toBe("sid=c1");
    await call({ method: "GET", path: "/echo", parameters: [], security: [["oauth"]] }, {}, config, {
      T_ID: "id",
      T_SECRET: "shh",
    });
    expect(last().headers.authorization).toBe("Bearer tok-123");
  });

  it("names the missing variables, never their values", async () => {
    const attempt = call(
      { method: "GET", path: "/echo", parameters: [], security: [["key"]] },
      {},
      upstream({ securitySchemes: schemes }),
    );
    await expect(attempt).rejects.toThrow(/set T_KEY/);
  });

  it("keeps a credential echoed by the upstream out of the error text", async () => {
    const config = upstream({
      securitySchemes: [{ id: "h", type: "apiKey", in: "header", name: "X-Key", env: "T_H" }],
    });
    const response = await call({ method: "GET", path: "/broken", parameters: [], security: [["h"]] }, {}, config, {
      T_H: "super-secret-value",
    });
    const result = toolResultFrom(response);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).toContain("400");
    expect(JSON.stringify(result)).not.toContain("super-secret-value");
  });

  it("sends an operation with its own server there, unless --base-url pinned one", async () => {
    const binding = { method: "GET", path: "/echo", parameters: [], baseUrl: api.url };
    await call(binding, {}, { baseUrl: "http://127.0.0.1:9" });
    expect(last().path).toBe("/echo");
    await expect(call(binding, {}, { baseUrl: "http://127.0.0.1:9", pinned: true })).rejects.toThrow(/127\.0\.0\.1:9/);
  });

  it("fills server URL variables from their environment variable, else the default", async () => {
    const port = new URL(api.url).port;
    const config: UpstreamConfig = {
      baseUrl: "unused",
      baseUrlTemplate: `http://127.0.0.1:{port}/{version}`,
      variables: { port: { default: port, env: "T_PORT" }, version: { default: "v1", env: "T_VERSION" } },
    };
    await call({ method: "GET", path: "/x", parameters: [] }, {}, config, { T_VERSION: "echo" });
    expect(last().path).toBe("/echo/x");
  });
});

describe("a 401 or 403 answer says where the operation's credentials come from (issue 33)", () => {
  const schemes: UpstreamConfig["securitySchemes"] = [
    { id: "login", type: "bearer", env: "T_LOGIN_TOKEN" },
    { id: "other", type: "bearer", env: "T_OTHER_TOKEN" },
    { id: "key", type: "apiKey", in: "query", name: "k", env: "T_KEY" },
    { id: "app", type: "oauth2", tokenUrl: "", clientIdEnv: "T_ID", clientSecretEnv: "T_SECRET" },
  ];
  // Built once the upstream runs (the file's beforeAll started it): its URL is the base URL.
  let config: UpstreamConfig;
  beforeAll(() => {
    config = upstream({ securitySchemes: schemes });
  });
  const textOf = (response: UpstreamResponse) => {
    const result = toolResultFrom(response);
    expect(result.isError).toBe(true);
    return (result.content ?? []).map((block) => (block as { text: string }).text).join("");
  };

  it("names the variables of each alternative, after the upstream's own message, and never their values", async () => {
    const binding = { method: "GET", path: "/guarded", parameters: [], security: [["login"], ["other", "key"]] };
    const response = await call(binding, {}, config, { T_LOGIN_TOKEN: "expired-token-value" });
    expect(response.status).toBe(401);
    const text = textOf(response);
    expect(text).toBe(
      'Upstream API answered 401 Unauthorized: {"error":"bad token"}\nThis operation\'s credentials come from T_LOGIN_TOKEN or T_OTHER_TOKEN and T_KEY: check that they are set and valid.',
    );
    expect(last().headers.authorization).toBe("Bearer expired-token-value");
    // Unset, nothing is sent: the same words, before the call (a client-credentials scheme needs both its variables).
    await expect(call({ ...binding, security: [["app"], ["key"]] }, {}, config)).rejects.toThrow(
      "set T_ID and T_SECRET or T_KEY: the upstream API needs credentials for this operation",
    );
    const ok = await call(binding, {}, config, { T_LOGIN_TOKEN: "good" });
    expect(ok.status).toBe(200);
    expect(ok.hint).toBeUndefined();
  });

  it("a 403 too; an operation with no credentials declared points at src/credentials.ts", async () => {
    const declared = textOf(
      await call({ method: "GET", path: "/forbidden", security: [["key"]] }, {}, config, { T_KEY: "kkkk" }),
    );
    expect(declared).toMatch(
      /^Upstream API answered 403 Forbidden: forbidden\nThis operation's credentials come from T_KEY:/,
    );
    const none = textOf(await call({ method: "GET", path: "/forbidden" }, {}, config));
    expect(none).toBe(
      "Upstream API answered 403 Forbidden: forbidden\nNo credentials were sent: return them from src/credentials.ts (the package README's Authentication section).",
    );
    // An optional requirement ([] beside a scheme) names the scheme's variable.
    const optional = textOf(await call({ method: "GET", path: "/forbidden", security: [[], ["key"]] }, {}, config));
    expect(optional).toContain("come from T_KEY:");
  });

  it("credentials from src/credentials.ts (or the token exchange) are named as what was refused", async () => {
    const response = await callUpstream(
      config,
      { method: "GET", path: "/guarded", security: [["login"]] },
      {},
      new AbortController().signal,
      {},
      { credentials: { headers: { authorization: "Bearer per-user-token" }, secrets: ["per-user-token"] } },
    );
    expect(textOf(response)).toMatch(
      /\nThe per-user credentials \(src\/credentials\.ts, token exchange\) were refused\.$/,
    );
    expect(textOf(response)).not.toContain("per-user-token");
  });

  it("other failures carry no hint; a resource read's error carries it too", async () => {
    const broken = await call({ method: "GET", path: "/broken", security: [["key"]] }, {}, config, { T_KEY: "kkkk" });
    expect(broken.status).toBe(400);
    expect(broken.hint).toBeUndefined();
    const denied = await call({ method: "GET", path: "/guarded", security: [["login"]] }, {}, config, {
      T_LOGIN_TOKEN: "nope",
    });
    expect(() => resourceContentsFrom("acme://things", undefined, denied)).toThrow(
      "Upstream API answered 401 Unauthorized for acme://things\nThis operation's credentials come from T_LOGIN_TOKEN: check that they are set and valid.",
    );
  });
});

describe("retries, timeouts and results", () => {
  it("retries 429 answers honouring Retry-After", async () => {
    flaky = 0;
    const response = await call(
      { method: "GET", path: "/flaky", parameters: [] },
      {},
      upstream({ retry: { attempts: 3, maxDelayMs: 5000 } }),
    );
    expect(response.status).toBe(200);
    expect(flaky).toBe(3);
  });

  it("gives up after the timeout with a message naming the URL without its query", async () => {
    const silent = createServer(() => {}); // accepts requests and never answers
    silent.listen(0, "127.0.0.1");
    await once(silent, "listening");
    const config = { baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, timeoutMs: 200 };
    const attempt = call(
      { method: "GET", path: "/x", parameters: [{ name: "q", in: "query" }] },
      { q: "secret" },
      config,
    );
    await expect(attempt).rejects.toThrow(
      /^upstream GET http:\/\/127\.0\.0\.1:\d+\/x failed: no answer within 200 ms$/,
    );
    silent.closeAllConnections();
    silent.close();
  });

  const answer = (contentType: string, body: Buffer | string, status = 200): UpstreamResponse => ({
    status,
    statusText: "",
    contentType,
    body: Buffer.from(body),
  });

  it("maps JSON, text, images, large bodies and errors to tool results", () => {
    expect(toolResultFrom(answer("application/json", '{"a":1}'))).toMatchObject({ structuredContent: { a: 1 } });
    expect(toolResultFrom(answer("text/plain", "hi")).content).toEqual([{ type: "text", text: "hi" }]);
    expect(toolResultFrom(answer("image/png", Buffer.from([1, 2, 3]))).content?.[0]).toMatchObject({
      type: "image",
      mimeType: "image/png",
    });
    // A body over the cap arrives cut (send() stops reading at it): the text is cut there, with a note.
    const cut = { ...answer("text/plain", "x".repeat(1_000_100)), cutAt: 1_000_000 };
    const big = toolResultFrom(cut).content?.[0] as { text: string };
    expect(big.text).toMatch(/^x{1000000}\n\[cut: the upstream API's answer is longer than 1000000 characters/);
    const error = toolResultFrom(answer("application/json", '{"message":"Not Found"}', 404));
    expect(error).toMatchObject({ isError: true });
    expect(JSON.stringify(error)).toContain("404");
  });
});
