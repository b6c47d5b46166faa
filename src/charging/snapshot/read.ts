/**
 * Opening a snapshot: typed-array views straight over the file's bytes (no JSON, no copies but
 * the kdbush buffer), after checking everything a bad file could make go wrong: magic and
 * version, every section inside the file and of the size its counts imply, a CRC-32 per
 * section, and every stored reference (string ids, offsets, partitions, codes, id order)
 * within its range. A truncated or corrupt file throws INVALID_DATA naming the problem.
 * @module
 */
import { KDBush, v } from "../../../deps.ts";
import { ApiError } from "../../shared/errors.ts";
import { type DatasetHeader, DatasetHeaderSchema } from "../data/dataset.ts";
import { ACCESS_VALUES, STATUS_VALUES } from "../data/model.ts";
import { type Crc32, crc32 as jsCrc32 } from "./crc32.ts";
import {
  DIRECTORY_ENTRY_BYTES,
  ID_KINDS,
  NO_STRING,
  PREAMBLE_BYTES,
  SECTION_TAGS,
  SECTIONS,
  type SectionTag,
  SNAPSHOT_FORMAT,
  SNAPSHOT_MAGIC,
  SNAPSHOT_VERSION,
  type SnapshotHead,
  TEXT_FIELDS,
} from "./format.ts";

export interface Snapshot {
  header: DatasetHeader;
  /** CRC-32 of the section directory (so of every section's checksum), in hex: names this exact cut. */
  version: string;
  /** Distinct connector `[type, label]` pairs. */
  kinds: readonly (readonly [string, string])[];
  size: number;
  idKind: Uint8Array;
  idNum: Float64Array;
  lat: Float64Array;
  lon: Float64Array;
  /** TEXT_FIELDS.length string ids per site (NO_STRING = null). */
  text: Uint32Array;
  partition: Uint16Array;
  status: Uint8Array;
  access: Uint8Array;
  fee: Uint8Array;
  capacity: Int32Array;
  maxPower: Float64Array;
  connectorOffsets: Uint32Array;
  connectorKind: Uint32Array;
  connectorPower: Float64Array;
  connectorQuantity: Int32Array;
  connectorCurrent: Uint8Array;
  stringOffsets: Uint32Array;
  stringBytes: Uint8Array;
  index: KDBush;
}

export function isSnapshot(bytes: Uint8Array): boolean {
  if (bytes.byteLength < SNAPSHOT_MAGIC.length) return false;
  for (let i = 0; i < SNAPSHOT_MAGIC.length; i++) if (bytes[i] !== SNAPSHOT_MAGIC.charCodeAt(i)) return false;
  return true;
}

const fail = (message: string): never => {
  throw new ApiError("INVALID_DATA", `charging snapshot is unusable: ${message}`);
};

type Located = { offset: number; length: number };

/** Elements checked between two pauses of a paced open (`openSnapshotPaced`): a few ms. */
const SLICE = 16_384;
/** Bytes checksummed between two pauses of a paced open. */
const CRC_SLICE = 4 * 1048576;

/** Where each section is, and the CRC-32 its directory entry records. */
function directory(bytes: Uint8Array): Map<SectionTag, Located & { crc: number }> {
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
function* checkCrcs(bytes: Uint8Array, found: Map<SectionTag, Located & { crc: number }>, crc32: Crc32, slice?: number): Generator<void> {
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

function readHead(bytes: Uint8Array): SnapshotHead & { dataset: DatasetHeader } {
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
function viewer(bytes: Uint8Array, found: Map<SectionTag, Located>, head: SnapshotHead) {
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

function* checkRange(name: string, values: ArrayLike<number>, max: number, allow?: number): Generator<void> {
  for (let i = 0; i < values.length; i++) {
    if (i % SLICE === SLICE - 1) yield;
    const value = values[i] as number;
    if (value > max && value !== allow) fail(`${name}[${i}] = ${value} is out of range`);
  }
}

function* checkMonotonic(name: string, offsets: Uint32Array, end: number): Generator<void> {
  if (offsets[0] !== 0) fail(`${name} does not start at 0`);
  for (let i = 1; i < offsets.length; i++) {
    if (i % SLICE === 0) yield;
    if ((offsets[i] as number) < (offsets[i - 1] as number)) fail(`${name}[${i}] goes backwards`);
  }
  if (offsets[offsets.length - 1] !== end) fail(`${name} does not end at ${end}`);
}

function* checkSites(s: Snapshot): Generator<void> {
  const partitions = s.header.partitions;
  for (let i = 0; i < s.size; i++) {
    if (i % SLICE === SLICE - 1) yield;
    const kind = s.idKind[i] as number;
    if (kind >= ID_KINDS.length) fail(`KIND[${i}] = ${kind} is out of range`);
    const num = s.idNum[i] as number;
    if (!Number.isSafeInteger(num) || num < 1) fail(`NUMB[${i}] is not a site number`);
    if (i > 0) {
      const before = (s.idKind[i - 1] as number) - kind || (s.idNum[i - 1] as number) - num;
      if (before >= 0) fail(`site ${i} is out of id order or repeats an id`);
    }
    const lat = s.lat[i] as number;
    const lon = s.lon[i] as number;
    if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180)) fail(`site ${i} has coordinates out of range`);
    const p = partitions[s.partition[i] as number];
    if (!p) fail(`PART[${i}] names no partition`);
    else if ((kind === 0) !== (p.source === "ocm")) fail(`site ${i} is not from its partition's source`);
  }
}

function* checkIndex(s: Snapshot): Generator<void> {
  const { index } = s;
  if (index.numItems !== Math.max(s.size, 1)) fail("the spatial index does not hold one point per site");
  const ids = index.ids as ArrayLike<number>;
  const coords = index.coords as Float64Array;
  for (let k = 0; k < s.size; k++) {
    if (k % SLICE === SLICE - 1) yield;
    const id = ids[k] as number;
    if (id >= s.size || coords[2 * k] !== s.lon[id] || coords[2 * k + 1] !== s.lat[id])
      fail("the spatial index does not match the site coordinates");
  }
}

function openIndex(bytes: Uint8Array, at: Located): KDBush {
  // kdbush reads its header at offset 0 of its own buffer: this is the one copy (a fresh
  // Uint8Array, since a Node Buffer's slice() is a view of the same memory).
  const own = new Uint8Array(bytes.subarray(at.offset, at.offset + at.length)).buffer;
  try {
    return KDBush.from(own);
  } catch (err) {
    return fail(`its spatial index is unreadable (${(err as Error).message})`);
  }
}

/** Opening, as steps: the caller may pause between two (after each section's CRC, every SLICE elements). */
function* opening(input: Uint8Array, crc32: Crc32, crcSlice?: number): Generator<void, Snapshot> {
  const bytes = input.byteOffset % 8 === 0 ? input : new Uint8Array(input);
  const found = directory(bytes);
  yield* checkCrcs(bytes, found, crc32, crcSlice);
  const headAt = found.get("HEAD") as Located;
  const head = readHead(bytes.subarray(headAt.offset, headAt.offset + headAt.length));
  const view = viewer(bytes, found, head);
  const directoryEnd = PREAMBLE_BYTES + found.size * DIRECTORY_ENTRY_BYTES;
  const s: Snapshot = {
    header: head.dataset,
    version: crc32(bytes.subarray(0, directoryEnd)).toString(16).padStart(8, "0"),
    kinds: head.kinds,
    size: head.sites,
    idKind: view("KIND", Uint8Array),
    idNum: view("NUMB", Float64Array),
    lat: view("LATS", Float64Array),
    lon: view("LONS", Float64Array),
    text: view("TEXT", Uint32Array),
    partition: view("PART", Uint16Array),
    status: view("STAT", Uint8Array),
    access: view("ACCS", Uint8Array),
    fee: view("FEES", Uint8Array),
    capacity: view("CAPY", Int32Array),
    maxPower: view("MAXP", Float64Array),
    connectorOffsets: view("CONO", Uint32Array),
    connectorKind: view("CKND", Uint32Array),
    connectorPower: view("CPOW", Float64Array),
    connectorQuantity: view("CQTY", Int32Array),
    connectorCurrent: view("CCUR", Uint8Array),
    stringOffsets: view("STRO", Uint32Array),
    stringBytes: view("STRB", Uint8Array),
    index: openIndex(bytes, found.get("KDBX") as Located),
  };
  yield* checkMonotonic("STRO", s.stringOffsets, s.stringBytes.length);
  yield* checkMonotonic("CONO", s.connectorOffsets, head.connectors);
  yield* checkRange("TEXT", s.text, head.strings - 1, NO_STRING);
  yield* checkRange("STAT", s.status, STATUS_VALUES.length - 1);
  yield* checkRange("ACCS", s.access, ACCESS_VALUES.length);
  yield* checkRange("FEES", s.fee, 2);
  yield* checkRange("CKND", s.connectorKind, head.kinds.length - 1);
  yield* checkRange("CCUR", s.connectorCurrent, 2);
  yield* checkSites(s);
  yield* checkIndex(s);
  return s;
}

/**
 * Opens `bytes` as a snapshot. Views share the bytes' buffer (copied once when it is not
 * 8-byte aligned, as a pooled Node Buffer may be). `crc32` may be a faster native one.
 */
export function openSnapshot(input: Uint8Array, options: { crc32?: Crc32 } = {}): Snapshot {
  const steps = opening(input, options.crc32 ?? jsCrc32);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `openSnapshot`, pausing with `yieldNow` once `sliceMs` (5) of checks have run: a server
 * opening a new data set (1,000,000 sites: about a second of checks) keeps answering
 * meanwhile. Each step is short (16,384 elements, 4 MB of CRC), so no stretch runs much past
 * the slice. A `crc32` given here must carry on from `previous` (zlib's does).
 */
export async function openSnapshotPaced(
  input: Uint8Array,
  options: { crc32?: Crc32; yieldNow: () => Promise<void>; sliceMs?: number; clock?: () => number },
): Promise<Snapshot> {
  const { sliceMs = 5, clock = () => performance.now() } = options;
  const steps = opening(input, options.crc32 ?? jsCrc32, CRC_SLICE);
  let deadline = clock() + sliceMs;
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (clock() < deadline) continue;
    await options.yieldNow();
    deadline = clock() + sliceMs;
  }
}

export { TEXT_FIELDS };
