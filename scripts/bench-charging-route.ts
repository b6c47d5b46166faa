/**
 * The route rows of `scripts/bench-charging-scale.ts` (issue 23): searches along a 1,000 km
 * route of 500 points winding from a town like a road, over the generated data set, timed in
 * the store (first page p50/p99, the longest event-loop delay and the longest stretch of CPU
 * between two pauses), each total checked against a brute-force scan: every site in the
 * route's box widened by the corridor tested against every segment with the same distance
 * function (route.ts), for the first few queries of each row.
 * @module
 */
import type { Snapshot } from "../src/charging/snapshot/read.ts";
import type { createStore, SiteQuery } from "../src/charging/search/store.ts";
import { keyOfKm, type LonLat, nearestOnRoute, routeOf, vecOf } from "../src/charging/search/route.ts";

type Store = ReturnType<typeof createStore>;
type Timed = { times: number[]; stallMs: number; sliceCpuMs: number };

export interface RouteBench {
  snapshot: Snapshot;
  store: Store;
  /** Start points (the data set's towns). */
  places: readonly { lat: number; lon: number }[];
  random: (seed: number) => () => number;
  timeStore: (store: Store, queries: SiteQuery[]) => Promise<Timed>;
  queries: number;
  /** Queries per row whose total is checked against the brute-force scan. */
  checked: number;
  say: (line: string) => void;
}

const KM_PER_DEGREE = 111.195;

/** A road-like route: `points` points `stepKm` apart, the heading drifting, kept within the data's Europe. */
function windingRoute(rand: () => number, start: { lat: number; lon: number }, points: number, stepKm: number): LonLat[] {
  const route: LonLat[] = [[start.lon, start.lat]];
  let heading = rand() * 2 * Math.PI;
  for (let k = 1; k < points; k++) {
    const [lon, lat] = route[k - 1] as LonLat;
    heading += (rand() - 0.5) * 0.3;
    let nextLat = lat + (stepKm / KM_PER_DEGREE) * Math.cos(heading);
    let nextLon = lon + (stepKm / (KM_PER_DEGREE * Math.cos((lat * Math.PI) / 180))) * Math.sin(heading);
    // Turn back at the data set's edges (36..70°N, 10°W..30°E) as a road turns at a coast.
    if (nextLat < 36 || nextLat > 70 || nextLon < -10 || nextLon > 30) {
      heading += Math.PI;
      nextLat = lat;
      nextLon = lon;
    }
    route.push([Math.round(nextLon * 1e5) / 1e5, Math.round(nextLat * 1e5) / 1e5]);
  }
  return route;
}

/** The total of a route query by the brute-force scan (a row's filter is not applied: rows checked have none). */
function scanTotal(snapshot: Snapshot, points: readonly LonLat[], corridorKm: number): number {
  const route = routeOf(points);
  const limit = keyOfKm(corridorKm);
  const pad = corridorKm / KM_PER_DEGREE + 0.01;
  const lats = points.map((p) => p[1]);
  const lons = points.map((p) => p[0]);
  const south = Math.min(...lats) - pad;
  const north = Math.max(...lats) + pad;
  const widest = Math.cos((Math.max(Math.abs(south), Math.abs(north)) * Math.PI) / 180);
  const west = Math.min(...lons) - pad / widest;
  const east = Math.max(...lons) + pad / widest;
  let total = 0;
  for (let row = 0; row < snapshot.size; row++) {
    const lon = snapshot.lon[row] as number;
    const lat = snapshot.lat[row] as number;
    if (lat < south || lat > north || lon < west || lon > east) continue;
    if (nearestOnRoute(route, vecOf(lon, lat)).key <= limit) total++;
  }
  return total;
}

const ROWS: { name: string; points: number; corridorKm: number; extra?: Partial<SiteQuery>; check: boolean }[] = [
  { name: "route 1,000 km / 500 points, corridor 5 km", points: 500, corridorKm: 5, check: true },
  { name: "route 1,000 km / 500 points, corridor 50 km", points: 500, corridorKm: 50, check: true },
  { name: "route 1,000 km / 500 points, 5 km + connectorType=ccs2, current=DC", points: 500, corridorKm: 5, extra: { connectorTypes: ["ccs2"], current: "DC" }, check: false },
  { name: "route 1,000 km / 500 points, 5 km, offset 200", points: 500, corridorKm: 5, extra: { offset: 200 }, check: false },
  { name: "route 1,000 km / 10,000 points, corridor 5 km", points: 10_000, corridorKm: 5, check: true },
];

const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;

/** The route rows as a Markdown table. */
export async function routeFigures(bench: RouteBench): Promise<string[]> {
  const { snapshot, store, places, random, queries: count, checked, say } = bench;
  const out = [
    `Search along a route, in the store (${count} routes per row, first page of 20; totals of the first ${checked} checked against a brute-force point-to-segment scan):`,
    "",
    "| query | store p50 ms | store p99 ms | longest event-loop delay ms | longest slice CPU ms | mean total | totals checked |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const row of ROWS) {
    const rand = random(row.name.length * 31_337);
    const routes = Array.from({ length: count }, () =>
      windingRoute(rand, places[Math.floor(rand() * places.length)] as { lat: number; lon: number }, row.points, 1000 / (row.points - 1)),
    );
    const queries: SiteQuery[] = routes.map((points) => ({ route: { points, corridorKm: row.corridorKm }, limit: 20, offset: 0, ...row.extra }));
    say(`${row.name}: ${count} store queries`);
    const timed = await bench.timeStore(store, queries);
    let sum = 0;
    let verified = 0;
    for (const [i, q] of queries.entries()) {
      const { total } = await store.search(q);
      sum += total;
      if (!row.check || i >= checked) continue;
      const scanned = scanTotal(snapshot, routes[i] as LonLat[], row.corridorKm);
      if (scanned !== total) throw new Error(`${row.name}: store total ${total}, brute-force scan ${scanned}`);
      verified++;
    }
    out.push(
      `| ${row.name} | ${ms(percentile(timed.times, 0.5))} | ${ms(percentile(timed.times, 0.99))} | ${ms(timed.stallMs)} | ${ms(timed.sliceCpuMs)} | ${Math.round(sum / count)} | ${row.check ? `${verified} scan` : "-"} |`,
    );
  }
  return out;
}
