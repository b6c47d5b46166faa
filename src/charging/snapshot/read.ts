/**
 * Opening a snapshot: typed-array views straight over the file's bytes (no JSON, no copies but
 * the kdbush buffer), after checking everything a bad file could make go wrong: the container
 * (container.ts: magic and version, every section inside the file and of the size its counts
 * imply, a CRC-32 per section), then the contents (content-checks.ts: every stored reference,
 * string ids, offsets, partitions, codes, id order, within its range). A truncated or corrupt
 * file throws INVALID_DATA naming the problem.
 * @module
 */
import type { KDBush } from "../../../deps.ts";
import type { DatasetHeader } from "../data/dataset.ts";
import { checkContents } from "./content-checks.ts";
import { checkCrcs, directory, type Located, openIndex, readHead, viewer } from "./container.ts";
import { type Crc32, crc32 as jsCrc32 } from "./crc32.ts";
import { DIRECTORY_ENTRY_BYTES, PREAMBLE_BYTES } from "./format.ts";

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

/** Bytes checksummed between two pauses of a paced open. */
const CRC_SLICE = 4 * 1048576;

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
  yield* checkContents(s, head);
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
