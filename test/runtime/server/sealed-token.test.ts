// Sealed tokens (cursors, MRTR requestState) across instances (issue 27 item 7): one secret shared opens
// everywhere; several rotate (the first seals, all open); rekey takes a shared store's secret.
import { expect, test } from "vitest";
import { sealingSecrets } from "../../../runtime/package/spec-main.ts";
import { createTokenSealer } from "../../../runtime/server/sealed-token.ts";

const OLD = Buffer.from("o".repeat(32));
const NEW = Buffer.from("n".repeat(32));

test("a shared secret opens on every sealer; rotation opens old tokens and seals with the first secret", () => {
  const token = createTokenSealer(OLD).seal({ offset: 100 });
  expect(createTokenSealer(OLD).open(token)).toEqual({ offset: 100 });
  expect(createTokenSealer().open(token)).toBeUndefined();
  const rotated = createTokenSealer([NEW, OLD]);
  expect(rotated.open(token)).toEqual({ offset: 100 });
  const fresh = rotated.seal({ offset: 200 });
  expect(createTokenSealer(NEW).open(fresh)).toEqual({ offset: 200 });
  expect(createTokenSealer(OLD).open(fresh)).toBeUndefined();
  const rekeyed = createTokenSealer();
  rekeyed.rekey([OLD]);
  expect(rekeyed.open(token)).toEqual({ offset: 100 });
});

test("MCP_SEALING_SECRET: unset, a rotation list, or a usage error for a short secret", () => {
  expect(sealingSecrets({})).toBeUndefined();
  expect(sealingSecrets({ MCP_SEALING_SECRET: "" })).toBeUndefined();
  expect(sealingSecrets({ MCP_SEALING_SECRET: `${"n".repeat(32)}, ${"o".repeat(32)}` })).toEqual([NEW, OLD]);
  expect(sealingSecrets({ MCP_SEALING_SECRET: `${"n".repeat(32)},short` })).toMatch(/at least 32 characters/);
});
