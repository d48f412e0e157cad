/** fast-check arbitraries for hostile OpenAPI documents (the spec-language ones are in arbitraries.ts). */
import fc from "fast-check";
import { nastyName, nastyText, propertyName, schema, validSchema } from "./arbitraries.ts";

// ---- OpenAPI documents: random operations, parameters, bodies, responses and components, with
// nasty names and refs that dangle, loop or point off-site. ----

const componentName = fc.constantFrom(
  "Pet",
  "Pet2",
  "a-b",
  "a_b",
  "1st",
  "__proto__",
  "Unnamed",
  "ToolMap",
  "x.y",
  "é",
);
const componentRef = fc.oneof(
  componentName.map((n) => `#/components/schemas/${n}`),
  fc.constantFrom(
    "#/components/schemas/Missing",
    "#/paths",
    "#",
    "other.yaml#/X",
    "http://127.0.0.1:1/x.yaml#/Y",
    "#/components/schemas/a~1b",
  ),
);
const oaSchema: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: validSchema },
  { weight: 1, arbitrary: schema },
  { weight: 2, arbitrary: componentRef.map(($ref) => ({ $ref })) },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant("object"),
      properties: fc.dictionary(
        propertyName,
        componentRef.map(($ref) => ({ $ref })),
        { maxKeys: 3 },
      ),
    }),
  },
);

const parameter = fc.record(
  {
    name: fc.oneof(nastyName, fc.constantFrom("id", "limit", "X-Request-Id", "Authorization", "Content-Type")),
    in: fc.constantFrom("path", "query", "header", "cookie", "body", "bogus"),
    required: fc.boolean(),
    description: nastyText,
    schema: oaSchema,
    "x-mcp-header": nastyName,
  },
  { requiredKeys: ["name", "in"] },
);

const operation = fc.record(
  {
    operationId: fc.oneof(nastyName, fc.constantFrom("listPets", "list-pets", "list_pets", "getPet", "getPet")),
    summary: nastyText,
    description: nastyText,
    tags: fc.array(nastyText, { maxLength: 2 }),
    deprecated: fc.boolean(),
    parameters: fc.array(
      fc.oneof(
        parameter,
        componentRef.map(($ref) => ({ $ref })),
      ),
      { maxLength: 3 },
    ),
    requestBody: fc.record({
      required: fc.boolean(),
      content: fc.dictionary(
        fc.constantFrom(
          "application/json",
          "application/x-www-form-urlencoded",
          "multipart/form-data",
          "text/plain",
          "*/*",
        ),
        fc.record({ schema: oaSchema }),
        { maxKeys: 2 },
      ),
    }),
    responses: fc.dictionary(
      fc.constantFrom("200", "201", "204", "default", "4XX", "abc"),
      fc.record(
        {
          description: nastyText,
          content: fc.dictionary(fc.constantFrom("application/json", "text/plain"), fc.record({ schema: oaSchema }), {
            maxKeys: 1,
          }),
        },
        { requiredKeys: ["description"] },
      ),
      { maxKeys: 2 },
    ),
    security: fc.array(
      fc.dictionary(fc.constantFrom("bearer", "key", "oauth", "missing"), fc.constant([]), { maxKeys: 2 }),
      { maxLength: 2 },
    ),
    "x-mcp": fc.record({ name: nastyName, description: nastyText, hidden: fc.boolean() }, { requiredKeys: [] }),
  },
  { requiredKeys: ["responses"] },
);

const pathKey = fc.oneof(
  fc.constantFrom(
    "/pets",
    "/pets/{id}",
    "/pets/{id}/toys/{toyId}",
    "/",
    "/{a}{b}",
    "/p%20q",
    "/é/{é}",
    "pets",
    "/pets/{id",
  ),
  nastyText.map((t) => `/${t}`),
);

export const openApiDocument = fc
  .record(
    {
      version: fc.constantFrom("3.0.3", "3.1.0", "3.0.0", "2.0", "4.0.0"),
      info: fc.record(
        { title: nastyText, version: fc.constantFrom("1.0.0", "x", ""), description: nastyText },
        { requiredKeys: ["title", "version"] },
      ),
      servers: fc.array(
        fc.record(
          {
            url: fc.constantFrom(
              "https://api.example.com/v1",
              "/relative",
              "http://127.0.0.1:1",
              "{scheme}://x",
              "https://{stage}.example.com/{version}",
              "",
              "javascript:alert(1)",
            ),
            // Server variables reach the README (name, default, enum): hostile text in all three.
            variables: fc.dictionary(
              fc.oneof(fc.constantFrom("stage", "version", "scheme"), propertyName),
              fc.record(
                {
                  default: nastyText,
                  enum: fc.array(nastyText, { minLength: 1, maxLength: 3 }),
                  description: nastyText,
                },
                { requiredKeys: ["default"] },
              ),
              { maxKeys: 2 },
            ),
          },
          { requiredKeys: ["url"] },
        ),
        { maxLength: 2 },
      ),
      paths: fc.dictionary(
        pathKey,
        fc.dictionary(
          fc.constantFrom("get", "post", "put", "delete", "patch", "head", "options", "trace", "parameters"),
          operation,
          { maxKeys: 2 },
        ),
        { maxKeys: 4 },
      ),
      schemas: fc.dictionary(componentName, oaSchema, { maxKeys: 4 }),
      securitySchemes: fc.record(
        {
          bearer: fc.constant({ type: "http", scheme: "bearer" }),
          key: fc.record({
            type: fc.constant("apiKey"),
            in: fc.constantFrom("header", "query", "cookie"),
            name: nastyName,
          }),
          oauth: fc.constant({
            type: "oauth2",
            flows: { clientCredentials: { tokenUrl: "https://auth.example.com/token?a=<b>|`c`", scopes: {} } },
          }),
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: ["version", "info", "paths"] },
  )
  .map(({ version, schemas, securitySchemes, ...doc }) => {
    if (version === "2.0") {
      return {
        swagger: "2.0",
        info: doc.info,
        host: "api.example.com",
        basePath: "/v1",
        paths: doc.paths,
        definitions: schemas,
      };
    }
    return { openapi: version, ...doc, components: { schemas, securitySchemes } };
  });

// ---- Hostile `$ref` targets (issue 11): what a document may try to make mcpgen read. The places are
// the fixture's: `root` holds the document (plus ok.yaml, a FIFO, a directory, a sparse 40 MB file and
// symlinks out), `outside` a secret next to it, `origin` a plain-http server (ref-fuzz.large.ts). ----

export type RefFlags = { allowRemote: boolean; allowInsecure: boolean; widenToOutside: boolean };
/** A `$ref` value, and when mcpgen may legitimately return its content (otherwise: an error, never content). */
export type RefTarget = { ref: string; allowed: (flags: RefFlags) => boolean };
export type RefPlaces = { root: string; outside: string; origin: string };

const never = () => false;
const always = () => true;

export function hostileRefTarget({ root, outside, origin }: RefPlaces): fc.Arbitrary<RefTarget> {
  const secret = `${outside}/secret.yaml`;
  const widened = (flags: RefFlags) => flags.widenToOutside;
  const remoteHttp = (flags: RefFlags) => flags.allowRemote && flags.allowInsecure;
  const target = (ref: string, allowed: RefTarget["allowed"] = never): RefTarget => ({ ref, allowed });
  return fc.oneof(
    // absolute paths and system files
    fc.constantFrom(
      target(secret, widened),
      target("/etc/passwd"),
      target("/etc/shadow"),
      target("/proc/self/environ"),
      target("/proc/self/cmdline"),
      target("/proc/self/maps"),
      target("/proc/1/environ"),
      target("/sys/kernel/mm/transparent_hugepage/enabled"),
      target("/dev/zero"),
      target("/dev/urandom"),
      target("/dev/stdin"),
      target("/dev/null"),
      target("/dev/tty"),
      target("/"),
    ),
    // special files and symlinks inside the root
    fc.constantFrom(
      target("pipe.yaml"),
      target("sub"),
      target("."),
      target("huge.yaml"),
      target("link-out.yaml", widened),
      target("link-zero.yaml"),
      target("link-proc.yaml"),
      target("link-dir/secret.yaml", widened),
      target("link-pipe.yaml"),
      target("bomb.yaml"),
    ),
    // ../ chains, plain and percent-encoded
    fc
      .tuple(fc.integer({ min: 1, max: 8 }), fc.constantFrom("../", "%2E%2E/", "..%2F", "./../", "sub/../../"))
      .map(([n, step]) =>
        target(`${step.repeat(n)}outside/secret.yaml`, n === 1 && !step.includes("%2F") ? widened : never),
      ),
    fc.integer({ min: 1, max: 4 }).map((n) => target(`sub/${"../".repeat(n)}ok.yaml`, n === 1 ? always : never)),
    // file:// URLs
    fc.constantFrom(
      target(`file://${secret}`, widened),
      target("file:///etc/passwd"),
      target("file://localhost/etc/passwd"),
      target("file:///proc/self/environ"),
      target("file:///dev/zero"),
      target(`file://${root}/ok.yaml`, always),
    ),
    // network: fetched only with both flags, and then only within the size and time limits
    fc.constantFrom(
      target(`${origin}/pet.yaml`, remoteHttp),
      target(`${origin}/moved`, remoteHttp),
      target(`${origin}/to-file`),
      target(`${origin}/to-proc`),
      target(`${origin}/huge`),
      target(`${origin}/bomb.yaml`),
      target(`${origin}/slow`),
      target("https://127.0.0.1:1/x.yaml"),
      target("ftp://127.0.0.1/x.yaml"),
      target("data:text/plain,type: string"),
    ),
    // the harmless ones, so the property sees both outcomes
    fc.constantFrom(target("ok.yaml", always), target("./ok.yaml", always), target(`${root}/ok.yaml`, always)),
  );
}

/** A "billion laughs" YAML file: 9^10 strings through aliases, a few hundred bytes on disk. */
export function aliasBomb(): string {
  const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 10; i++)
    lines.push(
      `a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(",")}]`,
    );
  return `${lines.join("\n")}\ntype: string\n`;
}
