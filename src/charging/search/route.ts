/**
 * A route's geometry on the sphere: each segment is the shorter great-circle arc between two
 * consecutive points (so a segment from 179.9° to -179.9° crosses the antimeridian, 0.2°
 * wide), and a site's place along it is its nearest projection: the off-route distance to the
 * nearest point of the nearest segment and the distance along the route to that point.
 * Vectors on the unit sphere need no special case at the antimeridian or the poles.
 *
 * `pieceBoxes` gives, per stretch of at most PIECE_KM of a segment, a lon/lat box holding
 * every point within the corridor of that stretch, so the KD index is asked only around the
 * route; the property test (tests/charging/search/route.test.ts) checks the boxes lose
 * nothing against a scan of every site.
 * @module
 */
import { EARTH_RADIUS_KM } from "./geo.ts";
import type { Box } from "./geo.ts";

const RAD = Math.PI / 180;

/** Longest stretch of a segment asked of the index at once (a long segment is cut into pieces). */
export const PIECE_KM = 20;

/** A point as `[lon, lat]` in WGS84 degrees (GeoJSON's order). */
export type LonLat = readonly [number, number];

type Vec = [number, number, number];

const vecOf = (lon: number, lat: number): Vec => {
  const c = Math.cos(lat * RAD);
  return [c * Math.cos(lon * RAD), c * Math.sin(lon * RAD), Math.sin(lat * RAD)];
};
const dot = (a: Vec, b: Vec) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec, b: Vec): Vec => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: Vec) => Math.hypot(a[0], a[1], a[2]);
/** The angle between two unit vectors, accurate for small and large angles alike. */
const angle = (a: Vec, b: Vec) => Math.atan2(norm(cross(a, b)), dot(a, b));

/** One segment: its ends, the basis of its great circle (a, then `toward` b), its length and where it starts. */
interface Segment {
  a: Vec;
  b: Vec;
  /** Unit normal of the great circle; undefined when the ends coincide (the segment is a point). */
  n: Vec | undefined;
  /** Unit vector at right angles to a, in the plane of the circle, towards b. */
  toward: Vec;
  /** Length in radians. */
  length: number;
  /** Kilometres along the route at `a`. */
  startKm: number;
}

export interface Route {
  segments: readonly Segment[];
  lengthKm: number;
}

/** Where a site lies against a route: kilometres off it and along it (to its nearest projection). */
export interface Projection {
  offKm: number;
  alongKm: number;
}

function segmentOf(from: LonLat, to: LonLat, startKm: number): Segment {
  const a = vecOf(from[0], from[1]);
  const b = vecOf(to[0], to[1]);
  const c = cross(a, b);
  const size = norm(c);
  const length = angle(a, b);
  // Coinciding ends (a repeated point) make a segment that is a point.
  if (size < 1e-15) return { a, b, n: undefined, toward: a, length: 0, startKm };
  const n: Vec = [c[0] / size, c[1] / size, c[2] / size];
  return { a, b, n, toward: cross(n, a), length, startKm };
}

/** The route through `points` (at least one). */
export function routeOf(points: readonly LonLat[]): Route {
  const segments: Segment[] = [];
  let km = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const segment = segmentOf(points[i] as LonLat, points[i + 1] as LonLat, km);
    segments.push(segment);
    km += segment.length * EARTH_RADIUS_KM;
  }
  if (points.length === 1) segments.push(segmentOf(points[0] as LonLat, points[0] as LonLat, 0));
  return { segments, lengthKm: km };
}

/** The great-circle length of a path in km (for the route length limit, before building it). */
export function pathLengthKm(points: readonly LonLat[]): number {
  let radians = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const [lon1, lat1] = points[i] as LonLat;
    const [lon2, lat2] = points[i + 1] as LonLat;
    radians += angle(vecOf(lon1, lat1), vecOf(lon2, lat2));
  }
  return radians * EARTH_RADIUS_KM;
}

/** Where the point p (a unit vector) lies against one segment. */
function projectOnto(p: Vec, s: Segment): Projection {
  if (s.n !== undefined) {
    const theta = Math.atan2(dot(p, s.toward), dot(p, s.a));
    if (theta >= 0 && theta <= s.length) {
      const off = Math.asin(Math.min(1, Math.abs(dot(p, s.n))));
      return { offKm: off * EARTH_RADIUS_KM, alongKm: s.startKm + theta * EARTH_RADIUS_KM };
    }
  }
  const toA = angle(p, s.a);
  const toB = angle(p, s.b);
  if (toB < toA) return { offKm: toB * EARTH_RADIUS_KM, alongKm: s.startKm + s.length * EARTH_RADIUS_KM };
  return { offKm: toA * EARTH_RADIUS_KM, alongKm: s.startKm };
}

/** Whether projection x is the better one: nearer the route, then earlier along it. */
export const nearer = (x: Projection, y: Projection) => x.offKm < y.offKm || (x.offKm === y.offKm && x.alongKm < y.alongKm);

/** The site at (lon, lat) against segment `index` of `route`. */
export function projectOnSegment(route: Route, index: number, lon: number, lat: number): Projection {
  return projectOnto(vecOf(lon, lat), route.segments[index] as Segment);
}

/** The nearest projection of (lon, lat) over every segment: the brute-force scan the index walk must agree with. */
export function projectOnRoute(route: Route, lon: number, lat: number): Projection {
  const p = vecOf(lon, lat);
  let best: Projection | undefined;
  for (const segment of route.segments) {
    const here = projectOnto(p, segment);
    if (best === undefined || nearer(here, best)) best = here;
  }
  return best as Projection;
}

const lonLatOf = (v: Vec): LonLat => [Math.atan2(v[1], v[0]) / RAD, Math.asin(Math.max(-1, Math.min(1, v[2]))) / RAD];

/** The point at angle theta along a segment's circle. */
const pointAt = (s: Segment, theta: number): Vec => {
  const c = Math.cos(theta);
  const sn = Math.sin(theta);
  return [s.a[0] * c + s.toward[0] * sn, s.a[1] * c + s.toward[1] * sn, s.a[2] * c + s.toward[2] * sn];
};

/** The sines of the lowest and highest latitude of the arc from t0 to t1 on a segment's circle. */
function zRange(s: Segment, t0: number, t1: number): [number, number] {
  const z0 = s.a[2] * Math.cos(t0) + s.toward[2] * Math.sin(t0);
  const z1 = s.a[2] * Math.cos(t1) + s.toward[2] * Math.sin(t1);
  let lo = Math.min(z0, z1);
  let hi = Math.max(z0, z1);
  // z(t) = A cos t + B sin t peaks at atan2(B, A) (height hypot(A, B)) and bottoms out half a turn on.
  const peak = Math.atan2(s.toward[2], s.a[2]);
  const amplitude = Math.hypot(s.a[2], s.toward[2]);
  for (const t of [peak, peak + Math.PI, peak - Math.PI]) {
    if (t < t0 || t > t1) continue;
    const z = t === peak ? amplitude : -amplitude;
    lo = Math.min(lo, z);
    hi = Math.max(hi, z);
  }
  return [lo, hi];
}

/** Widening of every box against rounding (1e-9 degrees is 0.1 mm). */
const SLACK_DEG = 1e-9;

const wrapLon = (lon: number) => (lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon);

/** The box of every point within `radians` of the arc from t0 to t1 of segment s. */
function pieceBox(s: Segment, t0: number, t1: number, radians: number): Box {
  const [zLo, zHi] = zRange(s, t0, t1);
  const latLo = Math.asin(Math.max(-1, zLo)) / RAD;
  const latHi = Math.asin(Math.min(1, zHi)) / RAD;
  const pad = radians / RAD + SLACK_DEG;
  const south = Math.max(-90, latLo - pad);
  const north = Math.min(90, latHi + pad);
  // The farthest in longitude a point within `radians` of a point at latitude φ can be is
  // asin(sin r / cos φ); it grows with |φ|, so the arc's largest |latitude| bounds it.
  const widest = Math.max(Math.abs(latLo), Math.abs(latHi)) * RAD;
  const ratio = Math.sin(radians) / Math.cos(widest);
  if (ratio >= 1 || north >= 90 || south <= -90) return [-180, south, 180, north];
  const spread = Math.asin(ratio) / RAD + SLACK_DEG;
  // Along an arc that passes no pole the longitude moves one way, and by less than 180° on an
  // arc shorter than half the circle: the ends bound it, the shorter way round.
  const [lon0] = lonLatOf(pointAt(s, t0));
  const [lon1] = lonLatOf(pointAt(s, t1));
  let delta = lon1 - lon0;
  if (delta > 180) delta -= 360;
  if (delta < -180) delta += 360;
  const west = (delta >= 0 ? lon0 : lon0 + delta) - spread;
  const east = (delta >= 0 ? lon0 + delta : lon0) + spread;
  if (east - west >= 360) return [-180, south, 180, north];
  return [wrapLon(west), south, wrapLon(east), north];
}

/**
 * The boxes to ask the index for segment `index`: one per stretch of at most PIECE_KM, each
 * holding every point within `corridorKm` of its stretch (minLon > maxLon: across the antimeridian).
 */
export function pieceBoxes(route: Route, index: number, corridorKm: number): Box[] {
  const s = route.segments[index] as Segment;
  const radians = corridorKm / EARTH_RADIUS_KM;
  const pieces = Math.max(1, Math.ceil((s.length * EARTH_RADIUS_KM) / PIECE_KM));
  const boxes: Box[] = [];
  for (let k = 0; k < pieces; k++) boxes.push(pieceBox(s, (s.length * k) / pieces, (s.length * (k + 1)) / pieces, radians));
  return boxes;
}
