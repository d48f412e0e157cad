/** SHA-256 as hex: the one content hash every stage uses (names, definition ids, fingerprints). */
import { createHash } from "node:crypto";

export function sha256(content: string | Buffer): string {
  return createHash("sha256").update(content).digest("hex");
}
