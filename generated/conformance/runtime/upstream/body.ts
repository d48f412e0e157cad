// Reading an upstream answer's body without trusting its size: chunks are kept only until the text they
// decode to passes the cap (characters, as JS counts them; bytes for binary types), then the body is
// cancelled, which closes the connection. What is held is at most the cap plus the one chunk that crossed it.

// Imported, not global: generated packages compile without the DOM library, where the type lives.
import { TextDecoder } from "node:util";

export const DEFAULT_MAX_BODY_CHARS = 1_000_000;

export type CappedBody = { body: Buffer; cut: boolean };

export async function readCapped(response: Response, maxChars: number, binary: boolean): Promise<CappedBody> {
  const stream = response.body;
  if (!stream) return { body: Buffer.alloc(0), cut: false };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  // UTF-8 never takes fewer bytes than the UTF-16 units it decodes to, so text is only decoded (to count
  // characters exactly) once its bytes pass the cap; most answers never get there.
  let decoder: TextDecoder | undefined;
  let chars = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { body: Buffer.concat(chunks), cut: false };
      chunks.push(value);
      bytes += value.byteLength;
      if (bytes <= maxChars) continue;
      if (!binary) {
        if (!decoder) {
          decoder = new TextDecoder("utf-8");
          for (const chunk of chunks.slice(0, -1)) chars += decoder.decode(chunk, { stream: true }).length;
        }
        chars += decoder.decode(value, { stream: true }).length;
        if (chars <= maxChars) continue;
      }
      await reader.cancel().catch(() => {});
      return { body: Buffer.concat(chunks), cut: true };
    }
  } finally {
    reader.releaseLock();
  }
}

/** Discards a body we will not use (a redirect, a retried 429/503), so its connection is not kept busy. */
export function discard(response: Response): void {
  response.body?.cancel().catch(() => {});
}
