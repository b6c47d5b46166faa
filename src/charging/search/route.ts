/**
 * A route's geometry on the sphere: each segment is the shorter great-circle arc between two
 * consecutive points (so a segment from 179.9° to -179.9° crosses the antimeridian, 0.2°
 * wide), and a site's place along it is its nearest projection: the off-route distance to the
 * nearest point of the nearest segment and the distance along the route to that point.
 * Vectors on the unit sphere need no special case at the antimeridian or the poles.
 *
 * Distances are compared as keys, sin²(d / 2) of the off-route distance (d the angle): a few
 * dot products per site and segment, no trigonometry; the distance in km and the place along
 * the route are computed once per site, for its nearest segment. The brute-force scan
 * (`nearestOnRoute`) and the index walk use these same functions.
 *
 * `pieceBoxes` gives, per stretch of at most PIECE_KM of a segment, a lon/lat box holding
 * every point within the corridor of that stretch; `searchBoxes` merges the boxes of runs of
 * short segments, so the KD index is asked once per 20 km or so of route; the property test
 * (tests/charging/search/route.test.ts) checks the boxes lose nothing against a scan of every site.
 * @module
 */
import { EARTH_RADIUS_KM } from "./geo.ts";
import type { Box } from "./geo.ts";
import type { Pacer } from "./pacer.ts";

const RAD = Math.PI / 180;

/** Longest stretch of a segment asked of the index at once (a long segment is cut into pieces). */
const PIECE_KM = 20;

/** A point as `[lon, lat]` in WGS84 degrees (GeoJSON's order). */
export type LonLat = readonly [number, number];

type Vec = [number, number, number];

/** The unit vector of a point. */
export const vecOf = (lon: number, lat: number): Vec => {
  const c = Math.cos(lat * RAD);
  return [c * Math.cos(lon * RAD), c * Math.sin(lon * RAD), Math.sin(lat * RAD)];
};
const dot = (a: Vec, b: Vec) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec, b: Vec): Vec => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: Vec) => Math.hypot(a[0], a[1], a[2]);
/** The angle between two unit vectors, accurate for small and large angles alike. */
const angle = (a: Vec, b: Vec) => Math.atan2(norm(cross(a, b)), dot(a, b));
/** The squared chord between two unit vectors: 4 sin²(angle / 2), exact for small angles. */
const chord2 = (a: Vec, b: Vec) => (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2;

/** One segment: its ends, the basis of its great circle (a, then `toward` b), its length and where it starts. */
interface Segment {
  a: Vec;
  b: Vec;
  /** Unit normal of the great circle; undefined when the ends coincide (the segment is a point). */
  n: Vec | undefined;
  /** Unit vector at right angles to a, in the plane of the circle, towards b: p·toward >= 0 past a. */
  toward: Vec;
  /** b × n: p·beyond >= 0 short of b. */
  beyond: Vec;
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
  if (size < 1e-15) return { a, b, n: undefined, toward: a, beyond: a, length: 0, startKm };
  const n: Vec = [c[0] / size, c[1] / size, c[2] / size];
  return { a, b, n, toward: cross(n, a), beyond: cross(b, n), length, startKm };
}

/** Builds the route through `points` (at least one), a segment per step. */
function* building(points: readonly LonLat[]): Generator<void, Route> {
  const segments: Segment[] = [];
  let km = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const segment = segmentOf(points[i] as LonLat, points[i + 1] as LonLat, km);
    segments.push(segment);
    km += segment.length * EARTH_RADIUS_KM;
    yield;
  }
  if (points.length === 1) segments.push(segmentOf(points[0] as LonLat, points[0] as LonLat, 0));
  return { segments, lengthKm: km };
}

/** The route through `points` (at least one). */
export function routeOf(points: readonly LonLat[]): Route {
  const steps = building(points);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/** The route through `points`, pausing through `pacer` (10,000 points take milliseconds to build). */
export async function routeOfPaced(points: readonly LonLat[], pacer: Pacer): Promise<Route> {
  const steps = building(points);
  let step = steps.next();
  while (!step.done) {
    if (pacer.due()) await pacer.pause();
    step = steps.next();
  }
  return step.value;
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

/** Whether p's nearest point of the segment's circle lies between its ends. */
const between = (p: Vec, s: Segment) => s.n !== undefined && dot(p, s.toward) >= 0 && dot(p, s.beyond) >= 0;

/** The key of a distance in km: sin²(d / 2), d the angle. */
export const keyOfKm = (km: number) => Math.sin(km / (2 * EARTH_RADIUS_KM)) ** 2;

/** Kilometres of a key. */
const kmOfKey = (key: number) => 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(Math.min(1, key)));

/** The key of the distance from p (a unit vector) to segment `index`: its nearest point between the ends, or the nearer end. */
export function offKey(route: Route, index: number, p: Vec): number {
  const s = route.segments[index] as Segment;
  if (between(p, s)) {
    // sin(off) = |p·n|; sin²(off / 2) = (1 - cos off) / 2, written without the cancellation.
    const sq = dot(p, s.n as Vec) ** 2;
    return sq / (2 * (1 + Math.sqrt(Math.max(0, 1 - sq))));
  }
  return Math.min(chord2(p, s.a), chord2(p, s.b)) / 4;
}

/** Where p lies against segment `index` (the one `offKey` found nearest): km off the route and along it. */
export function projectionOn(route: Route, index: number, p: Vec): Projection {
  const s = route.segments[index] as Segment;
  let theta = 0;
  if (between(p, s)) theta = Math.min(s.length, Math.max(0, Math.atan2(dot(p, s.toward), dot(p, s.a))));
  else if (chord2(p, s.b) < chord2(p, s.a)) theta = s.length;
  return { offKm: kmOfKey(offKey(route, index, p)), alongKm: s.startKm + theta * EARTH_RADIUS_KM };
}

/**
 * The nearest segment to p and its key, segments in route order: on a tie the first wins, and
 * its place along the route is the smaller (the brute-force scan; the walk keeps the same rule).
 */
export function nearestOnRoute(route: Route, p: Vec): { segment: number; key: number } {
  let segment = 0;
  let key = Infinity;
  for (let i = 0; i < route.segments.length; i++) {
    const here = offKey(route, i, p);
    if (here < key) {
      key = here;
      segment = i;
    }
  }
  return { segment, key };
}

/** Where (lon, lat) lies against the route, by the brute-force scan of every segment. */
export function projectOnRoute(route: Route, lon: number, lat: number): Projection {
  const p = vecOf(lon, lat);
  return projectionOn(route, nearestOnRoute(route, p).segment, p);
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

/** Boxes to ask the index, each with the run of segments [first, last] whose corridor it holds. */
interface SearchBox {
  box: Box;
  first: number;
  last: number;
}

/** A run of short segments shares one box until it is this long (km) or this many segments. */
const RUN_KM = 20;
const RUN_SEGMENTS = 64;
/** Boxes merged no wider than this (degrees of longitude). */
const RUN_MAX_DEGREES = 10;

/**
 * The boxes to ask the index for the whole route, in route order: runs of short segments
 * merged into one box; a long segment (or one across the antimeridian) piece by piece. Made
 * as they are asked for, so a paced walk pauses between them (a 10,000-point route's boxes
 * take some milliseconds to make).
 */
export function* searchBoxes(route: Route, corridorKm: number): Generator<SearchBox> {
  let run: { box: [number, number, number, number]; first: number; last: number; km: number } | undefined;
  for (let i = 0; i < route.segments.length; i++) {
    const boxes = pieceBoxes(route, i, corridorKm);
    const [w, so, e, n] = boxes[0] as Box;
    const km = (route.segments[i] as Segment).length * EARTH_RADIUS_KM;
    const alone = boxes.length > 1 || w > e;
    if (run) {
      const [rw, rs, re, rn] = run.box;
      const wide = Math.max(re, e) - Math.min(rw, w) > RUN_MAX_DEGREES;
      if (!alone && !wide && run.km + km <= RUN_KM && i - run.first < RUN_SEGMENTS) {
        run.box = [Math.min(rw, w), Math.min(rs, so), Math.max(re, e), Math.max(rn, n)];
        run.last = i;
        run.km += km;
        continue;
      }
      yield { box: run.box, first: run.first, last: run.last };
      run = undefined;
    }
    if (alone) for (const box of boxes) yield { box, first: i, last: i };
    else run = { box: [w, so, e, n], first: i, last: i, km };
  }
  if (run) yield { box: run.box, first: run.first, last: run.last };
}
