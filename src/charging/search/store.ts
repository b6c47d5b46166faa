/**
 * The site store over a snapshot (see snapshot/): columns and the prebuilt kdbush index are
 * typed-array views of the data-set file, so nothing is parsed or indexed at start-up, and a
 * site object is decoded only when an answer shows it.
 *
 * A search's cost follows its page, not its hits:
 * - `near` (and `bbox`) searches walk the KD-tree best-first from the query point (the box
 *   centre for a box) and stop after offset + limit sites; nothing else is materialised;
 *   a region holding few sites (at most twice offset + limit, or 64) is walked once instead:
 *   counted, and its page sorted out of the sites counted;
 * - searches without either scan rows in id order and stop after offset + limit;
 * - `total` is counted without sorting: KD cells fully inside the region count as their
 *   size, or under filters through the filter index (filter-index.ts: bitsets and code
 *   columns in KD order), so only the cells the region's edge cuts are tested row by row.
 * Long walks pause every few milliseconds (`PaceOptions`) so other requests keep flowing.
 *
 * Order: nearest first from `near`, else from the centre of `bbox`, ties in id order;
 * without either, id order: source (`ocm` before `osm`), OSM element type (node, way,
 * relation), then the numeric id. A sync (`updatedSince` or `cursor`, see sync.ts) orders by
 * (updatedAt, id) instead, with bbox and near as filters, and pages by cursor.
 * @module
 */
import { ApiError } from "../../shared/errors.ts";
import type { DatasetHeader } from "../data/dataset.ts";
import { attributionForKey } from "../data/licence.ts";
import type { Attribution, Site } from "../data/model.ts";
import { createFilters, type FilterQuery, resolveStrings } from "./filter.ts";
import { createFilterIndex, type FilterIndex } from "./filter-index.ts";
import { type Counting, counterOf, type RangeCounter, type ResolvedStrings } from "./range-counter.ts";
import { kmOf } from "./geo.ts";
import { createPacer, type Pacer, type PaceOptions } from "./pacer.ts";
import { type Region, regionOf } from "./region.ts";
import { searchAlongRoute, type RouteQuery } from "./corridor.ts";
import { nearestAmong, nearestIn } from "./nearest.ts";
import { createVocabulary, type Reference, type Vocabulary } from "./reference.ts";
import { type ByCountry, createSyncSearch } from "./sync-search.ts";
import { countRange, gatherIn, type RowFilter } from "./walk.ts";
import { openSnapshot, type Snapshot } from "../snapshot/read.ts";
import { createSiteReader, rowOf, siteAt as decodeSite, stringAt } from "../snapshot/sites.ts";
import { snapshotOf, type WriteOptions } from "../snapshot/write.ts";

/** A search: a region, the filters (filter.ts says how each matches), one page. */
export interface SiteQuery extends FilterQuery {
  /** minLon,minLat,maxLon,maxLat, edges inclusive; minLon > maxLon means the box crosses the antimeridian. */
  bbox?: [number, number, number, number];
  /** Great-circle radius search, results nearest first and carrying `distanceKm`. */
  near?: { lat: number; lon: number; radiusKm: number };
  /** Sites within a corridor of a route, ordered along it, each with `alongKm` and `offRouteKm` (corridor.ts). */
  route?: RouteQuery;
  /** ISO 8601: only sites updated at or after it, in (updatedAt, id) order. */
  updatedSince?: string;
  /** A sync page's `nextCursor`: the page starts after the site it names. */
  cursor?: string;
  limit: number;
  offset: number;
}

export interface SearchResult {
  data: Site[];
  /** Count of all matching rows, not just this page. */
  total: number;
  /** One per data partition in `data` (first-appearance order), or every partition when `data` is empty. */
  attribution: Attribution[];
  /** Syncs only, when more sites follow: where the next page starts. */
  nextCursor?: string;
}

export interface Store {
  size: number;
  header: DatasetHeader;
  /** Names this exact data cut (entity tags are built on it). */
  version: string;
  search(q: SiteQuery): Promise<SearchResult>;
  /** The site with that id; undefined for unknown ids and for closed sites (never imported). */
  get(id: string): Site | undefined;
  attributionFor(site: Site): Attribution;
  /** Every partition's credit line, once each (for dataset-wide notices). */
  attributions: Attribution[];
  /** Every site in id order (exports; decoded one at a time). */
  sites(): Iterable<Site>;
  /** Every value the exact filters take, with its count of sites (counted on first use). */
  reference(): Promise<Reference>;
  /** Builds now what the first filtered, country/operator or sync query would build (the server calls it at start and before a reloaded store serves). */
  prepare(): Promise<void>;
}

/** The NOT_FOUND of an id no open site has; each transport adds where to find an id. */
export const unknownSite = (id: string) =>
  new ApiError("NOT_FOUND", `No open site has id "${id.slice(0, 100)}"; it is unknown or closed`);

/** Sites a region may hold for its page to be sorted out of them (else the page is walked for nearest first). */
const GATHER_MIN = 64;

const OSM_TYPE_RANK: Record<string, number> = { node: 0, way: 1, relation: 2 };

/** Sort key for id order: source, OSM element type, numeric local id, then the raw id. */
export function compareIds(a: string, b: string): number {
  const [sa = "", la = ""] = a.split(":", 2);
  const [sb = "", lb = ""] = b.split(":", 2);
  if (sa !== sb) return sa < sb ? -1 : 1;
  const [ta, na] = la.includes("/") ? la.split("/", 2) : ["", la];
  const [tb, nb] = lb.includes("/") ? lb.split("/", 2) : ["", lb];
  const rank = (OSM_TYPE_RANK[ta ?? ""] ?? 9) - (OSM_TYPE_RANK[tb ?? ""] ?? 9);
  if (rank !== 0) return rank;
  const diff = Number(na) - Number(nb);
  if (diff !== 0 && !Number.isNaN(diff)) return diff;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Rows in id order passing `filter`: the page's rows and the total. With a range counter the
 * scan stops after the page and the total is counted over the whole KD order, or by
 * `countAll` when given (countries alone count their runs' lengths; with other filters beside
 * them, the KD order is counted in sequence).
 */
async function scanIdOrder(
  size: number,
  filter: RowFilter,
  counting: { counter: RangeCounter | undefined; countAll?: (() => Promise<number>) | undefined },
  page: { offset: number; end: number },
  pacer: Pacer,
): Promise<{ rows: number[]; total: number }> {
  const { counter, countAll } = counting;
  const { offset, end } = page;
  if (!filter) {
    const rows: number[] = [];
    for (let row = offset; row < Math.min(end, size); row++) rows.push(row);
    return { rows, total: size };
  }
  const rows: number[] = [];
  let total = 0;
  for (let row = 0; row < size && !(counter && total >= end); row++) {
    if (pacer.due()) await pacer.pause();
    if (!filter(row)) continue;
    if (total >= offset && total < end) rows.push(row);
    total++;
  }
  if (counter && countAll) total = await countAll();
  else if (counter && size > 0) total = await countRange(counter, 0, size - 1, pacer);
  return { rows, total };
}

/** What the filters need, each built once on first use: the vocabulary and the filter index. */
function filterParts(snapshot: Snapshot, pace: PaceOptions) {
  const text = (id: number) => stringAt(snapshot, id);
  let vocabulary: Vocabulary | undefined;
  let counting: Promise<Vocabulary> | undefined;
  let indexing: Promise<FilterIndex> | undefined;
  const loadVocabulary = async () => (vocabulary ??= await (counting ??= createVocabulary(snapshot, text, createPacer(pace))));
  const loadIndex = () => (indexing ??= createFilterIndex(snapshot, createPacer(pace)));
  const filters = createFilters(snapshot, () => vocabulary as Vocabulary);
  /** The row filter of `q` and, when the index serves its filters, its range counters (with a caller's clauses added). */
  const filterOf = async (q: SiteQuery): Promise<{ filter: RowFilter; counting?: Counting; byCountry?: ByCountry | undefined }> => {
    if (q.countries || q.operators) await loadVocabulary();
    const filter = filters(q);
    if (q.connector || q.route || (!filter && q.updatedSince === undefined)) return { filter };
    const index = await loadIndex();
    const strings = resolveStrings(vocabulary as Vocabulary, q);
    const counting: Counting = (extra) => counterOf(index, q, strings, extra);
    return { filter, counting, byCountry: strings.countries ? byCountryOf(index, q, strings.countries, strings) : undefined };
  };
  return { text, loadVocabulary, loadIndex, filterOf };
}

/** A sync's countries as codes of the index's country column (distinct, those the data holds) and the counter of its other filters. */
function byCountryOf(index: FilterIndex, q: SiteQuery, countries: readonly number[], strings: ResolvedStrings): ByCountry {
  const codes = new Set<number>();
  for (const id of countries) {
    const code = index.country.code.get(id);
    if (code !== undefined) codes.add(code);
  }
  const { countries: _countries, ...others } = q;
  return { codes: [...codes], others: counterOf(index, others, { ...strings, countries: undefined }) };
}

/** What a page search reads from its store. */
interface SearchParts {
  snapshot: Snapshot;
  siteAt: (row: number) => Site;
  syncSearch: ReturnType<typeof createSyncSearch>;
  pace: PaceOptions;
}

/** A query's row filter and, when the filter index serves it, its counter and country runs. */
interface Found {
  filter: RowFilter;
  counter: RangeCounter | undefined;
  byCountry: ByCountry | undefined;
}

/** Where a page is searched and what its sites are ordered by distance from. */
type Place = { region: Region; origin: { lng: number; lat: number } };

const pageOf = (q: SiteQuery) => ({ offset: q.offset, end: q.offset + Math.max(q.limit, 0) });

/** A page without a place to be near: rows in id order. */
async function idOrderPage(parts: SearchParts, q: SiteQuery, found: Found): Promise<{ data: Site[]; total: number }> {
  const { filter, counter, byCountry } = found;
  const pacer = createPacer(parts.pace);
  const countAll = byCountry && !byCountry.others ? () => parts.syncSearch.countCountries(byCountry, pacer) : undefined;
  const { rows, total } = await scanIdOrder(parts.snapshot.size, filter, { counter, countAll }, pageOf(q), pacer);
  return { data: rows.map(parts.siteAt), total };
}

/** A page nearest first from `near` or the box's centre. */
async function nearestPage(parts: SearchParts, q: SiteQuery, found: Found, { region, origin }: Place): Promise<{ data: Site[]; total: number }> {
  const { snapshot, siteAt } = parts;
  const { filter, counter } = found;
  const { offset, end } = pageOf(q);
  const pacer = createPacer(parts.pace);
  // A small region (a zoomed-in map view) is walked once: counted, and its page sorted out of the sites counted.
  const { total, positions } = await gatherIn(snapshot.index, snapshot.size, region, filter, pacer, counter, Math.max(GATHER_MIN, 2 * end));
  const near = positions ? nearestAmong(snapshot.index, positions, origin, end) : await nearestIn(snapshot.index, snapshot.size, origin, region, filter, end, pacer, counter);
  const data = near.rows.slice(offset).map((row, k) => {
    const site = siteAt(row);
    if (q.near) site.distanceKm = Math.round(kmOf(near.dists[offset + k] as number) * 1000) / 1000;
    return site;
  });
  return { data, total };
}

/** The store over an opened snapshot. */
export function createStore(snapshot: Snapshot, pace: PaceOptions = {}): Store {
  const n = snapshot.size;
  const siteAt = createSiteReader(snapshot);
  const { text, loadVocabulary, loadIndex, filterOf } = filterParts(snapshot, pace);
  const attributions = snapshot.header.partitions.map((p) => attributionForKey(p.key));

  const attributionOf = (data: readonly Site[]): Attribution[] => {
    if (data.length === 0) return attributions;
    return [...new Set(data.map((s) => s.attributionKey))].map(attributionForKey);
  };

  // A sync reads each site once: its pages decode past the cache of decoded sites, which they would only churn.
  const syncSearch = createSyncSearch({ snapshot, countries: async () => (await loadIndex()).country, siteAt: (row) => decodeSite(snapshot, row), attributionOf, text, pace });

  const parts: SearchParts = { snapshot, siteAt, syncSearch, pace };
  const search = async (q: SiteQuery): Promise<SearchResult> => {
    const { filter, counting, byCountry } = await filterOf(q);
    if (q.route) return searchAlongRoute({ sites: snapshot, siteAt, attributionOf, pacer: createPacer(pace) }, q, q.route, filter);
    if (q.updatedSince !== undefined || q.cursor !== undefined) return syncSearch.search(q, filter, counting, byCountry);
    const found = { filter, counter: counting?.(), byCountry };
    const { region, origin } = regionOf(q);
    const { data, total } = origin ? await nearestPage(parts, q, found, { region, origin }) : await idOrderPage(parts, q, found);
    return { data, total, attribution: attributionOf(data) };
  };

  return {
    size: n,
    header: snapshot.header,
    version: snapshot.version,
    search,
    get(id) {
      const row = rowOf(snapshot, id);
      return row < 0 ? undefined : siteAt(row);
    },
    attributionFor: (site) => attributionForKey(site.attributionKey),
    attributions,
    *sites() {
      // An export reads every row once: nothing to keep.
      for (let row = 0; row < n; row++) yield decodeSite(snapshot, row);
    },
    reference: async () => (await loadVocabulary()).reference,
    async prepare() {
      await Promise.all([loadVocabulary(), loadIndex(), syncSearch.prepare()]);
    },
  };
}

/** A store over sites held in memory (tests, small JSON data sets): built into a snapshot first. */
export function storeOfSites(
  sites: readonly Site[],
  header: Pick<DatasetHeader, "importedAt" | "sources"> = { importedAt: "2020-01-01T00:00:00.000Z", sources: [] },
  pace?: PaceOptions,
  write?: WriteOptions,
): Store {
  return createStore(openSnapshot(snapshotOf(sites, header, write)), pace);
}
