/**
 * A sync page (`updatedSince` or `cursor`): the sites after the cursor, or from updatedSince,
 * in (updatedAt, id) order (sync.ts), with bbox and near as filters. One row past the page
 * says whether a next page exists; every page of one sync has the same total, counted once.
 * @module
 */
import { Lru } from "../../shared/lru.ts";
import type { Attribution, Site } from "../data/model.ts";
import type { Snapshot } from "../snapshot/read.ts";
import { haverDist, kmOf } from "./geo.ts";
import { createPacer, type Pacer, type PaceOptions } from "./pacer.ts";
import { regionOf } from "./region.ts";
import type { SearchResult, SiteQuery } from "./store.ts";
import { createSyncOrder, cursorOf, positionAfterCursor, positionSince, type SyncOrder } from "./sync.ts";
import type { Counting, RangeCounter } from "./range-counter.ts";
import { countRuns, type CountryRuns, createCountryRuns, mergeRuns, runsFrom } from "./sync-countries.ts";
import type { Coded } from "./filter-index.ts";
import { countIn, countRange, type RowFilter, treeOf } from "./walk.ts";

interface SyncParts {
  snapshot: Snapshot;
  /** The filter index's country column (KD order), for the runs by country. */
  countries(): Promise<Coded>;
  siteAt(row: number): Site;
  attributionOf(data: readonly Site[]): Attribution[];
  text(id: number): string;
  pace: PaceOptions;
}

/** The filter of a sync: the query's, the region's and the updatedAt floor in one. */
function syncFilter(q: SiteQuery, snapshot: Snapshot, sync: SyncOrder, filter: RowFilter): RowFilter {
  const region = q.near || q.bbox ? regionOf(q).region : undefined;
  const since = q.updatedSince === undefined ? undefined : Date.parse(q.updatedSince);
  if (!region && since === undefined) return filter;
  const { lon, lat } = snapshot;
  const { keys } = sync;
  return (row) =>
    (since === undefined || (keys[row] as number) >= since) &&
    (!region || region.has(lon[row] as number, lat[row] as number)) &&
    (!filter || filter(row));
}

/** A near search's distance on a site of a sync (its order is by time, so the walk gave none). */
function withDistance(q: SiteQuery, site: Site): Site {
  if (q.near) {
    const { lat, lon } = q.near;
    site.distanceKm = Math.round(kmOf(haverDist(lon, lat, Math.cos((lat * Math.PI) / 180), site.lon, site.lat)) * 1000) / 1000;
  }
  return site;
}

/** The first position updated at or after the query's updatedSince (0 without one). */
const sinceOf = (q: SiteQuery, snapshot: Snapshot, sync: SyncOrder) =>
  q.updatedSince === undefined ? 0 : positionSince(snapshot, sync, Date.parse(q.updatedSince));

/** The first position of a sync query: after its cursor, and at or after updatedSince. */
function startOf(q: SiteQuery, snapshot: Snapshot, sync: SyncOrder): number {
  const at = sinceOf(q, snapshot, sync);
  return q.cursor === undefined ? at : Math.max(at, positionAfterCursor(snapshot, sync, q.cursor));
}

/**
 * The total of a sync. `counting` gives the query filters' range counter over KD positions;
 * updatedSince joins it as a clause over each position's place in the sync order.
 */
async function countSync(q: SiteQuery, snapshot: Snapshot, sync: Ordered, filters: { filter: RowFilter; counting?: Counting | undefined }, pacer: Pacer): Promise<number> {
  const n = snapshot.size;
  const { filter } = filters;
  const from = sinceOf(q, snapshot, sync);
  const counter = filters.counting?.(q.updatedSince === undefined ? [] : [{ codes: sync.places, min: from }]);
  if (q.near || q.bbox) return countIn(snapshot.index, n, regionOf(q).region, filter, pacer, counter);
  if (!filter) return n - from;
  if (counter) return countRange(counter, 0, n - 1, pacer);
  let total = 0;
  for (let at = from; at < n; at++) {
    if (pacer.due()) await pacer.pause();
    if (filter(sync.order[at] as number)) total++;
  }
  return total;
}

/** The rows of one page (and one past it), skipping `offset` matches. */
async function pageRows(q: SiteQuery, sync: SyncOrder, filter: RowFilter, at: number, pacer: Pacer): Promise<number[]> {
  const rows: number[] = [];
  let skipped = 0;
  for (; at < sync.order.length && rows.length <= q.limit; at++) {
    if (pacer.due()) await pacer.pause();
    const row = sync.order[at] as number;
    if (filter && !filter(row)) continue;
    if (skipped < q.offset) skipped++;
    else rows.push(row);
  }
  return rows;
}

/** A query's countries as codes of the index's country column, and the counter of its other filters (undefined: none). */
export interface ByCountry {
  codes: readonly number[];
  others: RangeCounter | undefined;
}

interface SyncSearch {
  /**
   * One page; `counting` gives range counters of the query's filters, when the index serves
   * them; `byCountry`, when the query names countries and the index serves its other filters.
   */
  search(q: SiteQuery, filter: RowFilter, counting?: Counting, byCountry?: ByCountry): Promise<SearchResult>;
  /** The (updatedAt, id) order, built on first use. */
  order(): Promise<SyncOrder>;
  /** How many sites of the countries pass the query's other filters, from their runs (any query without a region). */
  countCountries(part: ByCountry, pacer: Pacer): Promise<number>;
  /** Builds the order and the runs by country now. */
  prepare(): Promise<void>;
}

/** The sync order and each KD position's place in it. */
interface Ordered extends SyncOrder {
  places: Uint32Array;
}

/** `places[k]`: where the site at KD position k stands in the sync order. */
async function placesOf(snapshot: Snapshot, sync: SyncOrder, pacer: Pacer): Promise<Uint32Array> {
  const n = snapshot.size;
  const placeOfRow = new Uint32Array(n);
  for (let at = 0; at < n; at++) placeOfRow[sync.order[at] as number] = at;
  if (pacer.due(n)) await pacer.pause();
  const { ids } = treeOf(snapshot.index);
  const places = new Uint32Array(n);
  for (let k = 0; k < n; k++) places[k] = placeOfRow[ids[k] as number] as number;
  return places;
}

/** A page and the total of a sync naming countries: its countries' runs only (sync-countries.ts). */
async function byCountries(q: SiteQuery, snapshot: Snapshot, sync: Ordered, runs: CountryRuns, part: ByCountry, start: number, filter: RowFilter, pacer: Pacer) {
  const { places } = sync;
  const rows = await mergeRuns(runs, places, treeOf(snapshot.index).ids, runsFrom(runs, places, part.codes, start), { filter, offset: q.offset, limit: q.limit }, pacer);
  // A region's total counts its cells (countSync); without one, the runs from updatedSince.
  const count = q.near || q.bbox ? undefined : () => countRuns(runs, runsFrom(runs, places, part.codes, sinceOf(q, snapshot, sync)), part.others, pacer);
  return { rows, count };
}

export function createSyncSearch(parts: SyncParts): SyncSearch {
  const { snapshot, siteAt, attributionOf, text, pace } = parts;
  let building: Promise<Ordered> | undefined;
  const order = () =>
    (building ??= (async () => {
      const pacer = createPacer(pace);
      const sync = await createSyncOrder(snapshot, text, pacer);
      return { ...sync, places: await placesOf(snapshot, sync, pacer) };
    })());
  let running: Promise<CountryRuns> | undefined;
  const countryRuns = () =>
    (running ??= (async () => {
      const [sync, countries] = await Promise.all([order(), parts.countries()]);
      return createCountryRuns(countries.codes, sync.places, countries.code.size, createPacer(pace));
    })());
  const totals = new Lru<string, number>(256);
  const keptTotal = async (q: SiteQuery, count: () => Promise<number>): Promise<number> => {
    const { cursor: _cursor, limit: _limit, offset: _offset, ...same } = q;
    const key = JSON.stringify(same);
    let total = totals.get(key);
    if (total === undefined) {
      total = await count();
      totals.set(key, total);
    }
    return total;
  };

  const search = async (q: SiteQuery, base: RowFilter, counting?: Counting, byCountry?: ByCountry): Promise<SearchResult> => {
    const sync = await order();
    const filter = syncFilter(q, snapshot, sync, base);
    const pacer = createPacer(pace);
    const start = startOf(q, snapshot, sync);
    const countSlow = () => countSync(q, snapshot, sync, { filter, counting }, pacer);
    const { rows, count = countSlow } = byCountry
      ? await byCountries(q, snapshot, sync, await countryRuns(), byCountry, start, filter, pacer)
      : { rows: await pageRows(q, sync, filter, start, pacer) };
    const page = rows.slice(0, q.limit);
    const total = await keptTotal(q, count);
    const data = page.map((row) => withDistance(q, siteAt(row)));
    const last = page[page.length - 1];
    const result: SearchResult = { data, total, attribution: attributionOf(data) };
    if (rows.length > q.limit && last !== undefined) result.nextCursor = cursorOf(snapshot, sync, last);
    return result;
  };
  return {
    search,
    order,
    async countCountries(part, pacer) {
      const [sync, runs] = await Promise.all([order(), countryRuns()]);
      return countRuns(runs, runsFrom(runs, sync.places, part.codes, 0), part.others, pacer);
    },
    async prepare() {
      await countryRuns();
    },
  };
}
