/**
 * Walks over the prebuilt kdbush tree (its `ids`, `coords` and `nodeSize`; a cell splits at
 * its middle point, on longitude at even depths and latitude at odd ones):
 *
 * - `countIn` (here): how many sites a region holds (and pass a filter). Cells fully inside
 *   count as their size without a visit, or under a filter through the filter index's range
 *   counter (filter-index.ts: bitsets over these same positions); only the cells the region's
 *   edge cuts are tested site by site (under the index, only their sites whose filter bits
 *   are set); nothing is sorted. `gatherIn` counts the same way and
 *   also hands back the positions it counted while they are few, for a small region's page.
 * - `nearestIn` (nearest.ts): best-first, stopping after the page's sites.
 *
 * Both pause through the pacer so no walk holds the event loop for long.
 *
 * Why not geokdbush's `around` (the same best-first order): it cannot count, so a page's
 * `total` would take every hit of the region, materialised and sorted; it cannot pause; and it
 * takes a radius but no box. `node scripts/bench-charging-walk.ts` (1,000,000 sites over
 * Europe, 40 queries per radius, totals checked equal; a 2-core machine at load 8): p50 per
 * query at 10 / 50 / 500 km: 0.1 / 0.2 / 0.9 ms here, 0.1 / 0.3 / 32 ms through geokdbush,
 * which held the event loop up to 66 ms at 500 km where these walks paused after at most
 * 10 ms. geokdbush stays a dev dependency: the store's tests check distances against it.
 * @module
 */
import type { KDBush } from "../../../deps.ts";
import { edges, passesAt, type RangeCounter } from "./range-counter.ts";
import type { Cell } from "./geo.ts";
import type { Pacer } from "./pacer.ts";
import { INSIDE, OUTSIDE, type Region } from "./region.ts";

/** Site rows that pass the query's filters (undefined: every row passes). */
export type RowFilter = ((row: number) => boolean) | undefined;

export interface Tree {
  ids: ArrayLike<number>;
  coords: ArrayLike<number>;
  nodeSize: number;
}

export const treeOf = (index: KDBush): Tree => index as unknown as Tree;

/** Positions counted per call of a range counter: a pause can come between two chunks. */
const CHUNK = 8192;

/** `counter` over [left, right], in chunks, each weighed as a pacer's check interval. */
export async function countRange(counter: RangeCounter, left: number, right: number, pacer: Pacer): Promise<number> {
  let total = 0;
  for (let from = left; from <= right; from += CHUNK) {
    total += counter(from, Math.min(right, from + CHUNK - 1));
    if (pacer.due(CHUNK >>> 5)) await pacer.pause();
  }
  return total;
}

/** A stack entry whose positions lie wholly inside the region (its bounds are not read again). */
const INSIDE_RANGE = 2;
/** Positions a filter scans, or a counter counts, per stack entry: a pause can come between two. */
const SCAN = 4096;

/**
 * One count over the tree, run in stretches: `run` works synchronously until it is done or
 * the pacer asks for a pause (then the caller pauses and runs it again). Awaiting inside the
 * walk's loop cost more than the walk itself on small regions (a map view: some 20 cells).
 * Stack entries are 7 numbers: left, right, axis (0, 1, or INSIDE_RANGE), then the cell's bounds.
 */
class CountWalk {
  total = 0;
  /** Tree positions of the sites counted, while they are at most `#room` (then undefined for good). */
  gathered: number[] | undefined;
  readonly #room: number;
  readonly #stack: number[];
  #top = 7;
  readonly #cell: Cell = { minLng: 0, minLat: 0, maxLng: 0, maxLat: 0 };

  readonly tree: Tree;
  readonly region: Region;
  readonly filter: RowFilter;
  readonly counter: RangeCounter | undefined;

  constructor(tree: Tree, region: Region, filter: RowFilter, counter: RangeCounter | undefined, room: number) {
    this.gathered = room > 0 ? [] : undefined;
    this.#room = room;
    this.tree = tree;
    this.region = region;
    this.filter = filter;
    this.counter = counter;
    this.#stack = [0, tree.ids.length - 1, 0, -180, -90, 180, 90];
  }

  #push(left: number, right: number, axis: number, minLng: number, minLat: number, maxLng: number, maxLat: number): void {
    const stack = this.#stack;
    const at = this.#top;
    stack[at] = left;
    stack[at + 1] = right;
    stack[at + 2] = axis;
    stack[at + 3] = minLng;
    stack[at + 4] = minLat;
    stack[at + 5] = maxLng;
    stack[at + 6] = maxLat;
    this.#top = at + 7;
  }

  /** One site by its tree position: the counter reads the index's bits there, which lie in tree order. */
  #passes(k: number): boolean {
    const { counter, filter } = this;
    return counter ? passesAt(counter, k) : !filter || filter(this.tree.ids[k] as number);
  }

  /**
   * A leaf the region's edge cuts, under a counter: its sites passing the filters come as
   * bits, a word at a time, and only those are tested against the region.
   */
  #takeLeaf(counter: RangeCounter, left: number, right: number): void {
    const { coords } = this.tree;
    const first = left >>> 5;
    const last = right >>> 5;
    for (let w = first; w <= last; w++) {
      let bits = counter.word(w, edges(w, first, last, left, right));
      while (bits !== 0) {
        const low = bits & -bits;
        const k = (w << 5) + 31 - Math.clz32(low);
        if (this.region.has(coords[2 * k] as number, coords[2 * k + 1] as number)) this.#take(k);
        bits ^= low;
      }
    }
  }

  /** Counts the site at position `k`. */
  #take(k: number): void {
    this.total++;
    const gathered = this.gathered;
    if (gathered === undefined) return;
    if (gathered.length < this.#room) gathered.push(k);
    else this.gathered = undefined;
  }

  /**
   * Counts `count` sites at positions [left, right] (all of them without a filter); they are
   * gathered only while few, and only when the range itself is short (a selective filter over
   * a large cell would cost a test per position).
   */
  #takeRange(left: number, right: number, count: number): void {
    this.total += count;
    const gathered = this.gathered;
    if (gathered === undefined || count === 0) return;
    if (gathered.length + count > this.#room || right - left >= 4 * this.#room) {
      this.gathered = undefined;
      return;
    }
    for (let k = left; k <= right; k++) if (count === right - left + 1 || this.#passes(k)) gathered.push(k);
  }

  /** Counts until done (true) or until `pacer` asks for a pause (false: run again after it). */
  run(pacer: Pacer): boolean {
    const stack = this.#stack;
    const cell = this.#cell;
    const { coords, nodeSize } = this.tree;
    while (this.#top > 0) {
      const at = (this.#top -= 7);
      const left = stack[at] as number;
      const right = stack[at + 1] as number;
      const axis = stack[at + 2] as number;
      if (axis === INSIDE_RANGE) {
        if (!this.#countInside(left, right, pacer)) return false;
        continue;
      }
      cell.minLng = stack[at + 3] as number;
      cell.minLat = stack[at + 4] as number;
      cell.maxLng = stack[at + 5] as number;
      cell.maxLat = stack[at + 6] as number;
      const relation = this.region.relate(cell);
      if (relation === OUTSIDE) continue;
      if (relation === INSIDE) {
        if (!this.filter) this.#takeRange(left, right, right - left + 1);
        else this.#push(left, right, INSIDE_RANGE, 0, 0, 0, 0);
        continue;
      }
      if (right - left <= nodeSize && this.counter) {
        this.#takeLeaf(this.counter, left, right);
        if (pacer.due(right - left + 1)) return false;
        continue;
      }
      if (right - left <= nodeSize) {
        for (let k = left; k <= right; k++) {
          if (this.region.has(coords[2 * k] as number, coords[2 * k + 1] as number) && this.#passes(k)) this.#take(k);
          if (k < right && pacer.due()) {
            // The rest of the leaf, bounds kept: it relates to the region as the whole leaf did.
            this.#push(k + 1, right, axis, cell.minLng, cell.minLat, cell.maxLng, cell.maxLat);
            return false;
          }
        }
        continue;
      }
      const m = (left + right) >> 1;
      const x = coords[2 * m] as number;
      const y = coords[2 * m + 1] as number;
      if (this.region.has(x, y) && this.#passes(m)) this.#take(m);
      const { minLng, minLat, maxLng, maxLat } = cell;
      this.#push(left, m - 1, 1 - axis, minLng, minLat, axis === 0 ? x : maxLng, axis === 1 ? y : maxLat);
      this.#push(m + 1, right, 1 - axis, axis === 0 ? x : minLng, axis === 1 ? y : minLat, maxLng, maxLat);
      if (pacer.due()) return false;
    }
    return true;
  }

  /**
   * Positions [left, right], all inside the region, passing the filter: a stretch of them
   * (the counter's chunk, or SCAN sites tested one by one); the rest goes back on the stack.
   */
  #countInside(left: number, right: number, pacer: Pacer): boolean {
    const { counter } = this;
    const end = Math.min(right, left + (counter ? CHUNK : SCAN) - 1);
    if (end < right) this.#push(end + 1, right, INSIDE_RANGE, 0, 0, 0, 0);
    if (counter) {
      this.#takeRange(left, end, counter(left, end));
      return !pacer.due(CHUNK >>> 5);
    }
    for (let k = left; k <= end; k++) {
      if (this.#passes(k)) this.#take(k);
      if (k < end && pacer.due()) {
        this.#push(k + 1, end, INSIDE_RANGE, 0, 0, 0, 0);
        return false;
      }
    }
    return true;
  }
}

/**
 * Counts the sites of `region` passing `filter`; `size` sites are indexed (an empty set holds
 * one dummy point). `counter`, when given, counts a range of tree positions under the same
 * filter, so cells fully inside are counted without testing their sites one by one.
 */
export async function countIn(
  index: KDBush,
  size: number,
  region: Region,
  filter: RowFilter,
  pacer: Pacer,
  counter?: RangeCounter,
): Promise<number> {
  return (await gatherIn(index, size, region, filter, pacer, counter, 0)).total;
}

/**
 * `countIn`, and the tree positions of the sites counted when there are at most `room` of
 * them: a small region's page is then sorted out of them (nearest.ts `nearestAmong`) instead
 * of walked for a second time.
 */
export async function gatherIn(
  index: KDBush,
  size: number,
  region: Region,
  filter: RowFilter,
  pacer: Pacer,
  counter: RangeCounter | undefined,
  room: number,
): Promise<{ total: number; positions?: number[] }> {
  if (size === 0) return { total: 0, positions: [] };
  const walk = new CountWalk(treeOf(index), region, filter, counter, room);
  while (!walk.run(pacer)) await pacer.pause();
  return walk.gathered ? { total: walk.total, positions: walk.gathered } : { total: walk.total };
}
