/**
 * Counting a query's filters over a range of KD positions (filter-index.ts holds what is
 * counted). The filters become clauses, each the OR of some bitsets or a test of a code
 * column; a range is counted 32 positions at a time: the bitset clauses AND word by word,
 * the column clauses test only the bits still set, and a word left whole is a popcount.
 * Column clauses alone (a country filter) are a plain pass over the column.
 *
 * Walks use it three ways: a cell fully inside the region counts in one call (walk.ts), and
 * a single site of a cell the region's edge cuts, or one offered to the nearest walk, is
 * `counter(k, k)`, which reads bits beside the cell's other sites where the row filter jumps
 * through the snapshot's columns. A caller may add column clauses of its own: a sync adds
 * "at or after this place of the (updatedAt, id) order" (sync-search.ts).
 *
 * The `connector` substring matches labels, which no bitset holds: a query with it counts
 * row by row (`counterOf` answers undefined). Totals stay exact: the tests compare every
 * range with the row filter and every total with a linear scan.
 * @module
 */
import { CURRENT_TYPES } from "../data/connector-types.ts";
import { ACCESS_VALUES, STATUS_VALUES } from "../data/model.ts";
import type { FilterQuery } from "./filter.ts";
import type { Coded, Column, FilterIndex } from "./filter-index.ts";

/**
 * Counts the positions of [left, right] passing a query's filters; `word(w, mask)` gives the
 * bits of `mask` (bit j for position 32w + j) whose positions pass them, so a walk tests one
 * site, or a leaf's sites, by bits instead of a count per site (column clauses are tested
 * only at the bits asked for).
 */
export interface RangeCounter {
  (left: number, right: number): number;
  word(w: number, mask: number): number;
}

/** The range counter of one query's filters with `extra` clauses added (undefined: nothing to count by). */
export type Counting = (extra?: readonly ColumnClause[]) => RangeCounter | undefined;

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

/** The set bits of `word` (positions from `base`) passing every column clause. */
function columnsPass(columns: readonly ColumnClause[], word: number, base: number): number {
  let rest = word;
  while (rest !== 0) {
    const low = rest & -rest;
    if (!passesAll(columns, base + 31 - Math.clz32(low))) word ^= low;
    rest ^= low;
  }
  return word;
}

/** The bits of the 32 positions from `base` (within `length`) passing one column clause. */
function columnWord(clause: ColumnClause, base: number, length: number): number {
  const { codes, mask, min = 0 } = clause;
  const end = Math.min(32, length - base);
  let bits = 0;
  if (mask) for (let j = 0; j < end; j++) bits |= (mask[codes[base + j] as number] as number) << j;
  else for (let j = 0; j < end; j++) bits |= ((codes[base + j] as number) >= min ? 1 : 0) << j;
  return bits;
}

/**
 * Column clauses alone: one clause is a plain sum over its mask; several build each word's
 * bits clause by clause (branch-free loops), AND them and count.
 */
function columnsOnly(columns: readonly ColumnClause[], length: number): RangeCounter {
  const full = (w: number) => {
    let bits = -1;
    for (const clause of columns) {
      bits &= columnWord(clause, w << 5, length);
      if (bits === 0) break;
    }
    return bits;
  };
  // Positions past the last site pass nothing (their codes are undefined).
  const word = (w: number, mask: number) => {
    const held = length - (w << 5);
    return held <= 0 ? 0 : columnsPass(columns, held >= 32 ? mask : mask & ((1 << held) - 1), w << 5);
  };
  const [only] = columns;
  if (columns.length === 1 && only?.mask) {
    const { codes, mask } = only;
    const count = (left: number, right: number) => {
      let total = 0;
      for (let p = left; p <= right; p++) total += mask[codes[p] as number] as number;
      return total;
    };
    return Object.assign(count, { word });
  }
  const count = (left: number, right: number) => {
    let total = 0;
    const first = left >>> 5;
    const last = right >>> 5;
    for (let w = first; w <= last; w++) total += popcount(full(w) & edges(w, first, last, left, right));
    return total;
  };
  return Object.assign(count, { word });
}

/** All 32 bits of word `w`, less those before `left` (in the first word) or after `right` (in the last). */
export function edges(w: number, first: number, last: number, left: number, right: number): number {
  let word = -1;
  if (w === first) word &= -1 << (left & 31);
  if (w === last) word &= -1 >>> (31 - (right & 31));
  return word;
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
  if (bits.length === 0) return columnsOnly(columns, index.size);
  const passing = (w: number, mask: number) => {
    const word = wordOf(bits, w, mask);
    return word === 0 || columns.length === 0 ? word : columnsPass(columns, word, w << 5);
  };
  const count = (left: number, right: number) => {
    let total = 0;
    const first = left >>> 5;
    const last = right >>> 5;
    for (let w = first; w <= last; w++) total += popcount(passing(w, edges(w, first, last, left, right)));
    return total;
  };
  return Object.assign(count, { word: passing });
}

/** Whether position `k` passes the counter's filters (one bit of its word). */
export const passesAt = (counter: RangeCounter, k: number): boolean => counter.word(k >>> 5, 1 << (k & 31)) !== 0;
