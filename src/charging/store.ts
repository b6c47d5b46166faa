/**
 * The in-memory site store: indexes built once (a static KD-tree over lon/lat), then every
 * search is a range or nearest-neighbour walk plus cheap per-row filters.
 *
 * Order: `near` searches by distance (ties by id order); all other searches by id order:
 * source (`ocm` before `osm`), then OSM element type (node, way, relation), then the numeric id.
 * @module
 */
import { geoAround, geoDistance, KDBush } from "../../deps.ts";
import { searchTerms } from "./connectors.ts";
import { attributionForKey } from "./licence.ts";
import type { Attribution, Site } from "./model.ts";
import { Lru } from "../shared/http/lru.ts";

export interface SiteQuery {
  /** minLon,minLat,maxLon,maxLat, edges inclusive; minLon > maxLon means the box crosses the antimeridian. */
  bbox?: [number, number, number, number];
  /** Case-insensitive substring over each connector's type, vocabulary name, aliases and source label. */
  connector?: string;
  /** kW floor on the site's `maxPowerKw`; sites with unknown power do not match. */
  minPower?: number;
  /** Keep only sites whose (registry) status is AVAILABLE. */
  openOnly?: boolean;
  /** Great-circle radius search, results sorted by distance and carrying `distanceKm`. */
  near?: { lat: number; lon: number; radiusKm: number };
  limit: number;
  offset: number;
}

export interface SearchResult {
  data: Site[];
  /** Count of all matching rows, not just this page. */
  total: number;
  /** One per data partition in `data` (first-appearance order), or every partition when `data` is empty. */
  attribution: Attribution[];
}

export interface Store {
  size: number;
  search(q: SiteQuery): SearchResult;
  /** The site with that id; undefined for unknown ids and for closed sites (never imported). */
  get(id: string): Site | undefined;
  attributionFor(site: Site): Attribution;
  /** Every partition's credit line, once each (for dataset-wide notices). */
  attributions: Attribution[];
}

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

export function createStore(input: readonly Site[]): Store {
  const sites = [...input].sort((a, b) => compareIds(a.id, b.id));
  const n = sites.length;
  const byId = new Map(sites.map((s) => [s.id, s]));
  const terms = sites.map((s) => s.connectors.flatMap((c) => searchTerms(c.type, c.label)));
  const power = Float64Array.from(sites, (s) => s.maxPowerKw ?? Number.NaN);
  const available = Uint8Array.from(sites, (s) => (s.status === "AVAILABLE" ? 1 : 0));
  const index = new KDBush(Math.max(n, 1));
  for (const s of sites) index.add(s.lon, s.lat);
  if (n === 0) index.add(0, 0); // kdbush needs one point; no site id maps to it
  index.finish();
  const keys = [...new Set(sites.map((s) => s.attributionKey))].sort();
  const attributions = keys.map(attributionForKey);
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const s of sites) {
    minX = Math.min(minX, s.lon);
    minY = Math.min(minY, s.lat);
    maxX = Math.max(maxX, s.lon);
    maxY = Math.max(maxY, s.lat);
  }

  // Distinct connector needles are few (plug names), so each one's match mask is computed once.
  const masks = new Lru<string, Uint8Array>(256);
  const connectorMask = (needle: string): Uint8Array => {
    let mask = masks.get(needle);
    if (!mask) {
      mask = Uint8Array.from(terms, (list) => (list.some((t) => t.includes(needle)) ? 1 : 0));
      masks.set(needle, mask);
    }
    return mask;
  };

  const filterFor = (q: SiteQuery): ((i: number) => boolean) | undefined => {
    const mask = q.connector ? connectorMask(q.connector.toLowerCase()) : undefined;
    const { minPower, openOnly } = q;
    if (!mask && minPower === undefined && !openOnly) return undefined;
    return (i) =>
      (!openOnly || available[i] === 1) &&
      (minPower === undefined || (power[i] as number) >= minPower) &&
      (!mask || mask[i] === 1);
  };

  const bboxCandidates = (bbox: [number, number, number, number]): Uint32Array | undefined => {
    const [w, s, e, nn] = bbox;
    if (s > nn) return new Uint32Array(0);
    if (w <= e && w <= minX && s <= minY && e >= maxX && nn >= maxY) return undefined;
    const ids =
      w <= e ? index.range(w, s, e, nn) : [...index.range(w, s, 180, nn), ...index.range(-180, s, e, nn)];
    return (n > 0 ? Uint32Array.from(ids) : new Uint32Array(0)).sort();
  };

  const inBox = (bbox: [number, number, number, number] | undefined) => {
    if (!bbox) return () => true;
    const [w, s, e, nn] = bbox;
    return (i: number) => {
      const site = sites[i] as Site;
      if (site.lat < s || site.lat > nn) return false;
      return w <= e ? site.lon >= w && site.lon <= e : site.lon >= w || site.lon <= e;
    };
  };

  const searchNear = (q: SiteQuery & { near: NonNullable<SiteQuery["near"]> }): SearchResult => {
    const { lat, lon, radiusKm } = q.near;
    const filter = filterFor(q);
    const box = inBox(q.bbox);
    const hits = geoAround(
      index,
      lon,
      lat,
      Infinity,
      radiusKm,
      (i) => i < n && box(i) && (!filter || filter(i)),
    )
      .map((i) => ({ i, d: geoDistance(lon, lat, (sites[i] as Site).lon, (sites[i] as Site).lat) }))
      .sort((a, b) => a.d - b.d || a.i - b.i);
    const page = hits.slice(q.offset, q.offset + Math.max(q.limit, 0));
    const data = page.map(({ i, d }) => ({ ...(sites[i] as Site), distanceKm: Math.round(d * 1000) / 1000 }));
    return { data, total: hits.length, attribution: attributionOf(data) };
  };

  const attributionOf = (data: readonly Site[]): Attribution[] => {
    if (data.length === 0) return attributions;
    return [...new Set(data.map((s) => s.attributionKey))].map(attributionForKey);
  };

  const search = (q: SiteQuery): SearchResult => {
    if (q.near) return searchNear({ ...q, near: q.near });
    const candidates = q.bbox ? bboxCandidates(q.bbox) : undefined;
    const filter = filterFor(q);
    const count = candidates ? candidates.length : n;
    const end = q.offset + Math.max(q.limit, 0);
    if (!filter) {
      const data = candidates
        ? Array.from(candidates.subarray(q.offset, end), (i) => sites[i] as Site)
        : sites.slice(q.offset, end);
      return { data, total: count, attribution: attributionOf(data) };
    }
    const data: Site[] = [];
    let total = 0;
    for (let k = 0; k < count; k++) {
      const i = candidates ? (candidates[k] as number) : k;
      if (!filter(i)) continue;
      if (total >= q.offset && total < end) data.push(sites[i] as Site);
      total++;
    }
    return { data, total, attribution: attributionOf(data) };
  };

  return {
    size: n,
    search,
    get: (id) => byId.get(id),
    attributionFor: (site) => attributionForKey(site.attributionKey),
    attributions,
  };
}
