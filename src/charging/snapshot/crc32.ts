/**
 * CRC-32 (IEEE 802.3, the zlib/gzip one) of a byte range, for the snapshot's per-section
 * checksums. This table version runs anywhere; the Node adapter passes `zlib.crc32` instead,
 * which gives the same numbers an order of magnitude faster.
 * @module
 */

/** The CRC-32 of `bytes`; with `previous`, of the bytes that gave `previous` followed by `bytes`. */
export type Crc32 = (bytes: Uint8Array, previous?: number) => number;

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export const crc32: Crc32 = (bytes, previous = 0) => {
  let c = (previous ^ 0xffffffff) >>> 0;
  for (let i = 0; i < bytes.length; i++) c = (TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
