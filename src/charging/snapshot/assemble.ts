/**
 * The snapshot container: sections placed 8-byte aligned behind the preamble and a directory
 * of (tag, offset, length, CRC-32), plus the kdbush index section.
 * @module
 */
import { KDBush } from "../../../deps.ts";
import { ApiError } from "../../shared/errors.ts";
import type { Crc32 } from "./crc32.ts";
import { align8, DIRECTORY_ENTRY_BYTES, PREAMBLE_BYTES, type SectionTag, SNAPSHOT_MAGIC, SNAPSHOT_VERSION } from "./format.ts";

export function bytesOf(array: Uint16Array | Uint32Array | Int32Array | Float64Array | Uint8Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/** The kdbush index over the sites in id order (kdbush needs one point: an empty set gets 0,0, never a site). */
export function buildIndex(lons: Float64Array, lats: Float64Array, nodeSize: number): ArrayBuffer {
  const index = new KDBush(Math.max(lons.length, 1), nodeSize);
  for (let i = 0; i < lons.length; i++) index.add(lons[i] as number, lats[i] as number);
  if (lons.length === 0) index.add(0, 0);
  index.finish();
  return index.data as ArrayBuffer;
}

export function assemble(sections: [SectionTag, Uint8Array][], crc32: Crc32): Uint8Array {
  let at = align8(PREAMBLE_BYTES + sections.length * DIRECTORY_ENTRY_BYTES);
  const placed = sections.map(([tag, bytes]) => {
    const offset = at;
    at = align8(at + bytes.byteLength);
    return { tag, bytes, offset };
  });
  if (at > 0xffffffff) throw new ApiError("INVALID_DATA", "snapshot would exceed 4 GiB");
  const out = new Uint8Array(at);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode(SNAPSHOT_MAGIC), 0);
  view.setUint32(8, SNAPSHOT_VERSION, true);
  view.setUint32(12, sections.length, true);
  placed.forEach(({ tag, bytes, offset }, i) => {
    const entry = PREAMBLE_BYTES + i * DIRECTORY_ENTRY_BYTES;
    out.set(new TextEncoder().encode(tag), entry);
    view.setUint32(entry + 4, offset, true);
    view.setUint32(entry + 8, bytes.byteLength, true);
    view.setUint32(entry + 12, crc32(bytes), true);
    out.set(bytes, offset);
  });
  return out;
}
