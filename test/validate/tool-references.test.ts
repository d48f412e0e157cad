// UNKNOWN_TOOL_REFERENCE: instructions and descriptions that name a tool the server does not have, with
// the spelling helper's "did you mean", and no warning for words that name anything else of the server.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateFiles } from "../../generator/index.ts";

const dir = mkdtempSync(join(tmpdir(), "mcpgen-tool-refs-"));
let n = 0;

function references(spec: string) {
  const file = join(dir, `spec-${n++}.yaml`);
  writeFileSync(file, spec);
  return validateFiles([file])
    .diagnostics.filter((d) => d.code === "UNKNOWN_TOOL_REFERENCE")
    .map((d) => `${d.line}:${d.col} ${d.message} | ${d.hint}`);
}

const TOOLS = `tools:
  - name: get_forecast
    description: Forecast; see \`convertTemperature\` for units and \`get-forcast\` for nothing.
    inputSchema: { type: object, properties: { city_name: { type: string } } }
  - name: convert_temperature
    inputSchema: { type: object }
prompts:
  - name: packing_list
    description: Uses \`city_name\` and \`days_ahead\`.
    arguments: [{ name: days_ahead }]
resourceTemplates:
  - { uriTemplate: "w://city/{city_id}", name: city_page, description: "The \`city_page\` of \`city_id\`." }
`;

describe("tool references in text", () => {
  it("warns on a missing tool in the instructions, bare or in backquotes, with a did-you-mean", () => {
    const spec = `server:
  name: w
  version: 1.0.0
  instructions: Call get_forcast first, then \`list_alerts\`; never \`get_forecast\` twice.
${TOOLS}`;
    expect(references(spec)).toEqual([
      "4:17 server.instructions names 'get_forcast', which is not a tool of this server | did you mean 'get_forecast'?",
      "4:17 server.instructions names 'list_alerts', which is not a tool of this server | its tools: get_forecast, convert_temperature; name an existing tool or reword the text",
      "7:18 tool 'get_forecast' names 'convertTemperature', which is not a tool of this server | did you mean 'convert_temperature'?",
      "7:18 tool 'get_forecast' names 'get-forcast', which is not a tool of this server | did you mean 'get_forecast'?",
    ]);
  });

  it("leaves alone prose, URLs, plain words, upper-case constants, x- keys and names of other things", () => {
    const spec = `server:
  name: w
  version: 1.0.0
  instructions: >-
    Set \`WEATHER_TOKEN\`, see https://example.com/some_path and \`x-mcp-header\`; \`city\` and \`days_ahead\`
    are arguments, \`packing_list\` is a prompt, \`city_page\` a template. Use \`get_forecast\` (or \`get_forecast()\`).
${TOOLS.replace(" and `get-forcast` for nothing", "").replace("`convertTemperature`", "`convert_temperature`")}`;
    expect(references(spec)).toEqual([]);
  });

  it("takes dotted words for tool names only when the server's tools are dotted", () => {
    const dotted = (
      tool: string,
    ) => `server: { name: n, version: 1.0.0, instructions: "Use \`notes.craete\`, see \`README.md\`." }
tools: [{ name: ${tool}, inputSchema: { type: object } }]
`;
    expect(references(dotted("notes.create"))).toEqual([
      "1:50 server.instructions names 'notes.craete', which is not a tool of this server | did you mean 'notes.create'?",
    ]);
    expect(references(dotted("create_note"))).toEqual([]);
  });

  it("the example specs name only tools they have", () => {
    for (const spec of ["weather.yaml", "notes.yaml", "conformance.yaml", "petstore.yaml"]) {
      const found = validateFiles([join(import.meta.dirname, "../../specs", spec)]).diagnostics;
      expect(found.filter((d) => d.code === "UNKNOWN_TOOL_REFERENCE")).toEqual([]);
    }
  });
});
