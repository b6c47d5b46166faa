/**
 * The exact filters laid over the KD-tree's point order, so a total counts whole cells at once.
 *
 * kdbush stores its points so that every cell of the tree is one contiguous range of
 * positions. Over that order this module keeps, built once per snapshot in one paced pass:
 * - one bitset per value of the small vocabularies: status (8), access (4 and unknown), and
 *   (connector type, current) pairs, a bit set when one connector of the site has both; a
 *   connector filter is the OR of the pairs it accepts, which keeps "one connector passes
 *   all of them" exact;
 * - a code column for the open-ended ones: country and operator (the string ids, numbered
 *   densely, 2 bytes a site while fewer than 65,536 differ) and the rank of the site's
 *   maximum power among the distinct powers (so `minPower` is a rank threshold, exact);
 *   a bitset per country or operator would cost a bit per site per value, and real data
 *   has thousands of operators.
 *
 * A query's filters become clauses (each the OR of some bitsets, or a mask over a column) and
 * a range of positions is counted 32 at a time: the bitset clauses AND word by word, then the
 * column clauses test only the bits still set, and a word left whole is a popcount. A total
 * over a region then costs its fully-inside cells' words plus the sites of the cells the
 * region's edge cuts (walk.ts tests those one by one with the row filter, as before).
 *
 * A caller may add column clauses of its own: a sync adds "at or after this position of the
 * (updatedAt, id) order" over a column of sync positions in KD order (sync-search.ts).
 *
 * The `connector` substring matches labels, which no bitset holds: a query with it counts
 * row by row as before (`counterOf` answers undefined). Memory at 1,000,000 sites: one bit
 * per site per value present (about 20 values: 2.5 bytes) and 6 bytes of columns.
 * @module
 */
import { connectorKind } from "../data/connectors.ts";
import { CURRENT_TYPES } from "../data/connector-types.ts";
import { ACCESS_VALUES, STATUS_VALUES } from "../data/model.ts";
import { TEXT_FIELDS } from "../snapshot/format.ts";
import type { Snapshot } from "../snapshot/read.ts";
import type { FilterQuery } from "./filter.ts";
import type { Pacer } from "./pacer.ts";
import { treeOf } from "./walk.ts";

type Column = Uint16Array | Uint32Array;

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
interface Coded {
  codes: Column;
  code: Map<number, number>;
}

/** Counts the positions of [left, right] passing a query's filters. */
export type RangeCounter = (left: number, right: number) => number;

/** The range counter of one query's filters with `extra` clauses added (undefined: nothing to count by). */
export type Counting = (extra?: readonly ColumnClause[]) => RangeCounter | undefined;

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

/** A column clause: positions whose code is marked in `mask`, or without a mask at least `min`. */
export interface ColumnClause {
  codes: Column;
  mask?: Uint8Array;
  min?: number;
}

interface Clauses {
  /** Each clause passes where one of its bitsets has the bit (an empty clause passes nowhere). */
  bits: Uint32Array[][];
  columns: ColumnClause[];
}

const present = (sets: (Uint32Array | undefined)[]) => sets.filter((b) => b !== undefined);

function maskOf(coded: Coded, strings: readonly number[]): ColumnClause {
  const mask = new Uint8Array(coded.code.size);
  for (const id of strings) {
    const c = coded.code.get(id);
    if (c !== undefined) mask[c] = 1;
  }
  return { codes: coded.codes, mask };
}

/** The plug bitsets a connector-type / current filter accepts. */
function plugClause(index: FilterIndex, q: FilterQuery): Uint32Array[] {
  const current = q.current ? CURRENT_TYPES.indexOf(q.current) + 1 : undefined;
  const sets: Uint32Array[] = [];
  for (const [key, set] of index.plugs) {
    const [type = "", code] = key.split("/");
    if ((!q.connectorTypes || q.connectorTypes.includes(type)) && (current === undefined || Number(code) === current)) sets.push(set);
  }
  return sets;
}

/** The strings a country or operator filter compares against (resolved by the vocabulary). */
export interface ResolvedStrings {
  countries?: readonly number[];
  operators?: readonly number[];
}

function clausesOf(index: FilterIndex, q: FilterQuery, strings: ResolvedStrings): Clauses {
  const bits: Uint32Array[][] = [];
  const columns: ColumnClause[] = [];
  if (q.openOnly) bits.push(present([index.status[STATUS_VALUES.indexOf("AVAILABLE")]]));
  if (q.statuses) bits.push(present(q.statuses.map((v) => index.status[STATUS_VALUES.indexOf(v)])));
  if (q.access) bits.push(present(q.access.map((v) => index.access[(ACCESS_VALUES as readonly string[]).indexOf(v) + 1])));
  if (q.connectorTypes || q.current) bits.push(plugClause(index, q));
  if (strings.countries) columns.push(maskOf(index.country, strings.countries));
  if (strings.operators) columns.push(maskOf(index.operator, strings.operators));
  if (q.minPower !== undefined) {
    const min = q.minPower;
    const mask = Uint8Array.from({ length: index.powers.length + 1 }, (_, r) => (r > 0 && (index.powers[r - 1] as number) >= min ? 1 : 0));
    columns.push({ codes: index.power, mask });
  }
  return { bits, columns };
}

/** Set bits of a 32-bit word. */
function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
}

/** The bits of word `w` passing every bitset clause. */
function wordOf(bits: Uint32Array[][], w: number, word: number): number {
  for (const clause of bits) {
    let any = 0;
    for (const set of clause) any |= set[w] as number;
    word &= any;
    if (word === 0) return 0;
  }
  return word;
}

/** Whether position `p` passes every column clause. */
function passesAll(columns: readonly ColumnClause[], p: number): boolean {
  for (const { codes, mask, min = 0 } of columns) {
    const code = codes[p] as number;
    if (mask ? mask[code] !== 1 : code < min) return false;
  }
  return true;
}

/** How many set bits of `word` (positions from `base`) pass every column clause. */
function columnsPass(columns: readonly ColumnClause[], word: number, base: number): number {
  let count = 0;
  let rest = word;
  while (rest !== 0) {
    const low = rest & -rest;
    if (passesAll(columns, base + 31 - Math.clz32(low))) count++;
    rest ^= low;
  }
  return count;
}

/** Column clauses alone: a plain pass over the positions (one masked column: a sum of the mask). */
function columnsOnly(columns: readonly ColumnClause[]): RangeCounter {
  const [only] = columns;
  if (columns.length === 1 && only?.mask) {
    const { codes, mask } = only;
    return (left, right) => {
      let total = 0;
      for (let p = left; p <= right; p++) total += mask[codes[p] as number] as number;
      return total;
    };
  }
  return (left, right) => {
    let total = 0;
    for (let p = left; p <= right; p++) if (passesAll(columns, p)) total++;
    return total;
  };
}

/**
 * The range counter of a query's filters, or undefined when a filter has no index (the
 * `connector` substring) or there is no filter (a cell counts as its size).
 */
export function counterOf(index: FilterIndex, q: FilterQuery, strings: ResolvedStrings, extra: readonly ColumnClause[] = []): RangeCounter | undefined {
  if (q.connector) return undefined;
  const { bits, columns } = clausesOf(index, q, strings);
  columns.push(...extra);
  if (bits.length === 0 && columns.length === 0) return undefined;
  if (bits.length === 0) return columnsOnly(columns);
  return (left, right) => {
    let total = 0;
    const first = left >>> 5;
    const last = right >>> 5;
    for (let w = first; w <= last; w++) {
      let word = -1;
      if (w === first) word &= -1 << (left & 31);
      if (w === last) word &= -1 >>> (31 - (right & 31));
      word = wordOf(bits, w, word);
      if (word === 0) continue;
      total += columns.length === 0 ? popcount(word) : columnsPass(columns, word, w << 5);
    }
    return total;
  };
}
