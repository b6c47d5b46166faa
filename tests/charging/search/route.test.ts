/**
 * Search along a route: the polyline decoder, the route rules, the geometry, and the corridor
 * walk through the KD index checked against a brute-force scan of every site over every
 * segment with the same distance function (fast-check, bounded in time).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import type { Site } from "../../../src/charging/data/model.ts";
import { decodePolyline, encodePolyline } from "../../../src/charging/operations/polyline.ts";
import { readRoute } from "../../../src/charging/operations/route-input.ts";
import { keyOfKm, type LonLat, nearestOnRoute, pieceBoxes, projectionOn, projectOnRoute, routeOf, searchBoxes, vecOf } from "../../../src/charging/search/route.ts";
import { boxHas } from "../../../src/charging/search/geo.ts";
import { storeOfSites } from "../../../src/charging/search/store.ts";
import { site } from "../data/helpers.ts";

test("polyline: Google's documented example decodes to its three points", () => {
  assert.deepEqual(decodePolyline("_p~iF~ps|U_ulLnnqC_mqNvxq`@", 10), {
    points: [
      [-120.2, 38.5],
      [-120.95, 40.7],
      [-126.453, 43.252],
    ],
  });
  assert.deepEqual(decodePolyline("", 10), { points: [] });
  assert.equal(encodePolyline([[-120.2, 38.5], [-120.95, 40.7], [-126.453, 43.252]]), "_p~iF~ps|U_ulLnnqC_mqNvxq`@");
});

test("polyline: any path at precision 5 round-trips through the encoder and the decoder", () => {
  const position = fc.tuple(fc.integer({ min: -18_000_000, max: 18_000_000 }), fc.integer({ min: -9_000_000, max: 9_000_000 }));
  fc.assert(
    fc.property(fc.array(position, { maxLength: 30 }), (units) => {
      const points: LonLat[] = units.map(([lo, la]) => [lo / 1e5, la / 1e5]);
      assert.deepEqual(decodePolyline(encodePolyline(points), 100), { points });
    }),
    { numRuns: 300 },
  );
});

test("polyline: each fault is named", () => {
  const error = (text: string, max = 100) => (decodePolyline(text, max) as { error: string }).error;
  assert.match(error("_p~iF ~ps|U"), /" " at character 6; .*only the characters \? to ~/);
  assert.match(error("_p~iF~ps|"), /ends inside a value \(from character 6\); it was cut off/);
  assert.match(error("_p~iF"), /ends after a latitude without its longitude/);
  assert.match(error("~~~~~~~?"), /value at character 1 is too long for precision 5/);
  // 100° of latitude: a precision-6 polyline read at precision 5 looks like this.
  assert.match(error(encodePolyline([[0, 95]])), /outside -90\.\.90.*precision 5/);
  assert.match(error(encodePolyline([[1, 1], [2, 2], [3, 3]]), 2), /more than 2 points/);
});

test("route rules: at least two points, at most 20,000 km; GeoJSON must be a LineString of [lon, lat]", () => {
  const error = (route: Parameters<typeof readRoute>[0]) => (readRoute(route) as { error: string }).error;
  assert.match(error(encodePolyline([[10, 50]])), /route has 1 point; a route needs at least 2 \(for one point, search near it/);
  assert.match(error({ type: "LineString", coordinates: [] }), /route has 0 points/);
  assert.match(error({ type: "Point", coordinates: [1, 2] }), /route is a GeoJSON Point; send a GeoJSON LineString or an encoded polyline/);
  assert.match(error({ type: 3 }), /an object without a GeoJSON type/);
  assert.match(error({ type: "LineString" }), /needs coordinates/);
  assert.match(error({ type: "LineString", coordinates: [[1, 2], [3]] }), /coordinates\[1\] must be \[lon, lat\]/);
  assert.match(error({ type: "LineString", coordinates: [[1, 2], [3, "4"]] }), /coordinates\[1\]/);
  assert.match(error({ type: "LineString", coordinates: [[1, 2], [50, 100]] }), /coordinates\[1\] is \[50, 100\]: .*GeoJSON puts lon first/);
  assert.match(error({ type: "LineString", coordinates: [[0, 0], [90, 0], [180, 0], [-90, 0]] }), /route is 30023 km long; at most 20000 km/);
  assert.match(error({ type: "LineString", coordinates: Array.from({ length: 10_001 }, (_, k) => [0, k / 1e4]) }), /more than 10000 points/);
  assert.deepEqual(readRoute({ type: "LineString", coordinates: [[1, 2, 300], [1, 2]] }), { points: [[1, 2], [1, 2]] }, "altitude dropped, a repeated point kept");
});

test("geometry: off and along a segment of the equator, its ends, and a zero-length segment", () => {
  const route = routeOf([[0, 0], [1, 0]]);
  const kmPerDegree = 111.195;
  const middle = projectOnRoute(route, 0.5, 0.1);
  assert.ok(Math.abs(middle.offKm - 0.1 * kmPerDegree) < 0.01 && Math.abs(middle.alongKm - 0.5 * kmPerDegree) < 0.01);
  const before = projectOnRoute(route, -0.1, 0);
  assert.ok(Math.abs(before.offKm - 0.1 * kmPerDegree) < 0.01 && before.alongKm === 0, "before the start: the start");
  const after = projectOnRoute(route, 1.1, 0);
  assert.ok(Math.abs(after.alongKm - kmPerDegree) < 0.01, "past the end: the end");
  const point = routeOf([[5, 5], [5, 5]]);
  assert.equal(point.lengthKm, 0);
  assert.ok(Math.abs(projectOnRoute(point, 5, 6).offKm - kmPerDegree) < 0.01);
  const across = routeOf([[179.9, 0], [-179.9, 0]]);
  assert.ok(Math.abs(across.lengthKm - 0.2 * kmPerDegree) < 0.01, "the shorter way, across the antimeridian");
  assert.ok(projectOnRoute(across, 180, 0).offKm < 1e-6);
});

test("piece boxes hold every point of the corridor, across the antimeridian and near a pole", () => {
  // [route, corridor km, the longitudes and latitudes sampled]
  const cases: [LonLat[], number, [number, number, number, number]][] = [
    [[[179.9, 0], [-179.9, 0]], 5, [-180, -1, 180, 1]],
    [[[0, 89.9], [180, 89.9]], 1, [-180, 89, 180, 90]],
    // Past the pole at 0.5 km: a 20 km piece sweeps nearly 180° of longitude.
    [[[0, 89.5], [179.5, 89.5]], 0.5, [-180, 89.9, 180, 90]],
    [[[170, -89.5], [0, -89.5]], 0.5, [-180, -90, 180, -89.9]],
    [[[-170, 80], [170, 80]], 50, [-180, 78, 180, 82]],
    [[[10, 50], [12, 51]], 0.5, [9.9, 49.9, 12.1, 51.1]],
  ];
  for (const [points, corridorKm, [west, south, east, north]] of cases) {
    const route = routeOf(points);
    const pieces = route.segments.flatMap((_, k) => pieceBoxes(route, k, corridorKm));
    const merged = [...searchBoxes(route, corridorKm)].map((b) => b.box);
    let inside = 0;
    for (let k = 0; k < 40_000; k++) {
      const lon = west + ((east - west) * ((k * 7919) % 36_007)) / 36_007;
      const lat = south + ((north - south) * ((k * 104_729) % 10_007)) / 10_007;
      if (projectOnRoute(route, lon, lat).offKm > corridorKm) continue;
      inside++;
      assert.ok(pieces.some((b) => boxHas(b, lon, lat)), `${lon},${lat} lost for ${JSON.stringify(points)}`);
      assert.ok(merged.some((b) => boxHas(b, lon, lat)), `${lon},${lat} lost by the merged boxes of ${JSON.stringify(points)}`);
    }
    assert.ok(inside > 0, `no sample inside the corridor of ${JSON.stringify(points)}`);
  }
});

// --- the corridor walk against a brute-force scan ---

const lonLat = (lon: number, lat: number) => ({ lon, lat });

/** Sites scattered around `centre` (within `spread` degrees), with a few exact duplicates of the route's points. */
function sitesAround(points: readonly LonLat[], scatter: readonly [number, number][]): Site[] {
  const out: Site[] = scatter.map(([lon, lat], k) => site(`ocm:${k + 1}`, lonLat(lon, lat)));
  points.slice(0, 3).forEach(([lon, lat], k) => out.push(site(`osm:node/${k + 1}`, lonLat(lon, lat))));
  return out;
}

const clampLat = (lat: number) => Math.max(-89.99, Math.min(89.99, lat));
const wrap = (lon: number) => (lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon);

/** A random route near (lon0, lat0): small steps, so it may cross itself, the antimeridian or come near a pole. */
const routeArb = fc
  .record({
    lon0: fc.double({ min: -180, max: 180, noNaN: true }),
    lat0: fc.double({ min: -89, max: 89, noNaN: true }),
    // Steps of a few hundred metres (runs of segments share one box) to 100 km (pieces).
    scale: fc.constantFrom(0.003, 0.03, 0.3, 1),
    steps: fc.array(fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })), {
      minLength: 1,
      maxLength: 40,
    }),
  })
  .map(({ lon0, lat0, scale, steps }) => {
    const points: LonLat[] = [[lon0, lat0]];
    for (const [dx, dy] of steps) {
      const [lon, lat] = points.at(-1) as LonLat;
      points.push([wrap(lon + dx * scale), clampLat(lat + dy * scale)]);
    }
    return { points, spread: Math.max(0.05, scale * 3) };
  });

/** Every site against every segment, with the walk's distance functions and rules. */
async function bruteForce(sites: readonly Site[], points: readonly LonLat[], corridorKm: number) {
  const route = routeOf(points);
  return sites
    .map((s, row) => {
      const p = vecOf(s.lon, s.lat);
      const { segment, key } = nearestOnRoute(route, p);
      return { s, row, key, at: projectionOn(route, segment, p) };
    })
    .filter(({ key }) => key <= keyOfKm(corridorKm))
    .sort((x, y) => x.at.alongKm - y.at.alongKm || x.at.offKm - y.at.offKm || x.row - y.row);
}

test("the corridor walk answers what a brute-force point-to-segment scan of every site answers (fast-check)", async () => {
  let runs = 0;
  let found = 0;
  await fc.assert(
    fc.asyncProperty(
      routeArb,
      fc.array(fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })), { maxLength: 150 }),
      fc.oneof(fc.double({ min: 0.01, max: 2, noNaN: true }), fc.double({ min: 0.01, max: 50, noNaN: true })),
      fc.integer({ min: 0, max: 30 }),
      async ({ points, spread }, offsets, corridorKm, offset) => {
        const [lon0, lat0] = points[0] as LonLat;
        const scatter = offsets.map(([dx, dy]) => [wrap(lon0 + dx * spread), clampLat(lat0 + dy * spread)] as [number, number]);
        // As many again around the route's points, most near the corridor's edge.
        const reach = (corridorKm * 1.3) / 111.195;
        offsets.forEach(([dx, dy], k) => {
          const [lon, lat] = points[k % points.length] as LonLat;
          const widen = 1 / Math.max(0.05, Math.cos((lat * Math.PI) / 180));
          scatter.push([wrap(lon + dx * reach * widen), clampLat(lat + dy * reach)]);
        });
        const sites = sitesAround(points, scatter);
        const store = storeOfSites(sites, undefined, { sliceMs: 0 });
        const ids = [...store.sites()].map((s) => s.id);
        const expected = (await bruteForce([...store.sites()], points, corridorKm)).map((e) => ids[e.row]);
        const page = await store.search({ route: { points, corridorKm }, limit: 20, offset });
        runs++;
        if (expected.length > offset) found++;
        assert.equal(page.total, expected.length);
        assert.deepEqual(page.data.map((s) => s.id), expected.slice(offset, offset + 20));
      },
    ),
    { numRuns: 200, interruptAfterTimeLimit: 20_000 },
  );
  assert.ok(found > runs / 4, `only ${found} of ${runs} runs had sites on their page`);
});

test("the walk yields: with a zero slice it pauses, and still answers the same", async () => {
  const points: LonLat[] = Array.from({ length: 200 }, (_, k) => [10 + k * 0.01, 50 + Math.sin(k / 10) * 0.05]);
  const sites = Array.from({ length: 2000 }, (_, k) => site(`ocm:${k + 1}`, lonLat(10 + (k % 200) * 0.01, 49.95 + Math.floor(k / 200) * 0.01)));
  let pauses = 0;
  const pace = { sliceMs: 0, yieldNow: async () => void pauses++ };
  const paced = await storeOfSites(sites, undefined, pace).search({ route: { points, corridorKm: 2 }, limit: 5, offset: 0 });
  const plain = await storeOfSites(sites).search({ route: { points, corridorKm: 2 }, limit: 5, offset: 0 });
  assert.ok(pauses > 0);
  assert.deepEqual(paced, plain);
});
