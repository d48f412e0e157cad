// A deterministic spec-language file the size of the one in issue 12 (40 MB, 96,669 tools), for the
// "validate a huge spec" benchmark. Every tool has a realistic shape: a title, a one- to three-sentence
// description, an inputSchema of 2-6 properties (strings with formats and enums, bounded integers,
// arrays, nested objects, now and then an x-mcp-header), sometimes an outputSchema and annotations, and
// an http binding whose path parameters are required properties. Written as block YAML, as people write
// specs by hand. Run: `npx tsx bench/large-spec.ts <out.yaml> [tools]` (default 96,669 tools).
import { createWriteStream } from "node:fs";
import { seededRandom } from "./lib/seeded-random.ts";

export const LARGE_SPEC_TOOLS = 96_669;

const NOUNS = [
  "order",
  "customer",
  "invoice",
  "ticket",
  "device",
  "shipment",
  "account",
  "report",
  "message",
  "project",
];
const NOUNS2 = ["note", "payment", "refund", "user", "team", "label", "comment", "webhook", "file", "event"];
const VERBS = [
  ["list", "GET", "Lists the"],
  ["get", "GET", "Returns one"],
  ["create", "POST", "Creates a"],
  ["update", "PATCH", "Updates a"],
  ["delete", "DELETE", "Deletes a"],
  ["search", "GET", "Searches the"],
] as const;
const PHRASES = [
  "Results are paginated; pass the cursor from the previous page to continue.",
  "Requires the caller to hold the matching scope on the workspace.",
  "Timestamps are RFC 3339 in UTC.",
  "Deleted items are kept for 30 days and can be restored.",
  "The response is cached for up to 60 seconds.",
  "Rate limited to 100 requests per minute per token.",
  "Fields not listed in the request keep their current values.",
];

export function* largeSpecChunks(tools = LARGE_SPEC_TOOLS): Generator<string> {
  const next = seededRandom(12);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  yield [
    "# A generated benchmark spec (bench/large-spec.ts); not a real API.",
    "server:",
    "  name: bench-huge",
    "  version: 1.0.0",
    "  title: Huge benchmark API",
    "  description: A synthetic API with a very large number of tools.",
    "upstream:",
    "  baseUrl: https://api.example.com/v2",
    "  auth: { type: bearer, env: BENCH_TOKEN }",
    "tools:",
    "",
  ].join("\n");
  let batch: string[] = [];
  for (let i = 0; i < tools; i++) {
    const [verb, method, lead] = pick(VERBS);
    const noun = pick(NOUNS);
    const sub = pick(NOUNS2);
    const service = `svc${i % 400}`;
    const name = `${service}.${verb}_${sub}s_${i}`;
    const sentences = [`${lead} ${sub}s of a ${noun}.`];
    if (next() < 0.15) sentences.push(pick(PHRASES));
    const lines = [`  - name: ${name}`];
    if (next() < 0.5) lines.push(`    title: ${verb[0].toUpperCase()}${verb.slice(1)} ${noun} ${sub}s`);
    lines.push(
      `    description: ${sentences.join(" ")}`,
      "    inputSchema:",
      "      type: object",
      "      properties:",
      `        ${noun}Id: { type: string }`,
    );
    const required = [`${noun}Id`];
    let path = `/${noun}s/{${noun}Id}/${sub}s`;
    if (verb !== "list" && verb !== "create" && verb !== "search") {
      lines.push(`        ${sub}Id: { type: string }`);
      required.push(`${sub}Id`);
      path += `/{${sub}Id}`;
    }
    if (verb === "list" || verb === "search") {
      lines.push("        limit: { type: integer, minimum: 1, maximum: 100 }");
    }
    if (verb === "search") lines.push("        query: { type: string, minLength: 1, maxLength: 200 }");
    if (verb === "create" || verb === "update") {
      lines.push(`        ${sub}: { type: object, properties: { title: { type: string } } }`);
      required.push(sub);
    }
    if (next() < 0.1) lines.push("        region: { type: string, enum: [eu, us, ap], x-mcp-header: Region }");
    lines.push(`      required: [${required.join(", ")}]`);
    if (next() < 0.3) lines.push("      additionalProperties: false");
    if (next() < 0.1)
      lines.push("    outputSchema: { type: object, properties: { id: { type: string } }, required: [id] }");
    if (method === "GET") lines.push("    annotations: { readOnlyHint: true }");
    else if (method === "DELETE") lines.push("    annotations: { destructiveHint: true, idempotentHint: true }");
    lines.push(`    http: { method: ${method}, path: "${path}" }`);
    batch.push(lines.join("\n"));
    if (batch.length === 1000) {
      yield `${batch.join("\n")}\n`;
      batch = [];
    }
  }
  if (batch.length > 0) yield `${batch.join("\n")}\n`;
}

/** Writes the spec to `file` and resolves with its size in bytes. */
export async function writeLargeSpec(file: string, tools = LARGE_SPEC_TOOLS): Promise<number> {
  const out = createWriteStream(file);
  let bytes = 0;
  for (const chunk of largeSpecChunks(tools)) {
    bytes += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return bytes;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, tools] = process.argv.slice(2);
  if (!file) {
    process.stderr.write("usage: tsx bench/large-spec.ts <out.yaml> [tools]\n");
    process.exit(2);
  }
  const bytes = await writeLargeSpec(file, tools ? Number(tools) : LARGE_SPEC_TOOLS);
  process.stdout.write(`${file}: ${(bytes / 1e6).toFixed(1)} MB\n`);
}
