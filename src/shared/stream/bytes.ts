/**
 * Reading byte streams into memory with a cap, and gzip, for every service: request bodies,
 * upstream answers, sitemaps and data imports all arrive as untrusted streams.
 * @module
 */

/** Gzip magic bytes (RFC 1952). */
export const isGzip = (bytes: Uint8Array): boolean =>
  bytes[0] === 0x1f && bytes[1] === 0x8b;

/**
 * Reads `stream` whole, or stops at the first chunk that passes `maxBytes`, cancels the
 * stream and answers "too-large": nothing past the cap is read.
 */
export async function readCapped(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array | "too-large"> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return "too-large";
    }
    chunks.push(value);
  }
  return concatBytes(chunks, size);
}

/** Joins `chunks` (of `size` bytes in all) into one array; a lone chunk is returned as it is. */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** Gunzips `bytes`, refusing ("too-large") an expansion past `maxBytes`, so a small bomb stays small. */
export function gunzip(
  bytes: Uint8Array,
  maxBytes: number,
): Promise<Uint8Array | "too-large"> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream("gzip"));
  return readCapped(stream, maxBytes);
}
