/**
 * The Node adapter's answer compressor: node:zlib at a dynamic answer's quality, where
 * `CompressionStream` compresses brotli at quality 11 (17 ms of CPU for a 14 KB search answer,
 * 90 times what the uncompressed answer costs the server). Measured in the server under load,
 * a 14 KB answer (about 200 µs uncompressed) costs about 200 µs more gzipped at zlib's
 * defaults (1.6 KB), a little less at level 1 with an 8 KB window and small hash tables
 * (1.9 KB), and brotli more than gzip at every quality: much of it is the compressor each call
 * creates and the caches its tables evict, not the compressing. So gzip at level 1 is offered
 * first (browsers accept both alike), brotli at quality 2 for clients that prefer it.
 * Synchronous: at these sizes a trip to the thread pool costs more than the work.
 * @module
 */
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Compressor } from "../../../src/charging/mod.ts";

/** Brotli quality for answers made per request (11 is for files compressed once, ahead of time). */
export const BROTLI_QUALITY = 2;

/** gzip for answers made per request: fast, and tables a few KB wide (a search answer is 1-100 KB). */
const GZIP = { level: 1, windowBits: 13, memLevel: 5 };

/** The encodings the Node adapter offers, preferred first. */
export const NODE_ENCODINGS = ["gzip", "br"] as const;

/**
 * A right-sized copy: zlib's output is a view on its 16 KB output chunk, which a kept
 * compressed answer would otherwise hold whole.
 */
const asArrayBuffer = (out: Buffer): Uint8Array<ArrayBuffer> => new Uint8Array(out);

export const compressFast: Compressor = async (bytes, encoding) => {
  if (encoding === "gzip") return asArrayBuffer(gzipSync(bytes, GZIP));
  return asArrayBuffer(
    brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      },
    }),
  );
};
