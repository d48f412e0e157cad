/**
 * Every diagnostic mcpgen can report: its code, severity, a title, why it happens and how to fix it.
 * docs/reference/diagnostic-codes.md and `mcpgen explain <CODE>` are both read from here, so this is the one place
 * to add a rule. `usage: true` marks faults in how mcpgen was called or the file system (exit 2),
 * as opposed to faults in a spec's content (exit 1).
 */
export type CatalogEntry = {
  /** `info`: no fault, a decision mcpgen took that the user should be able to see (why a tool became a task). */
  severity: "error" | "warning" | "info";
  title: string;
  cause: string;
  fix: string;
  usage?: true;
};

const error = (title: string, cause: string, fix: string): CatalogEntry => ({ severity: "error", title, cause, fix });
const warning = (title: string, cause: string, fix: string): CatalogEntry => ({
  severity: "warning",
  title,
  cause,
  fix,
});
const info = (title: string, cause: string, fix: string): CatalogEntry => ({ severity: "info", title, cause, fix });
const usage = (title: string, cause: string, fix: string): CatalogEntry => ({
  ...error(title, cause, fix),
  usage: true,
});

export const catalog = {
  // Reading the file
  FILE_NOT_FOUND: usage(
    "File not found",
    "The spec path does not exist.",
    "Check the path; it is resolved from the current directory.",
  ),
  FILE_IS_DIRECTORY: usage(
    "Path is a directory",
    "A directory was given where a spec file was expected.",
    "Pass the spec file itself, e.g. specs/weather.yaml.",
  ),
  FILE_UNREADABLE: usage(
    "File cannot be read",
    "The operating system refused to read the file.",
    "Check the file's permissions.",
  ),
  FILE_TOO_LARGE: error(
    "File too large",
    "The file is larger than mcpgen reads by default, which guards against runaway input.",
    "Split the spec, or raise the limit with --max-size <MiB> if the size is intended.",
  ),
  FILE_EMPTY: error(
    "File is empty",
    "The file holds no YAML or JSON document.",
    "Write a spec; the smallest valid one has server.name and server.version.",
  ),
  FILE_NOT_UTF8: error(
    "File is not UTF-8",
    "The file contains a byte sequence that is not valid UTF-8.",
    "Re-save the file as UTF-8.",
  ),
  YAML_SYNTAX: error(
    "YAML/JSON syntax error",
    "The parser could not read the document.",
    "Fix the syntax at the position shown.",
  ),
  YAML_DUPLICATE_KEY: error(
    "Duplicate key",
    "A mapping has the same key twice; one value would silently win.",
    "Remove or rename one of the keys.",
  ),
  YAML_ALIAS_LIMIT: error(
    "Too many YAML aliases",
    "The document expands aliases (*anchors) beyond a safe limit, as a 'billion laughs' document does.",
    "Write the repeated content out, or use fewer aliases.",
  ),
  YAML_MULTIPLE_DOCUMENTS: error(
    "More than one YAML document",
    "The file holds several '---' separated documents; a spec is one document.",
    "Keep one document per file.",
  ),
  SPEC_NOT_MAPPING: error(
    "Spec is not a mapping",
    "The top level of a spec must be a mapping with keys such as server and tools.",
    "Start the file with 'server:' (docs/spec-language.md has a complete example).",
  ),
  // Strict JSON (issue 12, h12-cli)
  JSON_SYNTAX: error(
    "JSON syntax error",
    "A .json file is read as strict JSON (RFC 8259): no comments, no trailing commas, no single quotes, every key a double-quoted string.",
    "Fix the syntax at the position shown, or rename the file to .yaml if it is meant to be YAML.",
  ),
  // Reading the file: special files (issue 11)
  FILE_NOT_REGULAR: usage(
    "Not a regular file",
    "The path names a FIFO, a device, a socket or a /proc or /sys pseudo-file; reading it could hang mcpgen or never end.",
    "Pass a spec file; to feed a generated spec, write it to a file first.",
  ),

  // OpenAPI input (generator/openapi)
  OPENAPI_VERSION_UNSUPPORTED: error(
    "OpenAPI version not supported",
    "The document declares an OpenAPI or Swagger version mcpgen does not read.",
    "Use OpenAPI 3.0.x, 3.1.x or Swagger 2.0 (convert older documents with a converter first).",
  ),
  OPENAPI_REF_UNRESOLVED: error(
    "$ref cannot be resolved",
    "A $ref points at a file or a place in a document that does not exist.",
    "Fix the path or the JSON pointer after '#'; local files resolve relative to the document.",
  ),
  OPENAPI_REMOTE_REF: error(
    "Network $ref refused",
    "A $ref points at an http(s) URL; mcpgen does not fetch URLs named by a document unless asked (no SSRF).",
    "Download the file and refer to it locally, or pass --allow-remote-refs if you trust the document.",
  ),
  OPENAPI_CONFIG_INVALID: error(
    "Invalid OpenAPI mapping option",
    "A --include/--exclude selector or a field of the --config file is malformed.",
    "Selectors are tag:<glob>, op:<glob>, path:<glob> or method:<METHOD>; see docs/openapi.md#mapping-rules.",
  ),
  CONFIG_FLAG_MIXUP: error(
    "--config given the config file",
    "--config takes the OpenAPI mapping file (YAML or JSON: include, exclude, maxTools...); the file given is a TypeScript or JavaScript module or is named mcpgen.config.*, which is mcpgen's config file and is read with --config-file.",
    "Run `mcpgen generate --config-file <that file>` without a spec argument (the config names its inputs and outputs), or pass the mapping file to --config.",
  ),
  OPENAPI_OPTIONAL_BODY_REQUIRED_FIELDS: warning(
    "Optional request body with required fields",
    "The operation's requestBody is not marked required: true, yet its schema requires fields. The tool then accepts a call without a body, and requires those fields only once a body field is sent (dependentRequired); if the API always needs the body, an agent learns that only from the API's error.",
    "If the API always needs the body, mark it requestBody.required: true in the document; if it does not, nothing to do.",
  ),
  OPENAPI_SECURITY_UNSUPPORTED: warning(
    "Security scheme not supported",
    "The scheme is of a kind the server cannot fill from its environment (mutual TLS, HTTP digest...) or is malformed (an oauth2 scheme with no flow).",
    "Operations that need only this scheme are called without credentials: supply them from src/credentials.ts (the package README's Authentication section shows how), or use a token-based scheme if the API has one.",
  ),
  OPENAPI_SECURITY_TOKEN_FROM_ENV: warning(
    "OAuth2 sign-in mapped to a token from the environment",
    "The scheme's OAuth2 flows (implicit, authorization code, password) or OpenID Connect need a user to sign in, which a server cannot do on its own; the server sends an access token read from the variable the message names, as Authorization: Bearer.",
    "Obtain an access token beforehand (the API's CLI or console; the scheme's authorization URL) and set the variable; the server does not refresh it. For a token per user: with an authorizationCode flow, keep the upstream-oauth feature (docs/upstream-oauth.md); else return it from src/credentials.ts.",
  ),
  OPENAPI_OUTPUT_SCHEMA_DROPPED: warning(
    "Response schema too large for an outputSchema",
    "With the schemas it references, the operation's 2xx response schema is larger than maxOutputSchemaBytes, so the tool gets no outputSchema; its answers are still returned, unchecked.",
    "Raise maxOutputSchemaBytes in the config file if clients can take schemas that large, or simplify the response schema.",
  ),
  OPENAPI_SHARED_PARAMETERS: info(
    "Parameters every operation takes moved to configuration",
    "Every operation of the document (at least 3, not all of them reads) takes the same optional query parameters or headers with scalar values (Google's alt, fields, quotaUser...). Repeated in each tool they would cost tokens in every tools/list; they are left out of the tools' inputs and sent with every request from an environment variable each, when it is set. A required one stays on each tool.",
    "Nothing to fix. Set the environment variables the message (and the package README) names to send a value; to keep them as tool arguments, set sharedParameters: false, or sharedParameters: { keep: [name] }, in the OpenAPI config.",
  ),
  OPENAPI_DESCRIPTION_CUT: warning(
    "Tool description cut",
    "The operation's summary and description together are longer than the configured cap.",
    "Shorten the description (or set x-mcp.description), or raise maxDescriptionLength in the config file.",
  ),
  OPENAPI_NO_OPERATIONS: warning(
    "No operations",
    "The document has no operations, or include/exclude selected none of them.",
    "Check the paths and the --include/--exclude selectors.",
  ),
  OPENAPI_TOO_MANY_TOOLS: error(
    "Too many tools",
    "More operations are selected than the limit (5,000 by default); no MCP client can choose among so many tools.",
    "Select fewer with --include/--exclude (by tag, path, operationId or method), or raise maxTools in the config file.",
  ),
  OPENAPI_SERVER_RELATIVE: warning(
    "Relative server URL",
    "The document's first server URL is relative (or absent), so the API's host is unknown.",
    "Add an absolute servers[0].url, or start the server with --base-url <url>.",
  ),
  // The MCP Registry name of an OpenAPI document (issue 16, ship-it-publish)
  OPENAPI_REGISTRY_NAME_INVALID: error(
    "Invalid MCP Registry name",
    "info.x-mcp-registry-name is not a reverse-DNS server name with one slash (what the registry's schema requires), so server.json could not be published.",
    "Write it as io.github.<user or org>/<name> or <your domain reversed>/<name>: letters, digits, '.' and '-' before the slash, also '_' after it.",
  ),
  // Options that only OpenAPI input reads (issue 12, h12-cli)
  OPENAPI_OPTION_UNUSED: usage(
    "OpenAPI option given for a spec-language file",
    "--include, --exclude and --config (or openapi: in the config file) select and map OpenAPI operations; an mcpgen spec has none, so they would be silently ignored.",
    "Remove the option, or pass the OpenAPI document it was meant for.",
  ),
  // $ref reading (issue 11: what a $ref may read, and how much)
  REF_OUTSIDE_ROOT: error(
    "$ref leaves the allowed directory",
    "A $ref names a file outside the directory of the document given on the command line (an absolute path, a ../ chain, a file:// URL or a symbolic link pointing out); a document must not read the generating user's files.",
    "Move the file next to the document, or pass --allow-ref-root <dir> for a directory you trust.",
  ),
  REF_NOT_REGULAR_FILE: error(
    "$ref target is not a regular file",
    "A $ref names a FIFO, a device, a socket, a directory or a /proc or /sys pseudo-file, which could hang mcpgen, never end or leak system state.",
    "Refer to a YAML or JSON file.",
  ),
  REF_TOO_LARGE: error(
    "$ref files too large",
    "The document and the files its $refs read (remote ones included) together exceed the size limit, 32 MiB by default.",
    "Raise the limit with --max-size <MiB> if the files are meant to be that large.",
  ),
  REF_INSECURE: error(
    "Plain-http $ref refused",
    "With --allow-remote-refs, $refs are fetched over https only (redirects included), so no one on the network path can change the document.",
    "Use an https URL, or pass --allow-insecure-refs if the network path is trusted.",
  ),
  REF_TIMEOUT: error(
    "Remote $ref too slow",
    "A remote $ref (redirects and body included) did not arrive within the time limit, 30 seconds by default.",
    "Check the URL, download the file and refer to it locally, or raise --ref-timeout <seconds>.",
  ),
  // Repairs of vendor documents (generator/openapi/repair.ts): fixed, listed in the package README
  OPENAPI_INFO_REPAIRED: warning(
    "info.title or info.version filled in",
    "info.title or info.version is missing, empty or not a string; the server is named after the file, or versioned 0.0.0.",
    "Give the document a non-empty info.title and info.version (the generated README lists this repair).",
  ),
  OPENAPI_PATTERN_REPAIRED: warning(
    "Pattern rewritten for the u flag",
    "A pattern escapes a character that needs no escape (`\\:`, `\\-` outside a class), which ECMA-262 allows only without the u flag that validators use; the character is written plainly, which matches the same strings.",
    "Nothing to do; to silence it, remove the needless backslashes from the pattern in the document.",
  ),
  OPENAPI_PATTERN_DROPPED: warning(
    "Pattern dropped",
    "A pattern is not an ECMA-262 regular expression valid with the u flag (a Java class such as \\p{Print}, \\A, {1-20}) and no safe rewrite exists; it is dropped, so values are not checked against it (the upstream API still checks them).",
    "Write the pattern in ECMA-262 syntax in the document (e.g. [\\x20-\\x7E] for \\p{Print}).",
  ),
  OPENAPI_TYPE_REPAIRED: warning(
    "Unknown type repaired",
    "A schema's type is none of JSON Schema's seven; a well-known mistake is mapped (int → integer, file → a binary string), anything else is dropped, so any value is accepted.",
    "Use one of string, number, integer, boolean, object, array, null in the document.",
  ),

  // Shape of the spec language (from the JSON Schema in generator/schema/mcpgen.schema.json)
  SPEC_UNKNOWN_KEY: error(
    "Unknown key",
    "The key is not part of the mcpgen spec language at this place.",
    "Remove it, or correct its spelling.",
  ),
  SPEC_MISSING_FIELD: error("Missing required field", "A field that this entry needs is absent.", "Add the field."),
  SPEC_WRONG_TYPE: error(
    "Wrong type",
    "The value has a different type from the one the spec language expects here.",
    "Change the value to the expected type.",
  ),
  SPEC_INVALID_VALUE: error(
    "Invalid value",
    "The value is not one the spec language allows here.",
    "Use one of the allowed values.",
  ),

  // Server
  SERVER_VERSION_NOT_SEMVER: warning(
    "Server version is not semver",
    "server.version is not a semantic version (MAJOR.MINOR.PATCH); clients and registries expect one.",
    "Use a version such as 1.0.0.",
  ),
  // Large APIs (issue 14, token-cost)
  MANY_TOOLS: warning(
    "More tools than clients accept",
    "The server has more than 128 tools. Clients such as VS Code Copilot, JetBrains Copilot and the OpenAI API refuse more than 128 tools in a request, and every agent session pays for the whole tools/list in tokens (generate prints what it costs). Like every warning, it never fails validate or generate.",
    "Serve the package with --mode dynamic (MCP_MODE=dynamic: five tools to search, browse, describe and call the others), or only some toolsets with --toolsets a,b (MCP_TOOLSETS); the message names the largest toolsets and the package README has the table. Or generate fewer tools (OpenAPI: --include/--exclude).",
  ),
  // Tool references in instructions and descriptions (issue 13, client-examples)
  UNKNOWN_TOOL_REFERENCE: warning(
    "Text names a tool that does not exist",
    "Server instructions or a description name a tool (in backquotes, or a bare snake_case word) that this server does not have, so a model told to use it looks for nothing.",
    "Name an existing tool (the hint suggests the closest), or reword the text; names of prompts, resources, arguments and properties are not flagged.",
  ),

  // Names of tools and prompts
  NAME_INVALID: error(
    "Invalid name",
    "MCP names are 1-128 characters of A-Z a-z 0-9 _ - . only.",
    "Rename it using only letters, digits, '_', '-' and '.'.",
  ),
  NAME_DUPLICATE: error(
    "Duplicate name",
    "Two tools (or two prompts) share a name; names are case-sensitive and must be unique.",
    "Rename one of them.",
  ),
  NAME_CASE_CLASH: warning(
    "Tool names differ only in case",
    "Two tools have names that differ only in letter case (purge and PURGE). MCP names are case-sensitive, but a model or a person easily calls the wrong one, and tools that compare names ignoring case mix them up.",
    "Rename one of them so the names differ in more than case.",
  ),
  NAME_LONG: warning(
    "Name longer than 64 characters",
    "Many clients cut tool names at 64 characters, which can make two tools collide or the name unusable.",
    "Shorten the name to 64 characters or fewer.",
  ),
  RESOURCE_NAME_MISSING: error(
    "Resource has no name",
    "Every resource and resource template needs a non-empty name.",
    "Add a short name, e.g. name: stations.",
  ),
  // Toolset names (issue 14, dynamic-mode)
  TOOLSET_NAME_INVALID: error(
    "Invalid toolset name",
    "A toolset name is what the generated server's --toolsets and MCP_TOOLSETS take, so it must read the same on any command line: 1-64 characters of lowercase a-z, 0-9, '_' and '-', starting with a letter or digit.",
    "Rename the toolset, e.g. 'Pull Requests' becomes pull-requests.",
  ),
  TOOLSET_NAME_RESERVED: error(
    "Reserved toolset name",
    "'all' is what --toolsets takes to mean every toolset, so no toolset can be called so.",
    "Pick another name for the toolset, e.g. everything or general.",
  ),
  // OAuth scopes on tools (issue 17, auth-server)
  TOOL_SCOPE_INVALID: error(
    "Invalid OAuth scope on a tool or resource",
    "A tool's, resource's or resource template's `scopes:` entries are OAuth scope tokens (RFC 6749 §3.3): the generated server names them in a WWW-Authenticate challenge and compares them with an access token's scopes, so they cannot be empty or hold spaces, double quotes, backslashes or non-ASCII characters.",
    "Write each scope as one token, e.g. scopes: [forecast:read]; a scope with a space is two scopes.",
  ),
  // Per-user access to the upstream API (issue 34): whose token the document's oauth2 scopes bind
  UPSTREAM_OAUTH_SCOPES: info(
    "The document's OAuth scopes are asked of the API for each user",
    "An OpenAPI oauth2 scheme has an authorizationCode flow, so the generated server signs each user in to the API (feature upstream-oauth): an operation's scopes, from its security requirement, are what the server asks the API's authorization server for on that user's behalf. They describe what the API grants, not what an MCP client's token (--auth-issuer) holds, so MCP tokens are not checked for them. Without the feature they are demanded of MCP tokens instead, as if --auth-issuer were the API's own authorization server.",
    "Nothing to do when --auth-issuer is another issuer than the API's. When it is the API's own authorization server, set openapi.mcpScopes: document in the config so MCP tokens need the scopes too; to keep the API token in an environment variable instead, generate without upstream-oauth (--features naming the others).",
  ),
  // Renamed tools (renamedFrom / x-mcp-renamed-from)
  RENAMED_FROM_EXISTS: error(
    "renamedFrom names a tool that still exists",
    "A tool says it was renamed from a name another tool (or itself) still has, so the old tool's handler cannot move to it.",
    "Remove renamedFrom (x-mcp-renamed-from) if both tools are meant to exist, or fix the name it gives.",
  ),
  RENAMED_FROM_DUPLICATE: error(
    "Two tools renamed from the same name",
    "Only one tool can take over a former tool's handler file.",
    "Keep renamedFrom (x-mcp-renamed-from) on one of them.",
  ),

  // Schemas
  SCHEMA_NOT_OBJECT: error(
    "Schema is not an object schema",
    "MCP requires inputSchema and outputSchema to describe a JSON object (type: object).",
    "Set 'type: object' at the schema's root and put the parameters under 'properties'.",
  ),
  SCHEMA_UNKNOWN_DIALECT: error(
    "Unknown JSON Schema dialect",
    "$schema names a dialect mcpgen cannot check; only JSON Schema 2020-12 (the default) and draft-07 are supported.",
    "Remove $schema (2020-12 is the default) or set it to https://json-schema.org/draft/2020-12/schema or http://json-schema.org/draft-07/schema#.",
  ),
  SCHEMA_INVALID: error(
    "Schema does not compile",
    "The schema breaks the rules of its JSON Schema dialect, so no validator can be built from it.",
    "Fix the keyword at the position shown.",
  ),
  // Prototype-named properties (issue 11 item 9)
  SCHEMA_PROTO_PROPERTY: warning(
    "Property named __proto__ cannot be sent",
    "Generated servers refuse any argument object holding a '__proto__' key (it would replace an object's prototype in handlers that copy arguments, and JSON Schema validators skip it), so this property can never be passed.",
    "Rename the property if callers must send it; otherwise leave it: calls that omit it work.",
  ),
  // Schema keywords (issue 12, h12-cli)
  SCHEMA_UNKNOWN_KEYWORD: warning(
    "Unknown JSON Schema keyword",
    "A key of a schema is not a keyword of its JSON Schema dialect, so validators ignore it: a misspelt 'propertes' or 'requird' silently accepts anything.",
    "Correct the spelling; prefix deliberate extension keys with 'x-'.",
  ),
  SCHEMA_NULL_KEYWORD: warning(
    "Schema key without a value",
    "A key of a schema has no value (null). In a YAML flow mapping ({ ... }) an unquoted comma ends the value, so 'description: City name, e.g. Paris' makes a key 'e.g. Paris' with no value.",
    'Quote text that contains commas, e.g. description: "City name, e.g. Paris".',
  ),
  // Schema keys that read like text (issue 13, client-examples)
  SCHEMA_KEY_PROSE: warning(
    "Schema key reads like text",
    "A key of a schema holds a space or ends in punctuation, so it is text, not a keyword, and validators ignore it. In a YAML flow mapping ({ ... }) an unquoted comma ends a value and the rest of the text becomes a key of its own.",
    'Quote text that contains commas or colons, e.g. description: "Name, as printed: surname first".',
  ),

  // x-mcp-header (2026-07-28, basic/transports/streamable-http)
  HEADER_NOT_STRING: error(
    "x-mcp-header is not a string",
    "The value of x-mcp-header names an HTTP header and must be a string.",
    "Write the header name as a string, e.g. x-mcp-header: Region.",
  ),
  HEADER_EMPTY: error(
    "x-mcp-header is empty",
    "An empty x-mcp-header cannot form a header name.",
    "Give a header name, e.g. x-mcp-header: Region.",
  ),
  HEADER_CONTROL_CHAR: error(
    "x-mcp-header has control characters",
    "Control characters (including CR and LF) are never allowed in header names.",
    "Remove the control characters.",
  ),
  HEADER_NOT_TOKEN: error(
    "x-mcp-header is not an HTTP token",
    "Header names must match RFC 9110 token syntax (1*tchar): letters, digits and !#$%&'*+-.^_`|~ only.",
    "Use letters, digits and '-' only, e.g. Region or Tenant-Id.",
  ),
  HEADER_DUPLICATE: error(
    "Duplicate x-mcp-header",
    "Two properties of one tool map to the same header name (compared case-insensitively).",
    "Give each property its own header name.",
  ),
  HEADER_TYPE: error(
    "x-mcp-header on a non-primitive property",
    "x-mcp-header is only allowed on properties of type integer, string or boolean; number is not allowed.",
    "Move the annotation to an integer, string or boolean property, or change the property's type.",
  ),
  HEADER_PLACEMENT: error(
    "x-mcp-header is not statically reachable",
    "x-mcp-header must sit on a property reachable from the schema root through 'properties' keys alone, not under items, oneOf/anyOf/allOf/not, if/then/else, $ref or $defs. Clients reject the whole tool otherwise.",
    "Move the annotated property to a plain 'properties' chain from the root.",
  ),
  HEADER_INTEGER_RANGE: error(
    "x-mcp-header integer may leave the safe range",
    "Header-mirrored integers must stay within JavaScript's safe range (-(2^53-1) to 2^53-1).",
    "Bound the property with minimum and maximum inside the safe range.",
  ),
  HEADER_SENSITIVE: warning(
    "x-mcp-header on a sensitive-looking property",
    "Header values are visible to proxies, load balancers and logs; this property's name suggests a secret.",
    "Do not mirror secrets into headers; remove x-mcp-header from this property.",
  ),
  // Unbounded header integers (issue 12, h12-cli)
  HEADER_INTEGER_UNBOUNDED: warning(
    "x-mcp-header integer without safe bounds",
    "A header-mirrored integer must stay within JavaScript's safe range (-(2^53-1) to 2^53-1); without minimum and maximum a caller may send a larger one, which clients cannot mirror exactly.",
    "Add minimum and maximum inside the safe range, e.g. minimum: 0, maximum: 1000000.",
  ),

  // Resources and templates
  RESOURCE_URI_INVALID: error(
    "Resource URI is not absolute",
    "A resource uri must be an absolute URI with a scheme (RFC 3986), e.g. file:///a.txt or weather://stations.",
    "Write the URI with its scheme.",
  ),
  RESOURCE_URI_DUPLICATE: error(
    "Duplicate resource URI",
    "Two resources share a URI, so a read could not tell them apart.",
    "Give each resource its own URI.",
  ),
  RESOURCE_SOURCE_CONFLICT: error(
    "Resource has more than one content source",
    "A resource is served from exactly one of: static text, static blob, an http binding, or (with none of them) a handler.",
    "Keep one of text, blob and http.",
  ),
  TEMPLATE_INVALID: error(
    "Invalid URI template",
    "The uriTemplate is not a valid RFC 6570 URI template.",
    "Fix the expression at the position named in the message; expressions look like {name} or {+path}.",
  ),
  TEMPLATE_VARIABLE_UNNAMED: error(
    "URI template variable has no name",
    "An expression such as {} or {+} names no variable.",
    "Name the variable, e.g. {city}.",
  ),
  TEMPLATE_DUPLICATE: error(
    "Duplicate resource template",
    "Two resource templates share a uriTemplate.",
    "Remove or change one of them.",
  ),
  COMPLETION_UNKNOWN_VARIABLE: error(
    "Completions for an unknown variable",
    "resourceTemplates[].completions names a variable the uriTemplate does not have, so no request could ever ask for it.",
    "Use the template's variable names as keys, or fix the uriTemplate.",
  ),
  MIME_TYPE_INVALID: error(
    "Malformed MIME type",
    "mimeType must look like type/subtype (RFC 6838), optionally with parameters.",
    "Use a MIME type such as application/json or text/plain; charset=utf-8.",
  ),
  // URI templates the server can match (issue 13, h13-uri)
  TEMPLATE_NOT_MATCHABLE: error(
    "URI template cannot be matched back to its variables",
    "A server answers resources/read by matching the URI against the template, and this one is ambiguous: an explode modifier ('*'), several variables in {+a,b}, {#a,b} or {.a,b} (whose separator can appear in a value), two expressions side by side such as {a}{b}, a value followed by a character it may itself contain such as {a}-{b} or {+path}/{b}, or something after a query expression.",
    "Drop the '*', give each variable its own expression followed by a character its values never contain unencoded (e.g. {a}/{b}; only a literal or {?...}/{#...} after {+path}), and put {?...}/{&...} at the end.",
  ),

  // Prompts
  PROMPT_ARGUMENT_DUPLICATE: error(
    "Duplicate prompt argument",
    "Two arguments of one prompt share a name.",
    "Rename or remove one of them.",
  ),
  PROMPT_PLACEHOLDER_UNKNOWN: error(
    "Unknown placeholder in prompt",
    "A {{placeholder}} in a message names no declared argument, so it could never be filled.",
    "Declare the argument under 'arguments', or fix the placeholder's spelling.",
  ),
  PROMPT_ROLE_INVALID: error(
    "Invalid message role",
    "Prompt message roles are 'user' or 'assistant'.",
    "Use role: user or role: assistant.",
  ),
  PROMPT_CONTENT_INVALID: error(
    "Invalid content block",
    "A prompt message's content must be an MCP content block: text, image, audio, resource or resource_link, with that type's fields.",
    "Use e.g. { type: text, text: '...' }.",
  ),

  // HTTP bindings and upstream
  HTTP_METHOD_INVALID: error(
    "Unknown HTTP method",
    "http.method must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS.",
    "Use one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS.",
  ),
  HTTP_PATH_INVALID: error(
    "Invalid http path",
    "http.path must start with '/' and have balanced {param} placeholders.",
    "Write the path relative to upstream.baseUrl, e.g. /forecast/{city}.",
  ),
  HTTP_PATH_PARAM_UNKNOWN: error(
    "Path parameter has no value source",
    "A {param} in http.path names no inputSchema property (for tools) or template variable (for resource templates).",
    "Add the property to inputSchema (or the variable to uriTemplate), or fix the placeholder.",
  ),
  HTTP_PATH_PARAM_NOT_REQUIRED: error(
    "Path parameter is optional",
    "A {param} in http.path must always have a value, so its property must be listed in inputSchema.required.",
    "Add the property to 'required'.",
  ),
  HTTP_PATH_PARAM_TYPE: error(
    "Path parameter is not a string or integer",
    "Path parameters are substituted into the URL and must be of type string or integer.",
    "Declare the property as type: string or type: integer.",
  ),
  UPSTREAM_MISSING: error(
    "No upstream for http bindings",
    "An http binding forwards calls to upstream.baseUrl, but the spec has no upstream.",
    "Add upstream: { baseUrl: https://... } at the top level.",
  ),
  UPSTREAM_URL_INVALID: error(
    "Invalid upstream.baseUrl",
    "upstream.baseUrl must be an absolute http:// or https:// URL.",
    "Write the full URL, e.g. https://api.example.com/v1.",
  ),
  AUTH_ENV_INVALID: error(
    "Invalid environment variable name",
    "upstream.auth.env must be a valid environment variable name (letters, digits and '_', not starting with a digit).",
    "Use a name such as WEATHER_TOKEN.",
  ),

  // Views of tool results (issue 31, MCP Apps): ui: and x-mcp-ui
  UI_VALUE_INVALID: error(
    "Invalid view setting",
    "ui: (x-mcp-ui in OpenAPI) takes false (no view), table, card, or the path of your own HTML page relative to the file that says it.",
    "Write one of those values; remove the setting to let mcpgen choose a table for a list and a card for a record.",
  ),
  UI_FILE_UNREADABLE: error(
    "View page cannot be read",
    "The HTML page ui: (x-mcp-ui) names must be a regular UTF-8 file of at most 1 MB inside the folder of the file that names it (judged by its real path: no absolute path, ../ chain or symbolic link out), as a $ref must; it is copied into the package and served to every client as is.",
    "Fix the path (it is relative to the file that says it), move the page next to that file, or fix the file.",
  ),
  UI_VIEW_MISMATCH: error(
    "View does not fit the tool's answer",
    "table needs an answer that is a list of objects (at the top, or under one property of an object); card needs an object. The tool's outputSchema (or, for a list answer, its response schema) says otherwise, or the tool has no output schema at all.",
    "Choose the other view, give the tool an outputSchema that describes its answer, or point ui: at your own HTML page.",
  ),
  UI_FEATURE_OFF: warning(
    "View without the apps feature",
    "The tool asks for a view, but the features asked for (the spec's features, the config's or --features) leave out apps, so no view is served.",
    "Add apps to the features list (or drop the list: apps is on by default when a tool asks for a view), or remove ui:.",
  ),

  // Long-running operations served as MCP Tasks (issue 30): detection (OpenAPI), x-mcp-task, task:
  TASK_DETECTED: info(
    "Long-running operation detected",
    "The operation documents a long-running job (a 202 answer with a Location or Operation-Location header, Azure's x-ms-long-running-operation or Azure-AsyncOperation header, or a Google Operation answer with a GET that polls it), so its tool starts the job and the tasks feature answers with an MCP task polled to the job's result.",
    "Nothing to fix. To follow the job differently, describe it with x-mcp-task on the operation (it wins over detection); to serve the start answer as it is, generate without the tasks feature.",
  ),
  TASK_RESULT_IS_STATUS: info(
    "Task result is the final status document",
    "An Azure long-running operation whose final-state-via is original-uri (the default for PUT and PATCH) or azure-async-operation: the task's result is the last status document the poll returns, not a separate resource.",
    "Nothing to fix; set x-ms-long-running-operation-options.final-state-via: location if the result is fetched from the Location header.",
  ),
  TASK_POLL_UNKNOWN: warning(
    "Long-running operation without a way to poll it",
    "The operation answers a Google-style Operation (name, done), but the document has no GET whose answer is the same Operation schema and whose path takes one parameter, so mcpgen cannot tell where its status is read: the tool answers the Operation as it is.",
    "Add x-mcp-task to the operation: poll: { path: /v1/{name}, params: { name: /name } }, status: { pointer: /done, completed: ['true'], failed: [] }, result: { pointer: /response }, error: /error.",
  ),
  TASK_EXTENSION_INVALID: error(
    "Invalid x-mcp-task",
    "x-mcp-task on an operation must be a mapping with TaskBinding's fields (poll, status, result, error, cancel, pollIntervalMs, resultSchema), each of the documented type.",
    "Fix the field at the position shown; docs/long-running.md shows a complete x-mcp-task.",
  ),
  TASK_CANCEL_OPERATION_UNKNOWN: error(
    "x-mcp-task cancel names no operation",
    "cancel.operationId names an operationId no operation of the document has, so tasks/cancel would have nothing to call.",
    "Use the operationId of the operation that cancels the job (often a DELETE on the job's path), or give cancel: { method, path, params } directly.",
  ),
  TASK_PATH_UNDOCUMENTED: warning(
    "Task poll or cancel path not in the document",
    "x-mcp-task's poll.path is polled with GET, and cancel.path called with cancel.method, but the document has no such operation at that path: a typo in the path, or a method the API does not take (a poll the API answers with 405 fails the task).",
    "Use the path of the document's GET status operation (for cancel: of its cancel operation, or name it with cancel.operationId), or document the operation.",
  ),
  TASK_PARAM_MISSING: error(
    "Task path parameter not supplied",
    "A task binding's poll.path or cancel.path has a {param} that its params do not map to a JSON pointer into the start answer, so the URL cannot be built.",
    "Add the parameter to params with a pointer into the start answer's body, e.g. params: { id: /id }.",
  ),
  TASK_POLL_MISSING: error(
    "Task binding without a poll",
    "A task binding must say where the job's status is read: poll.headers (a header of the start answer holding the URL), poll.link (a pointer to a URL in its body) or poll.path (with params).",
    "Give one of poll.headers, poll.link or poll.path.",
  ),
  TASK_STATUS_INCOMPLETE: error(
    "Task status without terminal values",
    "status.pointer names the field that says the job's state, but status.completed lists no value, so no answer would ever end the task (it would run until its TTL).",
    "List the values that mean done in status.completed (and the failing ones in status.failed), e.g. completed: [succeeded], failed: [failed].",
  ),
  TASK_POINTER_INVALID: error(
    "Not a JSON pointer",
    "A task binding's pointer (status.pointer, result.pointer, result.link, poll.link, error, a params value) must be a JSON pointer (RFC 6901): empty for the whole document, else '/' followed by the path, with ~0 and ~1 the only escapes.",
    "Write the pointer with a leading slash, e.g. /status or /result/url.",
  ),
  TASK_RESULT_AMBIGUOUS: error(
    "Task result names more than one source",
    "A task binding's result gives more than one of pointer, link and header; the result comes from exactly one place.",
    "Keep one: pointer (the value in the status document), link (a URL in it to GET) or header (a URL the start answer gave).",
  ),
  TASK_METHOD_INVALID: error(
    "Task cancel method is not an HTTP method",
    "cancel.method must be an HTTP method that may end a job (DELETE, POST, PUT or PATCH).",
    "Use DELETE (or the method the upstream's cancel operation takes).",
  ),
  TASK_FEATURE_OFF: warning(
    "Task tool without the tasks feature",
    "The tool is bound to a long-running operation, but the features asked for (the spec's features, the config's or --features) leave out tasks: the tool answers the start answer (a 202 body) as it is, and its job is not followed.",
    "Add tasks to the features list (or drop the list: tasks is on by default when a tool is a task), or remove the task binding.",
  ),

  // Generating a package
  OUTPUT_NOT_DIRECTORY: usage(
    "--out is not a directory",
    "The output path exists and is a file.",
    "Pass a directory (it is created when missing).",
  ),
  WRITE_FAILED: usage(
    "Cannot write the package",
    "Writing a generated file failed.",
    "Check that the output directory is writable and the disk has room.",
  ),
  RENDER_FAILED: error(
    "Rendering failed",
    "The spec passed every check, but turning it into code failed inside mcpgen or a library it uses. This is a bug in mcpgen: no spec should get this far and fail.",
    "Report it with the spec (see SECURITY.md for how); meanwhile simplify the schema or name the message points at.",
  ),
  HANDLER_OBSOLETE: warning(
    "Handler no longer used",
    "A handler file mcpgen scaffolded for a tool, resource or prompt belongs to no entry of the spec any more; it is kept, never deleted. Files of your own (helpers) are never flagged.",
    "Delete the file if its code is no longer needed, restore the entry in the spec, or, if the tool was renamed, add renamedFrom (x-mcp-renamed-from) to the new one so the file moves.",
  ),
  HANDLER_TYPE_ERROR: warning(
    "Handler does not type-check",
    "A handler you wrote no longer matches the types generated from the spec (its arguments or result changed). generate warns; generate --check fails on it.",
    "Update the handler to the new types in src/types.ts.",
  ),
  HANDLER_RUNTIME_IMPORT: warning(
    "Handler imports runtime internals",
    "A file of yours (a handler, src/credentials.ts) imports a runtime module other than runtime/handler-api.ts. The runtime's other modules are mcpgen's: they move between versions, and a package carries only the features it was generated with, so the import can break on a later generate.",
    "Import from runtime/handler-api.ts instead: it exports SpecContext, ToolResult, ResourceReadResult, GetPromptResult, McpError, ErrorCode, notFound and the rest a handler uses.",
  ),
  // Publishing: server.json for the MCP Registry (issue 16, ship-it-publish)
  REGISTRY_NAME_PLACEHOLDER: warning(
    "No MCP Registry name",
    "The spec does not say the server's name in the MCP Registry, so server.json (and package.json's mcpName) hold the placeholder io.github.OWNER/<package>, which the registry refuses to publish. generate says nothing of it (most packages are never published); the package's npm publish stops with this code (its prepublishOnly script).",
    "Set server.registryName in the spec (OpenAPI: info.x-mcp-registry-name) to a reverse-DNS name you can prove you own: io.github.<your GitHub user or org>/<name>, or <your domain reversed>/<name> (e.g. com.example/weather), and generate again. A package you do not publish: mark it private (spec language: package: { private: true }).",
  ),
  SERVER_JSON_VERSION_DRIFT: error(
    "server.json and package.json versions differ",
    "generate --check found server.json's version (or its npm package's) different from package.json's: publishing now would list a version in the MCP Registry that npm does not serve. A version bumped by hand (npm version) in one file does it.",
    "Set the version in the spec (server.version, OpenAPI info.version) and run mcpgen generate, which writes the same version into both files.",
  ),
  // The config file (issue 12, h12-cli)
  CONFIG_INVALID: error(
    "Invalid config file",
    "The mcpgen config file (mcpgen.config.ts, .mjs, .json or .yaml) has an unknown key, a missing input or output, or a value of the wrong type.",
    "Fix the key at the position shown; docs/reference/config.md lists every field.",
  ),
  CONFIG_LOAD_FAILED: error(
    "Config file cannot be loaded",
    "Importing the TypeScript or JavaScript config file failed: a syntax error, or the code threw.",
    "Fix the error at the position shown; the config runs as a module, so it can also be checked with tsc.",
  ),
  // Toolsets in the config file (issue 14, dynamic-mode)
  CONFIG_TOOLSET_UNKNOWN: warning(
    "Config renames a toolset no tool is in",
    "An entry of the config file's toolsets names a source toolset that no tool of the spec belongs to, so it changes nothing: likely a typo, or a tag that was renamed.",
    "Use one of the spec's toolset names (OpenAPI: the first tag, lowercased, else the first path segment; spec language: toolset:), or remove the entry.",
  ),
  // Ownership of the output directory (generator/output/ownership.ts)
  OUTPUT_NOT_OWNED: error(
    "--out holds files mcpgen did not write",
    "The output directory holds files mcpgen has no record of writing (.mcpgen/files.json), and generating would overwrite them or mix a package into a folder that is not one.",
    "Generate into a new or empty directory, move those files away, or pass --force to let mcpgen overwrite them (from then on they are mcpgen's).",
  ),
  CACHE_DIR_UNSAFE: warning(
    "Runtime cache folder not used",
    "The folder mcpgen keeps the runtime's compiled JavaScript in (MCPGEN_CACHE_DIR, else $XDG_CACHE_HOME/mcpgen or ~/.cache/mcpgen) is owned by another user or writable by group or others. What it holds goes into dist/ and runs when the server starts, so another user could plant code there; mcpgen neither reads nor writes it.",
    "Point MCPGEN_CACHE_DIR at a folder only you can write (chmod 700), or set MCPGEN_CACHE=off. Generating works without the cache, only slower.",
  ),
  OUTPUT_PATH_OUTSIDE: error(
    "A path to write or remove leads outside --out",
    "The package's ownership record (.mcpgen/files.json, committed with the package, so a clone or a pull request can change it) names a path that is not a plain path inside the package (`../x`, `/x`), or a symbolic link in the package (a folder linked to another place) would make mcpgen write or remove a file outside --out. Nothing is written, even with --force.",
    "Remove the entry from .mcpgen/files.json (or delete the file: mcpgen then recognises its own files by their header), or replace the symbolic link with a real folder. Check where the change came from: a record naming files outside the package is not one mcpgen writes.",
  ),
} satisfies Record<string, CatalogEntry>;

export type Code = keyof typeof catalog;

export function isCode(value: string): value is Code {
  return Object.hasOwn(catalog, value);
}
