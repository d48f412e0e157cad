/**
 * Swagger 2.0 reshaped as OpenAPI 3.0, so one mapper serves both: `body` and `formData` parameters
 * become a request body, `produces` picks the response media type, `collectionFormat` becomes
 * style/explode, host + basePath + schemes become a server, securityDefinitions become securitySchemes.
 * `#/definitions/...` refs keep working because the original top-level keys stay in place.
 */
import { setOwn } from "../../runtime/protocol/codec.ts";
import { deref, isJson, type Json, METHODS } from "./document.ts";

export function fromSwagger2(doc: Json): Json {
  const securitySchemes: Json = {};
  for (const [name, raw] of Object.entries(isJson(doc.securityDefinitions) ? doc.securityDefinitions : {})) {
    if (isJson(raw)) setOwn(securitySchemes, name, securityScheme(raw));
  }
  const paths: Json = {};
  for (const [path, rawItem] of Object.entries(isJson(doc.paths) ? doc.paths : {})) {
    const item = deref(doc, rawItem);
    if (!item) continue;
    const converted: Json = {};
    for (const method of METHODS) {
      const op = item[method];
      if (isJson(op)) converted[method] = operation(doc, op, item.parameters);
    }
    setOwn(paths, path, converted);
  }
  const host = typeof doc.host === "string" ? doc.host : undefined;
  const basePath = typeof doc.basePath === "string" ? doc.basePath : "";
  const scheme = Array.isArray(doc.schemes) && doc.schemes.length > 0 ? String(doc.schemes[0]) : "https";
  const url = host ? `${scheme}://${host}${basePath}` : basePath || "/";
  return {
    ...doc,
    openapi: "3.0.3",
    servers: [{ url }],
    paths,
    components: { schemas: doc.definitions ?? {}, securitySchemes },
  };
}

function operation(doc: Json, op: Json, shared: unknown): Json {
  const consumes = list(op.consumes ?? doc.consumes) ?? ["application/json"];
  const produces = list(op.produces ?? doc.produces) ?? ["application/json"];
  const byKey = new Map<string, Json>();
  for (const raw of [
    ...(Array.isArray(shared) ? shared : []),
    ...(Array.isArray(op.parameters) ? op.parameters : []),
  ]) {
    const parameter = deref(doc, raw);
    if (parameter) byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  const parameters: Json[] = [];
  const form: Json = {};
  const formRequired: string[] = [];
  let requestBody: Json | undefined;
  let hasFile = false;
  for (const parameter of byKey.values()) {
    const {
      name,
      in: where,
      required,
      description,
      collectionFormat,
      allowEmptyValue: _a,
      schema,
      ...rest
    } = parameter;
    if (where === "body") {
      const type = consumes.find((t) => /json/i.test(t)) ?? consumes[0];
      requestBody = { required: required === true, content: { [type]: { schema: schema ?? {} } } };
    } else if (where === "formData") {
      if (rest.type === "file") hasFile = true;
      form[String(name)] = description ? { ...rest, description } : rest;
      if (required === true) formRequired.push(String(name));
    } else {
      parameters.push({
        name,
        in: where,
        required: required === true || where === "path",
        ...(description ? { description } : {}),
        schema: rest,
        ...collection(String(where), collectionFormat),
        ...(rest["x-mcp-header"] !== undefined ? { "x-mcp-header": rest["x-mcp-header"] } : {}),
      });
    }
  }
  if (Object.keys(form).length > 0) {
    const multipart = hasFile || consumes.some((t) => /multipart\/form-data/i.test(t));
    const type = multipart ? "multipart/form-data" : "application/x-www-form-urlencoded";
    const body = { type: "object", properties: form, ...(formRequired.length ? { required: formRequired } : {}) };
    requestBody = { required: formRequired.length > 0, content: { [type]: { schema: body } } };
  }
  const responses: Json = {};
  for (const [status, raw] of Object.entries(isJson(op.responses) ? op.responses : {})) {
    const response = deref(doc, raw);
    if (!response) continue;
    const type = produces.find((t) => /json/i.test(t)) ?? produces[0];
    setOwn(responses, status, {
      description: response.description ?? "",
      ...(response.schema ? { content: { [type]: { schema: response.schema } } } : {}),
    });
  }
  const { consumes: _c, produces: _p, ...kept } = op;
  return { ...kept, parameters, ...(requestBody ? { requestBody } : {}), responses };
}

/** Swagger's collectionFormat as OpenAPI 3 style/explode (csv is Swagger's default for arrays). */
function collection(where: string, format: unknown): Json {
  if (where !== "query") return {};
  switch (format) {
    case "multi":
      return { style: "form", explode: true };
    case "ssv":
      return { style: "spaceDelimited", explode: false };
    case "pipes":
      return { style: "pipeDelimited", explode: false };
    default:
      return { style: "form", explode: false };
  }
}

function securityScheme(raw: Json): Json {
  if (raw.type === "basic") return { type: "http", scheme: "basic", description: raw.description };
  if (raw.type === "oauth2") {
    // Swagger 2's flow names (application, accessCode) and both URLs carried over as OpenAPI 3 states them.
    const flow =
      raw.flow === "application"
        ? "clientCredentials"
        : raw.flow === "accessCode"
          ? "authorizationCode"
          : String(raw.flow);
    const urls = { authorizationUrl: raw.authorizationUrl, tokenUrl: raw.tokenUrl };
    return { type: "oauth2", flows: { [flow]: { ...urls, scopes: raw.scopes ?? {} } } };
  }
  return raw;
}

function list(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.length > 0 ? value.map(String) : undefined;
}
