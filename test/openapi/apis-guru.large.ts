/**
 * A slice of the APIs.guru corpus (bench/corpus/): the first document of each repair class and the first
 * documents of the committed random sample, ten in all, through mcpgen and openapi-mcp-generator. Every
 * one must generate, compile strict and serve tools/list with mcpgen, and none may be handled by the peer
 * and refused by mcpgen. The whole corpus is `npx tsx bench/corpus/run.ts` (bench/RESULTS.md).
 * Run by `npm run test:large`.
 */
import { describe, expect, it } from "vitest";
import { corpusLists, runCorpus } from "../../bench/corpus/run.ts";

describe("APIs.guru documents, a slice of the corpus", () => {
  const { sample, classes } = corpusLists();
  // One per class, then the first sampled documents (one of which is also a class's) up to ten.
  const docs = Object.values(classes).map((list) => list[0]);
  for (const doc of sample) if (docs.length < 10 && !docs.includes(doc)) docs.push(doc);

  it("all generate, compile strict and serve tools/list; none the peer handles is refused", async () => {
    expect(docs.length).toBeGreaterThanOrEqual(10);
    const results = await runCorpus(docs, { jobs: 1, peer: true });
    const failures = results
      .filter((r) => r.ours.failedAt)
      .map((r) => `${r.doc}: ${r.ours.failedAt}: ${r.ours.reason}`);
    expect(failures).toEqual([]);
    for (const r of results) expect(r.ours.tools, r.doc).toBeGreaterThan(0);
    const refused = results.filter((r) => r.peer && !r.peer.failedAt && r.ours.failedAt).map((r) => r.doc);
    expect(refused).toEqual([]);
    // Each class's document was repaired, not refused: its warnings name the repair.
    const codes = (doc: string) => Object.keys(results.find((r) => r.doc === doc)?.ours.codes ?? {});
    expect(codes(classes["pattern-repaired"][0])).toContain("OPENAPI_PATTERN_REPAIRED");
    expect(codes(classes["pattern-dropped"][0])).toContain("OPENAPI_PATTERN_DROPPED");
    expect(codes(classes["info-empty"][0])).toContain("OPENAPI_INFO_REPAIRED");
    expect(codes(classes["type-unknown"][0])).toContain("OPENAPI_TYPE_REPAIRED");
  }, 1_800_000);
});
