/**
 * What a search covers: a radius, a box, both, or the whole data set. The KD walks ask a
 * region two things: how a cell relates to it (outside, partly in, fully in) and whether a
 * point is in it.
 * @module
 */
import {
  type Box,
  boxCentre,
  boxHas,
  boxHolds,
  boxMeets,
  type Cell,
  cellLowerBound,
  cellUpperBound,
  haverDist,
  haverOfKm,
} from "./geo.ts";

export const OUTSIDE = 0;
const PARTLY = 1;
export const INSIDE = 2;
export type Relation = typeof OUTSIDE | typeof PARTLY | typeof INSIDE;

export interface Region {
  relate(cell: Cell): Relation;
  has(lng: number, lat: number): boolean;
}

const EVERYWHERE: Region = { relate: () => INSIDE, has: () => true };

export function circle(lng: number, lat: number, radiusKm: number): Region {
  const cosLat = Math.cos((lat * Math.PI) / 180);
  const max = haverOfKm(radiusKm);
  return {
    relate(cell) {
      if (cellLowerBound(lng, lat, cosLat, cell) > max) return OUTSIDE;
      return cellUpperBound(lng, lat, cosLat, cell) <= max ? INSIDE : PARTLY;
    },
    has: (x, y) => haverDist(lng, lat, cosLat, x, y) <= max,
  };
}

function box(b: Box): Region {
  return {
    relate: (cell) => (!boxMeets(b, cell) ? OUTSIDE : boxHolds(b, cell) ? INSIDE : PARTLY),
    has: (x, y) => boxHas(b, x, y),
  };
}

/** Points in both regions. */
function both(a: Region, b: Region): Region {
  return {
    relate(cell) {
      const first = a.relate(cell);
      if (first === OUTSIDE) return OUTSIDE;
      return Math.min(first, b.relate(cell)) as Relation;
    },
    has: (x, y) => a.has(x, y) && b.has(x, y),
  };
}

/** What a search covers and the point its order starts from (none: the whole set, in id order). */
export function regionOf(q: { bbox?: Box; near?: { lat: number; lon: number; radiusKm: number } }): {
  region: Region;
  origin?: { lng: number; lat: number };
} {
  const boxed = q.bbox ? box(q.bbox) : undefined;
  if (q.near) {
    const round = circle(q.near.lon, q.near.lat, q.near.radiusKm);
    return { region: boxed ? both(round, boxed) : round, origin: { lng: q.near.lon, lat: q.near.lat } };
  }
  if (q.bbox && boxed) return { region: boxed, origin: boxCentre(q.bbox) };
  return { region: EVERYWHERE };
}
