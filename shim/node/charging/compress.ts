/**
 * The Node adapter's answer compressor: node:zlib at a dynamic answer's quality, where
 * `CompressionStream` compresses brotli at quality 11 (17 ms of CPU for a 14 KB search answer,
 * 90 times what the uncompressed answer costs the server). gzip at level 1 is offered first
 * (browsers accept both alike), brotli at quality 2 for clients that prefer it.
 * Synchronous: at these sizes a trip to the thread pool costs more than the work.
 *
 * gzip goes through one deflate stream kept for the process and reset after each answer
 * (gzip-reuse.ts): `gzipSync` builds a stream object, its native state and a 16 KB output
 * buffer per call, 40 % of the 47 µs it took for a 14 KB search answer (28 µs reused, and
 * 1.83 KB instead of 1.94: the full window costs nothing once allocated).
 * @module
 */
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Compressor } from "../../../src/charging/mod.ts";
import { createReusedGzip, type ReusedGzip } from "./gzip-reuse.ts";

/** Brotli quality for answers made per request (11 is for files compressed once, ahead of time). */
export const BROTLI_QUALITY = 2;

/** gzip for answers made per request: zlib's fastest level. */
const GZIP_LEVEL = 1;

/** The encodings the Node adapter offers, preferred first. */
export const NODE_ENCODINGS = ["gzip", "br"] as const;

/**
 * A right-sized copy: zlib's output is a view on its 16 KB output chunk, which a kept
 * compressed answer would otherwise hold whole.
 */
const asArrayBuffer = (out: Buffer): Uint8Array<ArrayBuffer> => new Uint8Array(out);

/** Made on the first gzip answer: a process that never compresses (a CLI command) never checks the handle. */
let gzipReused: ReusedGzip | undefined;

export const compressFast: Compressor = async (bytes, encoding) => {
  if (encoding === "gzip") return (gzipReused ??= createReusedGzip(GZIP_LEVEL))(bytes) ?? asArrayBuffer(gzipSync(bytes, { level: GZIP_LEVEL }));
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
