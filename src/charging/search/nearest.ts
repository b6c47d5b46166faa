/**
 * `nearestIn`: the best-first walk (geokdbush's order) over the kdbush tree: a heap of cells
 * by their distance lower bound and of points by distance; it stops after `want` points, so
 * the work follows the page (offset + limit), not the number of hits.
 * @module
 */
import type { KDBush } from "../../../deps.ts";
import { type Cell, cellLowerBound, haverDist } from "./geo.ts";
import { DistanceHeap } from "./heap.ts";
import type { Pacer } from "./pacer.ts";
import { OUTSIDE, type Region } from "./region.ts";
import { passesAt, type RangeCounter } from "./range-counter.ts";
import { type RowFilter, type Tree, treeOf } from "./walk.ts";

interface Nearest {
  rows: number[];
  /** Haversine values (see geo.ts), one per row. */
  dists: number[];
}

/** Cells waiting in the heap, kept in parallel arrays; a cell's heap key is -(its number + 1). */
class CellPool {
  left: number[] = [];
  right: number[] = [];
  axis: number[] = [];
  bounds: number[] = [];
  size = 0;

  add(left: number, right: number, axis: number, c: Cell): number {
    const n = this.size++;
    this.left[n] = left;
    this.right[n] = right;
    this.axis[n] = axis;
    const b = this.bounds;
    b[4 * n] = c.minLng;
    b[4 * n + 1] = c.minLat;
    b[4 * n + 2] = c.maxLng;
    b[4 * n + 3] = c.maxLat;
    return n;
  }

  read(n: number, into: Cell): void {
    into.minLng = this.bounds[4 * n] as number;
    into.minLat = this.bounds[4 * n + 1] as number;
    into.maxLng = this.bounds[4 * n + 2] as number;
    into.maxLat = this.bounds[4 * n + 3] as number;
  }
}

/** A walk's scratch space (heap and cell pool), reused by the next walk once this one is done. */
interface Scratch {
  heap: DistanceHeap;
  pool: CellPool;
}

/** Scratch spaces of finished walks; a large one (a deep offset's) is not kept. */
const spare: Scratch[] = [];
const SPARE_MAX = 8;
const KEEP_ENTRIES_MAX = 4096;

function takeScratch(): Scratch {
  const scratch = spare.pop() ?? { heap: new DistanceHeap(), pool: new CellPool() };
  scratch.heap.clear();
  scratch.pool.size = 0;
  return scratch;
}

function giveBack(scratch: Scratch): void {
  if (spare.length < SPARE_MAX && scratch.heap.capacity <= KEEP_ENTRIES_MAX && scratch.pool.size <= KEEP_ENTRIES_MAX) spare.push(scratch);
}

/**
 * One best-first walk: the heap holds points (key = row) and cells (key = -(pool number + 1))
 * by distance from the origin; `child` is scratch space for the cell being offered.
 */
class NearestWalk {
  readonly heap: DistanceHeap;
  readonly #pool: CellPool;
  readonly #child: Cell = { minLng: -180, minLat: -90, maxLng: 180, maxLat: 90 };
  readonly #tree: Tree;
  readonly #lng: number;
  readonly #lat: number;
  readonly #cosLat: number;
  readonly #region: Region;
  readonly #passes: (k: number) => boolean;

  constructor(scratch: Scratch, tree: Tree, origin: { lng: number; lat: number }, region: Region, passes: (k: number) => boolean) {
    this.heap = scratch.heap;
    this.#pool = scratch.pool;
    this.#tree = tree;
    this.#lng = origin.lng;
    this.#lat = origin.lat;
    this.#cosLat = Math.cos((origin.lat * Math.PI) / 180);
    this.#region = region;
    this.#passes = passes;
    this.heap.push(0, -(this.#pool.add(0, tree.ids.length - 1, 0, this.#child) + 1));
  }

  /** Replaces cell `n` in the heap by its points (a leaf) or its middle point and two halves. */
  expand(n: number): void {
    const pool = this.#pool;
    const left = pool.left[n] as number;
    const right = pool.right[n] as number;
    if (right - left <= this.#tree.nodeSize) {
      for (let k = left; k <= right; k++) this.#offerPoint(k);
      return;
    }
    const m = (left + right) >> 1;
    this.#offerPoint(m);
    const axis = pool.axis[n] as number;
    const { coords } = this.#tree;
    const x = coords[2 * m] as number;
    const y = coords[2 * m + 1] as number;
    const child = this.#child;
    pool.read(n, child);
    if (axis === 0) child.maxLng = x;
    else child.maxLat = y;
    this.#offerCell(left, m - 1, 1 - axis);
    pool.read(n, child);
    if (axis === 0) child.minLng = x;
    else child.minLat = y;
    this.#offerCell(m + 1, right, 1 - axis);
  }

  /**
   * Takes nearest sites into `found` until it holds `want` or the region is exhausted (true),
   * or until `pacer` asks for a pause (false: run again after it). Synchronous: awaiting in
   * the loop cost more than a small walk (a map view's page) itself.
   */
  run(found: Nearest, want: number, pacer: Pacer): boolean {
    const { heap } = this;
    while (heap.size > 0 && found.rows.length < want) {
      if (pacer.due()) return false;
      const dist = heap.peekDistance();
      const key = heap.pop();
      if (key >= 0) {
        found.rows.push(key);
        found.dists.push(dist);
      } else this.expand(-key - 1);
    }
    return true;
  }

  #offerPoint(k: number): void {
    const { coords, ids } = this.#tree;
    const x = coords[2 * k] as number;
    const y = coords[2 * k + 1] as number;
    const row = ids[k] as number;
    if (this.#region.has(x, y) && this.#passes(k)) {
      this.heap.push(haverDist(this.#lng, this.#lat, this.#cosLat, x, y), row);
    }
  }

  #offerCell(left: number, right: number, axis: number): void {
    const child = this.#child;
    if (left > right || this.#region.relate(child) === OUTSIDE) return;
    const bound = cellLowerBound(this.#lng, this.#lat, this.#cosLat, child);
    this.heap.push(bound, -(this.#pool.add(left, right, axis, child) + 1));
  }
}

/**
 * The first `want` sites of `region` passing `filter`, nearest to (lng, lat) first; ties by
 * row (id order). `size` sites are indexed. With `counter` (the same filter over tree
 * positions, filter-index.ts) a site is tested by its bits, which lie next to its cell's.
 */
export async function nearestIn(
  index: KDBush,
  size: number,
  origin: { lng: number; lat: number },
  region: Region,
  filter: RowFilter,
  want: number,
  pacer: Pacer,
  counter?: RangeCounter,
): Promise<Nearest> {
  const found: Nearest = { rows: [], dists: [] };
  if (size === 0 || want <= 0) return found;
  const tree = treeOf(index);
  const { ids } = tree;
  const passes = counter ? (k: number) => passesAt(counter, k) : filter ? (k: number) => filter(ids[k] as number) : () => true;
  const scratch = takeScratch();
  const walk = new NearestWalk(scratch, tree, origin, region, passes);
  while (!walk.run(found, want, pacer)) await pacer.pause();
  giveBack(scratch);
  return found;
}

/**
 * The first `want` of the sites at tree `positions` (a small region's, all of them), nearest
 * to `origin` first, ties by row: the order `nearestIn` walks them in, with the same distances.
 */
export function nearestAmong(index: KDBush, positions: readonly number[], origin: { lng: number; lat: number }, want: number): Nearest {
  const { coords, ids } = treeOf(index);
  const cosLat = Math.cos((origin.lat * Math.PI) / 180);
  const sites = positions.map((k) => ({
    row: ids[k] as number,
    dist: haverDist(origin.lng, origin.lat, cosLat, coords[2 * k] as number, coords[2 * k + 1] as number),
  }));
  sites.sort((a, b) => a.dist - b.dist || a.row - b.row);
  const page = sites.slice(0, Math.max(want, 0));
  return { rows: page.map((s) => s.row), dists: page.map((s) => s.dist) };
}
