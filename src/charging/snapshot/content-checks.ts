/**
 * What a snapshot's sections hold, checked before any search reads them: offsets that never go
 * backwards and end where their table ends, every stored code and string id within its range,
 * sites in id order with coordinates in range and a partition of their own source, and a
 * spatial index with one point per site at that site's coordinates. Each check pauses every
 * SLICE elements, so a paced open (`openSnapshotPaced`) keeps a server answering meanwhile.
 * @module
 */
import { ACCESS_VALUES, STATUS_VALUES } from "../data/model.ts";
import { fail } from "./container.ts";
import { ID_KINDS, NO_STRING, type SnapshotHead } from "./format.ts";
import type { Snapshot } from "./read.ts";

/** Elements checked between two pauses of a paced open (`openSnapshotPaced`): a few ms. */
const SLICE = 16_384;

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

/** Every check of the contents, in turn (the caller may pause at each step). */
export function* checkContents(s: Snapshot, head: SnapshotHead): Generator<void> {
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
}
