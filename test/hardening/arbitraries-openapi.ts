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
