/**
 * A snapshot's container, read and checked: the magic and version, the section directory
 * (every section known, present, 8-byte aligned and inside the file), each section's CRC-32,
 * the HEAD section's JSON, and typed views over the sections of the sizes the counts imply.
 * A truncated or corrupt container throws INVALID_DATA naming the problem.
 * @module
 */
import { KDBush, v } from "../../../deps.ts";
import { ApiError } from "../../shared/errors.ts";
import { type DatasetHeader, DatasetHeaderSchema } from "../data/dataset.ts";
import type { Crc32 } from "./crc32.ts";
import {
  DIRECTORY_ENTRY_BYTES,
  PREAMBLE_BYTES,
  SECTION_TAGS,
  SECTIONS,
  type SectionTag,
  SNAPSHOT_FORMAT,
  SNAPSHOT_MAGIC,
  SNAPSHOT_VERSION,
  type SnapshotHead,
} from "./format.ts";

export function isSnapshot(bytes: Uint8Array): boolean {
  if (bytes.byteLength < SNAPSHOT_MAGIC.length) return false;
  for (let i = 0; i < SNAPSHOT_MAGIC.length; i++) if (bytes[i] !== SNAPSHOT_MAGIC.charCodeAt(i)) return false;
  return true;
}

export const fail = (message: string): never => {
  throw new ApiError("INVALID_DATA", `charging snapshot is unusable: ${message}`);
};

export type Located = { offset: number; length: number };

/** Where each section is, and the CRC-32 its directory entry records. */
export function directory(bytes: Uint8Array): Map<SectionTag, Located & { crc: number }> {
  if (!isSnapshot(bytes)) fail(`it does not start with the ${JSON.stringify(SNAPSHOT_MAGIC)} magic`);
  if (bytes.byteLength < PREAMBLE_BYTES) fail("it is truncated before the section directory");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== SNAPSHOT_VERSION) fail(`version ${version}; this server reads version ${SNAPSHOT_VERSION}`);
  const count = view.getUint32(12, true);
  if (count > 64 || PREAMBLE_BYTES + count * DIRECTORY_ENTRY_BYTES > bytes.byteLength)
    fail("it is truncated inside the section directory");
  const found = new Map<SectionTag, Located & { crc: number }>();
  for (let i = 0; i < count; i++) {
    const entry = PREAMBLE_BYTES + i * DIRECTORY_ENTRY_BYTES;
    const tag = String.fromCharCode(...bytes.subarray(entry, entry + 4)) as SectionTag;
    const offset = view.getUint32(entry + 4, true);
    const length = view.getUint32(entry + 8, true);
    if (!SECTION_TAGS.includes(tag)) fail(`unknown section ${JSON.stringify(tag)}`);
    if (offset % 8 !== 0) fail(`section ${tag} is not 8-byte aligned`);
    if (offset + length > bytes.byteLength) fail(`it is truncated: section ${tag} ends past the end of the file`);
    found.set(tag, { offset, length, crc: view.getUint32(entry + 12, true) });
  }
  for (const tag of SECTION_TAGS) if (!found.has(tag)) fail(`section ${tag} is missing`);
  return found;
}

/**
 * Each section against its CRC-32, pausing after each one; with `slice`, also every `slice`
 * bytes (the CRC carried on from one piece to the next).
 */
export function* checkCrcs(bytes: Uint8Array, found: Map<SectionTag, Located & { crc: number }>, crc32: Crc32, slice?: number): Generator<void> {
  for (const [tag, { offset, length, crc }] of found) {
    const end = offset + length;
    let sum = crc32(bytes.subarray(offset, slice ? Math.min(end, offset + slice) : end));
    for (let at = offset + (slice ?? length); at < end; at += slice as number) {
      yield;
      sum = crc32(bytes.subarray(at, Math.min(end, at + (slice as number))), sum);
    }
    if (sum !== crc) fail(`section ${tag} fails its CRC-32 check (the file is corrupt)`);
    yield;
  }
}

const HeadSchema = v.object({
  format: v.literal(SNAPSHOT_FORMAT),
  dataset: DatasetHeaderSchema,
  sites: v.pipe(v.number(), v.integer(), v.minValue(0)),
  connectors: v.pipe(v.number(), v.integer(), v.minValue(0)),
  strings: v.pipe(v.number(), v.integer(), v.minValue(0)),
  kinds: v.array(v.tuple([v.string(), v.string()])),
});

export function readHead(bytes: Uint8Array): SnapshotHead & { dataset: DatasetHeader } {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    fail("its HEAD section is not JSON");
  }
  const parsed = v.safeParse(HeadSchema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    fail(`its HEAD section is malformed (${v.getDotPath(issue) ?? "(root)"}: ${issue.message})`);
  }
  return parsed.output as SnapshotHead & { dataset: DatasetHeader };
}

type Typed = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;
type Make<T extends Typed> = new (buffer: ArrayBuffer, byteOffset: number, length: number) => T;

/** Views over `buffer` for each section, with the element count each must have. */
export function viewer(bytes: Uint8Array, found: Map<SectionTag, Located>, head: SnapshotHead) {
  const counts = { site: head.sites, "site+1": head.sites + 1, connector: head.connectors, "string+1": head.strings + 1 };
  return <T extends Typed>(tag: SectionTag, make: Make<T>): T => {
    const { offset, length } = found.get(tag) as Located;
    const spec = SECTIONS[tag];
    if (spec.per !== "any") {
      const expected = counts[spec.per] * spec.bytes;
      if (length !== expected) fail(`section ${tag} holds ${length} bytes; ${expected} expected`);
    }
    const width = (make as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
    return new make(bytes.buffer as ArrayBuffer, bytes.byteOffset + offset, length / width);
  };
}

export function openIndex(bytes: Uint8Array, at: Located): KDBush {
  // kdbush reads its header at offset 0 of its own buffer: this is the one copy (a fresh
  // Uint8Array, since a Node Buffer's slice() is a view of the same memory).
  const own = new Uint8Array(bytes.subarray(at.offset, at.offset + at.length)).buffer;
  try {
    return KDBush.from(own);
  } catch (err) {
    return fail(`its spatial index is unreadable (${(err as Error).message})`);
  }
}
