/**
 * The sites within a corridor of a route, ordered along it. The KD index is asked box by box
 * (route.ts: about 20 km of route per box, widened by the corridor), so the work follows the
 * corridor's area, not the data set's size; each site found is measured against the box's
 * segments only, and keeps its nearest segment over all boxes (a route that crosses or
 * doubles back on itself finds a site more than once). The walk pauses through the pacer
 * between boxes and every few hundred sites.
 *
 * Order: distance along the route, then off it, then id order (rows are in id order).
 * @module
 */
import type { KDBush } from "../../../deps.ts";
import type { Attribution, Site } from "../data/model.ts";
import { type Box, boxHas } from "./geo.ts";
import type { Pacer } from "./pacer.ts";
import { keyOfKm, type LonLat, offKey, type Projection, projectionOn, type Route, routeOfPaced, searchBoxes, vecOf } from "./route.ts";
import type { RowFilter } from "./walk.ts";

/** A route search's route: `[lon, lat]` points (at least one) and the corridor's half-width. */
export interface RouteQuery {
  points: readonly LonLat[];
  corridorKm: number;
}

/** The columns a corridor search reads. */
interface Located {
  size: number;
  lon: ArrayLike<number>;
  lat: ArrayLike<number>;
  index: KDBush;
}

interface AlongRoute {
  rows: number[];
  projections: Projection[];
}

/** The rows of the index in `box` (two ranges when it crosses the antimeridian). */
function rowsIn(index: KDBush, [w, s, e, n]: Box): number[] {
  if (w <= e) return index.range(w, s, e, n);
  return [...index.range(w, s, 180, n), ...index.range(-180, s, e, n)];
}

/** Each row within the corridor and its nearest segment (by key, the first on a tie). */
class Nearest {
  readonly slot = new Map<number, number>();
  readonly keys: number[] = [];
  readonly segments: number[] = [];

  /** Boxes come in route order, so a later segment replaces only a strictly nearer one. */
  offer(row: number, key: number, segment: number): void {
    const at = this.slot.get(row);
    if (at === undefined) {
      this.slot.set(row, this.keys.length);
      this.keys.push(key);
      this.segments.push(segment);
    } else if (key < (this.keys[at] as number)) {
      this.keys[at] = key;
      this.segments[at] = segment;
    }
  }
}

/** Every row within `corridorKm` of `route` with its nearest segment (not yet filtered or ordered). */
async function nearestSegments(sites: Located, route: Route, corridorKm: number, pacer: Pacer): Promise<Nearest> {
  const nearest = new Nearest();
  if (sites.size === 0) return nearest;
  const limit = keyOfKm(corridorKm);
  for (const { box, first, last } of searchBoxes(route, corridorKm)) {
    // Making a box costs some microseconds per segment of its run: each counts as a step.
    for (let segment = first; segment <= last; segment++) if (pacer.due()) await pacer.pause();
    for (const row of rowsIn(sites.index, box)) {
      if (pacer.due()) await pacer.pause();
      const p = vecOf(sites.lon[row] as number, sites.lat[row] as number);
      let best = first;
      let key = Infinity;
      for (let segment = first; segment <= last; segment++) {
        const here = offKey(route, segment, p);
        if (here < key) {
          key = here;
          best = segment;
        }
      }
      if (key <= limit) nearest.offer(row, key, best);
    }
  }
  return nearest;
}

/** The rows within `corridorKm` of `route` that `accept` keeps, in route order (see the module note). */
async function alongRoute(
  sites: Located,
  route: Route,
  corridorKm: number,
  accept: (row: number) => boolean,
  pacer: Pacer,
): Promise<AlongRoute> {
  const nearest = await nearestSegments(sites, route, corridorKm, pacer);
  const kept: { row: number; at: Projection }[] = [];
  for (const [row, at] of nearest.slot) {
    if (pacer.due()) await pacer.pause();
    if (!accept(row)) continue;
    const p = vecOf(sites.lon[row] as number, sites.lat[row] as number);
    kept.push({ row, at: projectionOn(route, nearest.segments[at] as number, p) });
  }
  kept.sort((x, y) => x.at.alongKm - y.at.alongKm || x.at.offKm - y.at.offKm || x.row - y.row);
  return { rows: kept.map((k) => k.row), projections: kept.map((k) => k.at) };
}

/** What a route search needs of the store. */
interface RouteContext {
  sites: Located;
  siteAt(row: number): Site;
  attributionOf(data: readonly Site[]): Attribution[];
  pacer: Pacer;
}

const metres = (km: number) => Math.round(km * 1000) / 1000;

/**
 * One page of the sites within the corridor that pass `filter` (and lie in `bbox`, if given),
 * in route order, each with `alongKm` and `offRouteKm` (metre precision); `total` counts them all.
 */
export async function searchAlongRoute(
  context: RouteContext,
  page: { bbox?: Box | undefined; limit: number; offset: number },
  route: RouteQuery,
  filter: RowFilter,
) {
  const { sites, siteAt, attributionOf, pacer } = context;
  const { bbox, offset } = page;
  const accept = (row: number) =>
    (!filter || filter(row)) && (!bbox || boxHas(bbox, sites.lon[row] as number, sites.lat[row] as number));
  const along = await alongRoute(sites, await routeOfPaced(route.points, pacer), route.corridorKm, accept, pacer);
  const data = along.rows.slice(offset, offset + Math.max(page.limit, 0)).map((row, k) => {
    const site = siteAt(row);
    const at = along.projections[offset + k] as Projection;
    site.alongKm = metres(at.alongKm);
    site.offRouteKm = metres(at.offKm);
    return site;
  });
  return { data, total: along.rows.length, attribution: attributionOf(data) };
}
