/**
 * Syncing the whole set, then only changes: `updatedSince` and a cursor. Sites are ordered by
 * (updatedAt, id), where updatedAt is the source's `lastUpdated` or, for a row without one,
 * the snapshot's import time (so such a row is never missed: it is sent again after each
 * import). A cursor names the last site of a page by that pair, not by a row number, so it
 * stays valid across pages, across the server's other requests and across a new snapshot:
 * the next page starts strictly after it, and no site is sent twice or skipped.
 *
 * The order is built once per snapshot (when the server prepares the store, or the first time a sync asks), pausing
 * as searches do: timestamps are read from their bytes, and rows (already in id order) are
 * radix-sorted by timestamp, 11 bits a pass; each pass is stable, which keeps id order within
 * one instant.
 * @module
 */
import { ApiError } from "../../shared/errors.ts";
import { ID_KINDS, NO_STRING, TEXT_FIELDS } from "../snapshot/format.ts";
import type { Snapshot } from "../snapshot/read.ts";
import type { Pacer } from "./pacer.ts";
import { splitId } from "../snapshot/site-codes.ts";

export interface SyncOrder {
  /** updatedAt (epoch ms) per row. */
  keys: Float64Array;
  /** Rows by (updatedAt, id). */
  order: Uint32Array;
}

const UPDATED = TEXT_FIELDS.indexOf("lastUpdated");
const WIDTH = TEXT_FIELDS.length;

const ZERO = 48;

/** The number written by `count` ASCII digits at `at`, or NaN. */
function digitsAt(bytes: Uint8Array, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const d = (bytes[i] as number) - ZERO;
    if (d < 0 || d > 9) return Number.NaN;
    n = n * 10 + d;
  }
  return n;
}

/**
 * Epoch ms of the stored ISO text of a string id, read from its bytes (`lastUpdated` is
 * `YYYY-MM-DDTHH:MM:SS[.mmm]Z`, as the data set's schema requires): no string is decoded and no
 * Date parses for a million rows. Any other shape goes through `Date.parse`.
 */
function instantOf(s: Snapshot, id: number, text: (id: number) => string): number {
  const from = s.stringOffsets[id] as number;
  const length = (s.stringOffsets[id + 1] as number) - from;
  const b = s.stringBytes;
  if ((length === 20 || length === 24) && b[from + 10] === 84 && b[from + length - 1] === 90) {
    const ms = length === 24 ? digitsAt(b, from + 20, 3) : 0;
    const at = Date.UTC(
      digitsAt(b, from, 4),
      digitsAt(b, from + 5, 2) - 1,
      digitsAt(b, from + 8, 2),
      digitsAt(b, from + 11, 2),
      digitsAt(b, from + 14, 2),
      digitsAt(b, from + 17, 2),
      ms,
    );
    if (!Number.isNaN(at)) return at;
  }
  return Date.parse(text(id));
}

const RADIX_BITS = 11;
const RADIX = 2 ** RADIX_BITS;

/** Rows and their keys (minus the least key), side by side so a pass reads both in order. */
interface Sorting {
  rows: Uint32Array;
  keys: Float64Array;
}

/** One stable pass of the radix sort: `from` reordered into `to` by digit `digit` of the key. */
async function radixPass(digit: number, from: Sorting, to: Sorting, pacer: Pacer): Promise<void> {
  const scale = 2 ** (RADIX_BITS * digit);
  const n = from.rows.length;
  const digits = new Uint16Array(n);
  const starts = new Uint32Array(RADIX + 1);
  for (let i = 0; i < n; i++) {
    if (pacer.due()) await pacer.pause();
    const d = Math.floor((from.keys[i] as number) / scale) % RADIX;
    digits[i] = d;
    starts[d + 1] = (starts[d + 1] as number) + 1;
  }
  for (let d = 1; d <= RADIX; d++) starts[d] = (starts[d] as number) + (starts[d - 1] as number);
  for (let i = 0; i < n; i++) {
    const d = digits[i] as number;
    const at = starts[d] as number;
    to.rows[at] = from.rows[i] as number;
    to.keys[at] = from.keys[i] as number;
    starts[d] = at + 1;
  }
}

/** Builds the order, pausing through `pacer` (a million sites take some 200 ms of CPU). */
export async function createSyncOrder(s: Snapshot, text: (id: number) => string, pacer: Pacer): Promise<SyncOrder> {
  const fallback = Date.parse(s.header.importedAt);
  const keys = new Float64Array(s.size);
  let min = Infinity;
  let max = -Infinity;
  for (let row = 0; row < s.size; row++) {
    if (pacer.due()) await pacer.pause();
    const id = s.text[row * WIDTH + UPDATED] as number;
    const ms = id === NO_STRING ? fallback : instantOf(s, id, text);
    const key = Number.isNaN(ms) ? fallback : ms;
    keys[row] = key;
    if (key < min) min = key;
    if (key > max) max = key;
  }
  let sorting: Sorting = { rows: new Uint32Array(s.size), keys: new Float64Array(s.size) };
  for (let row = 0; row < s.size; row++) {
    sorting.rows[row] = row;
    sorting.keys[row] = (keys[row] as number) - min;
  }
  let spare: Sorting = { rows: new Uint32Array(s.size), keys: new Float64Array(s.size) };
  for (let digit = 0; 2 ** (RADIX_BITS * digit) <= max - min; digit++) {
    await radixPass(digit, sorting, spare, pacer);
    [sorting, spare] = [spare, sorting];
  }
  return { keys, order: sorting.rows };
}

/** The first position of `order` whose site comes after (ms, kind, num), or at/after ms when `inclusive`. */
function positionAfter(s: Snapshot, sync: SyncOrder, ms: number, kind: number, num: number): number {
  let lo = 0;
  let hi = sync.order.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const row = sync.order[mid] as number;
    const diff = (sync.keys[row] as number) - ms || (s.idKind[row] as number) - kind || (s.idNum[row] as number) - num;
    if (diff <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first position updated at or after `ms`. */
export const positionSince = (s: Snapshot, sync: SyncOrder, ms: number) => positionAfter(s, sync, ms, -1, 0);

/** The first position after the site a cursor names. */
export function positionAfterCursor(s: Snapshot, sync: SyncOrder, cursor: string): number {
  const { ms, id } = readCursor(cursor);
  const { kind, num } = splitId(id);
  return positionAfter(s, sync, ms, kind, num);
}

const BAD_CURSOR = "cursor is not one this API gave; use page.nextCursor of the answer before, or start again without cursor";

const toBase64Url = (text: string) => btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** The cursor after the site of `row`: its updatedAt and id, base64url. */
export function cursorOf(s: Snapshot, sync: SyncOrder, row: number): string {
  return toBase64Url(`${sync.keys[row]}~${ID_KINDS[s.idKind[row] as number]}${s.idNum[row]}`);
}

function readCursor(cursor: string): { ms: number; id: string } {
  let text: string;
  try {
    text = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    throw new ApiError("INVALID_ARGUMENTS", BAD_CURSOR);
  }
  const match = /^(-?\d{1,16})~(.+)$/.exec(text);
  const id = match?.[2] ?? "";
  if (!match || !/^(ocm:|osm:(node|way|relation)\/)[1-9]\d{0,14}$/.test(id)) throw new ApiError("INVALID_ARGUMENTS", BAD_CURSOR);
  return { ms: Number(match[1]), id };
}
