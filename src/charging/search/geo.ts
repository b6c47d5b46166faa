/**
 * Great-circle geometry for the KD-tree walks, in haversine units (h = sin²(d / 2R)), which
 * order like distances without a square root or arcsine per point. The lower bound of a
 * point-to-box distance follows geokdbush 2.1.0 (ISC, Vladimir Agafonkin), so nearest-first
 * order matches it; regions (radius, box, both) add what counting needs: whether a KD cell
 * is fully inside, so its points are counted without being visited.
 * @module
 */

const RAD = Math.PI / 180;
export const EARTH_RADIUS_KM = 6371;

const haverSin = (theta: number) => {
  const s = Math.sin(theta / 2);
  return s * s;
};

const partial = (hDLng: number, cosLat1: number, lat1: number, lat2: number) =>
  cosLat1 * Math.cos(lat2 * RAD) * hDLng + haverSin((lat1 - lat2) * RAD);

/** The haversine value of the distance between the origin and a point. */
export function haverDist(lng: number, lat: number, cosLat: number, lng2: number, lat2: number): number {
  return partial(haverSin((lng - lng2) * RAD), cosLat, lat, lat2);
}

/** Kilometres for a haversine value. */
export const kmOf = (h: number) => 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(Math.min(1, h)));

/** The haversine value of `km`. */
export const haverOfKm = (km: number) => haverSin(km / EARTH_RADIUS_KM);

/** A KD cell: the bounds its points lie in. */
export interface Cell {
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

function vertexLat(lat: number, hDLng: number): number {
  const cosDLng = 1 - 2 * hDLng;
  if (cosDLng <= 0) return lat > 0 ? 90 : -90;
  return Math.atan(Math.tan(lat * RAD) / cosDLng) / RAD;
}

/**
 * Bounds are computed by other formulas than a point's distance (atan(tan(lat)) alone is off
 * by an ulp), so each is widened by a relative slack and an absolute one (1e-24 is 13 µm) far
 * above the rounding error: a cell must never come after (or be pruned before) a point inside
 * it at the same distance, or ties would leave id order and edge points would be lost.
 */
const SLACK = 1e-9;
const ABSOLUTE_SLACK = 1e-24;

/** A lower bound of the haversine distance from the origin to any point in `cell`. */
export function cellLowerBound(lng: number, lat: number, cosLat: number, cell: Cell): number {
  return exactLowerBound(lng, lat, cosLat, cell) * (1 - SLACK) - ABSOLUTE_SLACK;
}

function exactLowerBound(lng: number, lat: number, cosLat: number, cell: Cell): number {
  const { minLng, maxLng, minLat, maxLat } = cell;
  if (lng >= minLng && lng <= maxLng) {
    if (lat < minLat) return haverSin((lat - minLat) * RAD);
    if (lat > maxLat) return haverSin((lat - maxLat) * RAD);
    return 0;
  }
  const hDLng = Math.min(haverSin((lng - minLng) * RAD), haverSin((lng - maxLng) * RAD));
  const extremum = vertexLat(lat, hDLng);
  if (extremum > minLat && extremum < maxLat) return partial(hDLng, cosLat, lat, extremum);
  return Math.min(partial(hDLng, cosLat, lat, minLat), partial(hDLng, cosLat, lat, maxLat));
}

/**
 * The haversine distance to the farthest point of `cell`, or Infinity when that is not
 * attained at a corner. Along a parallel the distance grows with |Δlon| up to 180°, and along
 * a meridian it has one minimum, so the farthest point is a corner unless the meridian
 * opposite the origin runs through the cell.
 */
export function cellUpperBound(lng: number, lat: number, cosLat: number, cell: Cell): number {
  const opposite = lng > 0 ? lng - 180 : lng + 180;
  if (opposite > cell.minLng && opposite < cell.maxLng) return Infinity;
  const corners = Math.max(
    haverDist(lng, lat, cosLat, cell.minLng, cell.minLat),
    haverDist(lng, lat, cosLat, cell.minLng, cell.maxLat),
    haverDist(lng, lat, cosLat, cell.maxLng, cell.minLat),
    haverDist(lng, lat, cosLat, cell.maxLng, cell.maxLat),
  );
  return corners * (1 + SLACK) + ABSOLUTE_SLACK;
}

/** `[minLon, minLat, maxLon, maxLat]`, edges inclusive; minLon > maxLon crosses the antimeridian. */
export type Box = readonly [number, number, number, number];

export function boxHas(box: Box, lng: number, lat: number): boolean {
  const [w, s, e, n] = box;
  if (lat < s || lat > n) return false;
  return w <= e ? lng >= w && lng <= e : lng >= w || lng <= e;
}

/** Whether `cell` and `box` share any point. */
export function boxMeets(box: Box, cell: Cell): boolean {
  const [w, s, e, n] = box;
  if (cell.maxLat < s || cell.minLat > n) return false;
  if (w <= e) return cell.maxLng >= w && cell.minLng <= e;
  return cell.maxLng >= w || cell.minLng <= e;
}

/** Whether every point of `cell` is in `box`. */
export function boxHolds(box: Box, cell: Cell): boolean {
  const [w, s, e, n] = box;
  if (cell.minLat < s || cell.maxLat > n) return false;
  if (w <= e) return cell.minLng >= w && cell.maxLng <= e;
  return cell.minLng >= w || cell.maxLng <= e;
}

/** The point a box search orders from: the box's centre (across the antimeridian when it wraps). */
export function boxCentre(box: Box): { lng: number; lat: number } {
  const [w, s, e, n] = box;
  const lat = (s + n) / 2;
  if (w <= e) return { lng: (w + e) / 2, lat };
  const lng = (w + e + 360) / 2;
  return { lng: lng > 180 ? lng - 360 : lng, lat };
}
