/**
 * Walks over the prebuilt kdbush tree (its `ids`, `coords` and `nodeSize`; a cell splits at
 * its middle point, on longitude at even depths and latitude at odd ones):
 *
 * - `countIn` (here): how many sites a region holds (and pass a filter). Cells fully inside
 *   count as their size without a visit, or under a filter through the filter index's range
 *   counter (filter-index.ts: bitsets over these same positions); only the cells the region's
 *   edge cuts are tested site by site; nothing is sorted.
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
import type { RangeCounter } from "./range-counter.ts";
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
  if (size === 0) return 0;
  const { ids, coords, nodeSize } = treeOf(index);
  // One site by its tree position: the counter reads the index's bits there, which lie in
  // tree order (next to the cell's other sites), where the row filter jumps through the columns.
  const passes = (k: number) => (counter ? counter(k, k) === 1 : !filter || filter(ids[k] as number));
  const stack: number[] = [0, ids.length - 1, 0, -180, -90, 180, 90];
  const cell: Cell = { minLng: 0, minLat: 0, maxLng: 0, maxLat: 0 };
  let total = 0;
  while (stack.length > 0) {
    cell.maxLat = stack.pop() as number;
    cell.maxLng = stack.pop() as number;
    cell.minLat = stack.pop() as number;
    cell.minLng = stack.pop() as number;
    const axis = stack.pop() as number;
    const right = stack.pop() as number;
    const left = stack.pop() as number;
    const relation = region.relate(cell);
    if (relation === OUTSIDE) continue;
    if (relation === INSIDE && !filter) {
      total += right - left + 1;
      continue;
    }
    if (relation === INSIDE && counter) {
      total += await countRange(counter, left, right, pacer);
      continue;
    }
    const whole = relation === INSIDE;
    if (whole || right - left <= nodeSize) {
      for (let k = left; k <= right; k++) {
        if (pacer.due()) await pacer.pause();
        if (!whole && !region.has(coords[2 * k] as number, coords[2 * k + 1] as number)) continue;
        if (passes(k)) total++;
      }
      continue;
    }
    const m = (left + right) >> 1;
    const x = coords[2 * m] as number;
    const y = coords[2 * m + 1] as number;
    if (region.has(x, y) && passes(m)) total++;
    const { minLng, minLat, maxLng, maxLat } = cell;
    stack.push(left, m - 1, 1 - axis, minLng, minLat, axis === 0 ? x : maxLng, axis === 1 ? y : maxLat);
    stack.push(m + 1, right, 1 - axis, axis === 0 ? x : minLng, axis === 1 ? y : minLat, maxLng, maxLat);
    if (pacer.due()) await pacer.pause();
  }
  return total;
}
