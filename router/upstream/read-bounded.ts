/**
 * Reads an upstream body into one Buffer, up to `limit` bytes. Returns null when the body is larger
 * (the caller treats that as a failure rather than buffering without bound).
 */
export async function readBounded(body: AsyncIterable<Uint8Array>, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limit) return null;
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
}

/** Reads at most `limit` bytes of a body as text (for classifying error answers), then stops. */
export async function readSnippet(
  body: AsyncIterable<Uint8Array> & { destroy?: () => void },
  limit: number,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      size += chunk.byteLength;
      if (size >= limit) break;
    }
  } catch {
    // A broken error body still leaves the status to classify.
  } finally {
    body.destroy?.();
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}
