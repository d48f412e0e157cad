/**
 * Kept so older instructions (`npx tsx scripts/readme-codes.ts` after adding a diagnostic code) still work:
 * the code and flag tables left the README for docs/reference/, which scripts/docs.ts writes.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

execFileSync(process.execPath, [...process.execArgv, fileURLToPath(new URL("docs.ts", import.meta.url))], {
  stdio: "inherit",
});
