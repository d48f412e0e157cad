// Reading an upstream answer's body without trusting its size: chunks are kept only until the text they
// decode to passes the cap (characters, as JS counts them; bytes for binary types), then the body is
// cancelled, which closes the connection. What is held is at most the cap plus the one chunk that crossed it.

export const DEFAULT_MAX_BODY_CHARS = 1_000_000;

export type CappedBody = { body: Buffer; cut: boolean };

export async function readCapped(response: Response, maxChars: number, binary: boolean): Promise<CappedBody> {
  const stream = response.body;
  if (!stream) return { body: Buffer.alloc(0), cut: false };
  const reader = stream.getReader();
  const decoder = new TextDecoder("utf-8");
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { body: Buffer.concat(chunks), cut: false };
      chunks.push(value);
      // Text is counted by what it decodes to (the cap is in characters); the decoded copy is dropped at once.
      size += binary ? value.byteLength : decoder.decode(value, { stream: true }).length;
      if (size > maxChars) {
        await reader.cancel().catch(() => {});
        return { body: Buffer.concat(chunks), cut: true };
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/** Discards a body we will not use (a redirect, a retried 429/503), so its connection is not kept busy. */
export function discard(response: Response): void {
  response.body?.cancel().catch(() => {});
}
