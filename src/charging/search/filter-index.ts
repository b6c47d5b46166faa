/**
 * The exact filters laid over the KD-tree's point order, so a total counts whole cells at once
 * (the counting itself: range-counter.ts).
 *
 * kdbush stores its points so that every cell of the tree is one contiguous range of
 * positions. Over that order this module keeps, built once per snapshot (the server starts it
 * at once, Store.prepare; a million sites take some 300 ms of CPU, paced):
 * - one bitset per value of the small vocabularies: status (8), access (4 and unknown), and
 *   (connector type, current) pairs, a bit set when one connector of the site has both; a
 *   connector filter is the OR of the pairs it accepts, which keeps "one connector passes
 *   all of them" exact;
 * - a code column for the open-ended ones: country and operator (the string ids, numbered
 *   densely, 2 bytes a site while fewer than 65,536 differ) and the rank of the site's
 *   maximum power among the distinct powers (so `minPower` is a rank threshold, exact); a
 *   bitset per country or operator would cost a bit per site per value, and real data has
 *   thousands of operators.
 *
 * Memory at 1,000,000 sites: a bit per site per value held (the scale bench's data: 14
 * values, 1.75 bytes; real data about 30, 4 bytes) and 6 bytes of columns; the sync adds 4
 * (sync-search.ts) and 4 for its runs by country (sync-countries.ts). Per-value bitsets for every field would have been simpler to count with
 * but cost a byte per site per 8 values, a code column 2 bytes whatever the vocabulary.
 * @module
 */
import { connectorKind } from "../data/connectors.ts";
import { ACCESS_VALUES, STATUS_VALUES } from "../data/model.ts";
import { TEXT_FIELDS } from "../snapshot/format.ts";
import type { Snapshot } from "../snapshot/read.ts";
import type { Pacer } from "./pacer.ts";
import { treeOf } from "./walk.ts";

export type Column = Uint16Array | Uint32Array;

/** The filters' values over the KD order (position k is the tree's k-th point). */
export interface FilterIndex {
  size: number;
  status: (Uint32Array | undefined)[];
  /** By access code: 0 for a source that does not say, then ACCESS_VALUES. */
  access: (Uint32Array | undefined)[];
  /** `${type}/${current code}` (0 none, 1 AC, 2 DC) -> the sites with such a connector. */
  plugs: Map<string, Uint32Array>;
  country: Coded;
  operator: Coded;
  /** Rank + 1 of the site's maximum power among `powers` (0: none). */
  power: Column;
  powers: Float64Array;
  bytes: number;
}

/** A column of dense codes and the string id each code stands for. */
export interface Coded {
  codes: Column;
  code: Map<number, number>;
}

const WIDTH = TEXT_FIELDS.length;
const COUNTRY = TEXT_FIELDS.indexOf("countryCode");
const OPERATOR = TEXT_FIELDS.indexOf("operator");

const columnOf = (size: number, values: number): Column => (values <= 0x10000 ? new Uint16Array(size) : new Uint32Array(size));

/*
 * The parts are built row by row, reading the snapshot's columns in order and writing each
 * row's values at its KD position (`at`): reading in KD order instead would jump through the
 * columns, and that was five times slower.
 */

/** Dense codes for a text field's string ids, in KD order. */
async function codedText(s: Snapshot, at: Uint32Array, field: number, pacer: Pacer): Promise<Coded> {
  const code = new Map<number, number>();
  const raw = new Uint32Array(s.size);
  let last = -1;
  let lastCode = 0;
  for (let row = 0; row < s.size; row++) {
    if (pacer.due()) await pacer.pause();
    const id = s.text[row * WIDTH + field] as number;
    if (id !== last) {
      let c = code.get(id);
      if (c === undefined) code.set(id, (c = code.size));
      last = id;
      lastCode = c;
    }
    raw[at[row] as number] = lastCode;
  }
  const codes = columnOf(s.size, code.size);
  codes.set(raw);
  return { codes, code };
}

/** The index of `value` in `sorted` (it is there). */
function rankOf(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Ranks of the maximum powers, in KD order (NaN, no power known, ranks 0). */
async function powerRanks(s: Snapshot, at: Uint32Array, pacer: Pacer): Promise<{ power: Column; powers: Float64Array }> {
  const distinct = new Set<number>();
  for (const p of s.maxPower) if (!Number.isNaN(p)) distinct.add(p);
  const powers = Float64Array.from(distinct).sort();
  const power = columnOf(s.size, powers.length + 1);
  for (let row = 0; row < s.size; row++) {
    if (pacer.due()) await pacer.pause();
    const p = s.maxPower[row] as number;
    power[at[row] as number] = Number.isNaN(p) ? 0 : rankOf(powers, p) + 1;
  }
  return { power, powers };
}

const setBit = (set: Uint32Array, word: number, bit: number) => {
  set[word] = (set[word] as number) | bit;
};

/** The bitsets of status, access and plugs, in KD order. */
async function bitsets(s: Snapshot, at: Uint32Array, pacer: Pacer) {
  const words = (s.size + 31) >>> 5;
  const bits = () => new Uint32Array(words);
  const status: (Uint32Array | undefined)[] = STATUS_VALUES.map(() => undefined);
  const access: (Uint32Array | undefined)[] = [undefined, ...ACCESS_VALUES.map(() => undefined)];
  const types = [...new Set(s.kinds.map(([type]) => connectorKind(type).type))];
  const kindType = Int32Array.from(s.kinds, ([type]) => types.indexOf(connectorKind(type).type));
  const byPair: (Uint32Array | undefined)[] = [];
  for (let row = 0; row < s.size; row++) {
    if (pacer.due()) await pacer.pause();
    const k = at[row] as number;
    const word = k >>> 5;
    const bit = 1 << (k & 31);
    setBit((status[s.status[row] as number] ??= bits()), word, bit);
    setBit((access[s.access[row] as number] ??= bits()), word, bit);
    for (let c = s.connectorOffsets[row] as number; c < (s.connectorOffsets[row + 1] as number); c++) {
      setBit((byPair[(kindType[s.connectorKind[c] as number] as number) * 3 + (s.connectorCurrent[c] as number)] ??= bits()), word, bit);
    }
  }
  const plugs = new Map<string, Uint32Array>();
  byPair.forEach((set, pair) => {
    if (set) plugs.set(`${types[Math.floor(pair / 3)]}/${pair % 3}`, set);
  });
  return { status, access, plugs };
}

/** Builds the index in one paced pass per part (a million sites: some 150 ms of CPU). */
export async function createFilterIndex(s: Snapshot, pacer: Pacer): Promise<FilterIndex> {
  const { ids } = treeOf(s.index);
  const at = new Uint32Array(s.size);
  for (let k = 0; k < s.size; k++) at[ids[k] as number] = k;
  const { status, access, plugs } = await bitsets(s, at, pacer);
  const country = await codedText(s, at, COUNTRY, pacer);
  const operator = await codedText(s, at, OPERATOR, pacer);
  const { power, powers } = await powerRanks(s, at, pacer);
  const sets = [...status, ...access, ...plugs.values()].filter((b) => b !== undefined);
  const bytes = sets.reduce((n, b) => n + b.byteLength, 0) + country.codes.byteLength + operator.codes.byteLength + power.byteLength;
  return { size: s.size, status, access, plugs, country, operator, power, powers, bytes };
}
