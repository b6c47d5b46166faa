/**
 * Continental-scale benchmark of the charging API. Generates a deterministic data set of
 * charging sites spread over Europe (clustered around 300 towns, the rest rural; seeded, so
 * every run has the same sites) as a snapshot, then:
 *
 * 1. starts the built `dist/charging.js` on it and prints the time from spawn to the first
 *    answered `/healthz`, and its resident memory (after start and after the HTTP queries);
 * 2. answers each query kind in-process with the store the server uses, and with a linear
 *    scan (every row tested, hits sorted, page sliced) in the same process, printing p50/p99
 *    of both, the longest event-loop delay seen (perf_hooks.monitorEventLoopDelay) while the
 *    store answered, and the longest stretch of CPU time a search ran between two pauses
 *    (which other processes on the machine cannot inflate);
 * 3. times the 500 km radius query through the server's socket;
 * 4. answers the exact filters of issue 22 (connectorType, current, country, operator, access,
 *    status, and a sync paged by updatedSince + cursor) through the server's socket, once it
 *    has prepared its data set (one untimed query of every kind first), p50/p99
 *    per page and the server's mean CPU per query (from /proc, which other processes cannot
 *    inflate as they do the wall clock), each total checked against the store's and against
 *    an independent linear scan over the decoded sites (`--filter-queries` per kind); the
 *    store's rows add the CPU p99 per query (process.cpuUsage, GC threads included);
 * 5. searches along routes (scripts/bench-charging-route.ts): 1,000 km of 500 (and 10,000)
 *    points over the data set, in the store, totals checked against a brute-force scan
 *    (`--route-queries` per row; `--route-only` prints only these, reusing the data set when
 *    it exists);
 * 6. with `--import-mb N`, writes an OCM export of about N MB (streamed to disk) and times
 *    `dist/charging-cli.js import` on it, with the importer's peak resident memory: files
 *    larger than V8's longest string (512 MB) import because nothing reads them whole.
 *
 * Progress on stderr, the table on stdout. Not part of `npm test`.
 *
 * Usage: node scripts/bench-charging-scale.ts [--sites 1000000] [--queries 200] [--baseline 20] [--filter-queries 100] [--import-mb 0]
 *        [--filters-only] (only step 4, on the snapshot of an earlier run when it is there) [--route-queries 100] [--route-only]
 *        [--entry dist/charging.js] (the server steps 1 and 4 start: another build's copy, to compare builds)
 * @module
 */
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { crc32 } from "node:zlib";
import { ocmAttributionKey, OSM_ATTRIBUTION_KEY } from "../src/charging/data/licence.ts";
import type { Connector, Site, StatusValue } from "../src/charging/data/model.ts";
import { connectorKind } from "../src/charging/data/connectors.ts";
import { createFilters } from "../src/charging/search/filter.ts";
import { operatorId } from "../src/charging/search/reference.ts";
import { siteAt } from "../src/charging/snapshot/sites.ts";
import { boxCentre, haverDist, haverOfKm } from "../src/charging/search/geo.ts";
import { openSnapshot, type Snapshot } from "../src/charging/snapshot/read.ts";
import { SnapshotBuilder } from "../src/charging/snapshot/write.ts";
import { createStore, type SiteQuery } from "../src/charging/search/store.ts";
import { routeFigures } from "./bench-charging-route.ts";
import { startBuilt, stop } from "./smoke.ts";

const { values } = parseArgs({
  options: {
    sites: { type: "string", default: "1000000" },
    queries: { type: "string", default: "200" },
    baseline: { type: "string", default: "20" },
    "generate-only": { type: "boolean", default: false },
    "import-mb": { type: "string", default: "0" },
    "route-queries": { type: "string", default: "100" },
    "route-only": { type: "boolean", default: false },
    "filter-queries": { type: "string", default: "100" },
    "filters-only": { type: "boolean", default: false },
    entry: { type: "string", default: "dist/charging.js" },
  },
});
/** The server to time (`--entry`): a copy of an older build's dist/ compares builds on one data set. */
const ENTRY = values.entry;
const SITES = Number(values.sites);
const QUERIES = Number(values.queries);
const BASELINE = Number(values.baseline);
const say = (line: string) => process.stderr.write(`bench: ${line}\n`);

/** mulberry32: a small seeded generator, so the data set and the queries are the same every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COUNTRIES = ["DE", "FR", "GB", "IT", "ES", "NL", "BE", "PL", "SE", "NO", "AT", "CH", "DK", "CZ", "PT"];
const OPERATORS = Array.from({ length: 60 }, (_, i) => `Operator ${i + 1}`);
const PLUGS: Omit<Connector, "quantity" | "powerKw">[] = [
  { type: "type2", label: "Type 2 (Socket Only)", current: "AC" },
  { type: "ccs2", label: "CCS (Type 2)", current: "DC" },
  { type: "chademo", label: "CHAdeMO", current: "DC" },
  { type: "schuko", label: "CEE 7/4 - Schuko - Type F", current: "AC" },
  { type: "type2", label: "socket:type2", current: "AC" },
  { type: "ccs2", label: "socket:type2_combo", current: "DC" },
  { type: "tesla", label: "Tesla Supercharger", current: "DC" },
  { type: "type1", label: "Type 1 (J1772)", current: "AC" },
];
const POWERS = [3.7, 7.4, 11, 22, 50, 150, 300];
const ACCESS_MIX = ["public", "public", "public", "public", "customers", "private", "membership", null];
const STATUSES: StatusValue[] = ["AVAILABLE", "AVAILABLE", "AVAILABLE", "AVAILABLE", "UNKNOWN", "OUTOFORDER"];

interface Town {
  name: string;
  lat: number;
  lon: number;
  country: string;
}

function towns(rand: () => number): Town[] {
  return Array.from({ length: 300 }, (_, i) => ({
    name: `Town ${i + 1}`,
    lat: 37 + rand() * 32,
    lon: -9 + rand() * 38,
    country: COUNTRIES[i % COUNTRIES.length] as string,
  }));
}

/** A normal deviate (Box-Muller). */
const gauss = (rand: () => number) => Math.sqrt(-2 * Math.log(rand() || 1e-12)) * Math.cos(2 * Math.PI * rand());

function connectorsOf(rand: () => number): Connector[] {
  return Array.from({ length: 1 + Math.floor(rand() * 3) }, () => {
    const plug = PLUGS[Math.floor(rand() * PLUGS.length)] as (typeof PLUGS)[number];
    return { ...plug, powerKw: rand() < 0.1 ? null : (POWERS[Math.floor(rand() * POWERS.length)] as number), quantity: 1 + Math.floor(rand() * 4) };
  });
}

function siteOf(i: number, rand: () => number, places: Town[]): Site {
  const town = places[Math.floor(rand() * places.length)] as Town;
  const rural = rand() < 0.3;
  const lat = rural ? 36 + rand() * 34 : town.lat + gauss(rand) * 0.15;
  const lon = rural ? -10 + rand() * 40 : town.lon + gauss(rand) * 0.2;
  const osm = i % 5 === 0;
  const connectors = connectorsOf(rand);
  const powers = connectors.map((c) => c.powerKw).filter((p): p is number => p !== null);
  const licence = osm ? "ODbL-1.0" : "CC-BY-4.0";
  return {
    id: osm ? `osm:node/${1_000_000 + i}` : `ocm:${i + 1}`,
    source: osm ? "osm" : "ocm",
    licence,
    attributionKey: osm ? OSM_ATTRIBUTION_KEY : ocmAttributionKey(1, licence),
    name: `Charging ${i + 1}`,
    lat: Math.round(Math.max(-90, Math.min(90, lat)) * 1e7) / 1e7,
    lon: Math.round(Math.max(-180, Math.min(180, lon)) * 1e7) / 1e7,
    address: { line1: `${1 + (i % 200)} Main Street`, line2: null, town: town.name, region: null, postcode: String(10000 + (i % 90000)), countryCode: town.country },
    operator: OPERATORS[i % OPERATORS.length] as string,
    network: null,
    connectors,
    maxPowerKw: powers.length > 0 ? Math.max(...powers) : null,
    capacity: connectors.reduce((n, c) => n + (c.quantity ?? 0), 0),
    access: ACCESS_MIX[i % ACCESS_MIX.length] as Site["access"],
    fee: rand() < 0.8,
    usageCost: null,
    openingHours: rand() < 0.4 ? "24/7" : null,
    status: STATUSES[Math.floor(rand() * STATUSES.length)] as StatusValue,
    statusKind: "registry",
    // Spread over five years without a draw from `rand`, so the other fields stay as before.
    lastUpdated: new Date(Date.UTC(2020, 0, 1) + ((i * 7919) % 1826) * 86_400_000 + (i % 86_400) * 1000).toISOString(),
    sourceUrl: "",
  };
}

function generate(path: string): Town[] {
  const rand = random(20_260_101);
  const places = towns(rand);
  const started = performance.now();
  const builder = new SnapshotBuilder();
  for (let i = 0; i < SITES; i++) {
    builder.add(siteOf(i, rand, places));
    if (i > 0 && i % 200_000 === 0) say(`generated ${i} sites`);
  }
  const bytes = builder.finish("2025-06-01T00:00:00.000Z", [{ file: "bench-charging-scale (generated)" }], { crc32: (b) => crc32(b) });
  writeFileSync(path, bytes);
  say(`wrote ${path}: ${SITES} sites, ${(bytes.byteLength / 1048576).toFixed(0)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return places;
}

// --- query kinds ---

type Kind = { name: string; query: (rand: () => number, place: Town) => SiteQuery };
const box = (t: Town, half: number): [number, number, number, number] => [t.lon - half, t.lat - half, t.lon + half, t.lat + half];

const KINDS: Kind[] = [
  { name: "city box (0.2°)", query: (_r, t) => ({ bbox: box(t, 0.1), limit: 20, offset: 0 }) },
  { name: "country box (8°)", query: (_r, t) => ({ bbox: box(t, 4), limit: 20, offset: 0 }) },
  { name: "continent box", query: (r) => ({ bbox: [-10 + r(), 35 + r(), 30 - r(), 70 - r()], limit: 20, offset: 0 }) },
  { name: "radius 10 km", query: (_r, t) => ({ near: { lat: t.lat, lon: t.lon, radiusKm: 10 }, limit: 20, offset: 0 }) },
  { name: "radius 500 km", query: (_r, t) => ({ near: { lat: t.lat, lon: t.lon, radiusKm: 500 }, limit: 20, offset: 0 }) },
  {
    name: "500 km + ccs, ≥150 kW, open",
    query: (_r, t) => ({ near: { lat: t.lat, lon: t.lon, radiusKm: 500 }, connector: "ccs", minPower: 150, openOnly: true, limit: 20, offset: 0 }),
  },
  { name: "filters only (chademo ≥50 kW)", query: (r) => ({ connector: "chademo", minPower: 50 + Math.floor(r() * 3) * 50, limit: 20, offset: 0 }) },
  { name: "deep offset (country box, 100000)", query: (_r, t) => ({ bbox: box(t, 4), limit: 20, offset: 100_000 }) },
];

// --- issue 22's exact filters, through HTTP ---

const FILTER_QUERIES = Number(values["filter-queries"]);
const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
const around = (t: Town, radiusKm: number) => ({ lat: round4(t.lat), lon: round4(t.lon), radiusKm });
const roundBox = (b: [number, number, number, number]) => b.map(round4) as [number, number, number, number];
const operatorOf = (r: () => number) => OPERATORS[Math.floor(r() * OPERATORS.length)] as string;

const FILTER_KINDS: Kind[] = [
  { name: "connectorType=ccs2,chademo & current=DC, country box", query: (_r, t) => ({ bbox: roundBox(box(t, 4)), connectorTypes: ["ccs2", "chademo"], current: "DC", limit: 20, offset: 0 }) },
  { name: "connectorType=tesla, whole set (id order)", query: (r) => ({ connectorTypes: ["tesla"], limit: 20, offset: Math.floor(r() * 5) * 20 }) },
  { name: "current=AC, radius 500 km", query: (_r, t) => ({ near: around(t, 500), current: "AC", limit: 20, offset: 0 }) },
  { name: "country=<town's>,FR, whole set", query: (_r, t) => ({ countries: [t.country, "FR"], limit: 20, offset: 0 }) },
  { name: "operator & access=public, radius 100 km", query: (r, t) => ({ near: around(t, 100), operators: [operatorOf(r)], access: ["public"], limit: 20, offset: 0 }) },
  { name: "status=OUTOFORDER,UNKNOWN & access=private,customers,unknown, continent box", query: (r) => ({ bbox: roundBox([-10 + r(), 35 + r(), 30 - r(), 70 - r()]), statuses: ["OUTOFORDER", "UNKNOWN"], access: ["private", "customers", "unknown"], limit: 20, offset: 0 }) },
  { name: "all six, radius 200 km", query: (r, t) => ({ near: around(t, 200), connectorTypes: ["ccs2"], current: "DC", countries: [t.country], operators: [operatorOf(r), operatorOf(r)], access: ["public", "unknown"], statuses: ["AVAILABLE"], limit: 20, offset: 0 }) },
  { name: "updatedSince & country=<town's>, first sync page", query: (r, t) => ({ countries: [t.country], updatedSince: `202${Math.floor(r() * 5)}-06-01T00:00:00Z`, limit: 100, offset: 0 }) },
];

/** The URL of a store query. */
function pathOf(q: SiteQuery): string {
  const p = new URLSearchParams();
  if (q.bbox) p.set("bbox", q.bbox.join(","));
  if (q.near) {
    p.set("near", `${q.near.lat},${q.near.lon}`);
    p.set("radiusKm", String(q.near.radiusKm));
  }
  const lists: [string, readonly string[] | undefined][] = [
    ["connectorType", q.connectorTypes],
    ["country", q.countries],
    ["operator", q.operators],
    ["access", q.access],
    ["status", q.statuses],
  ];
  for (const [name, list] of lists) if (list) p.set(name, list.join(","));
  if (q.current) p.set("current", q.current);
  if (q.updatedSince) p.set("updatedSince", q.updatedSince);
  if (q.cursor) p.set("cursor", q.cursor);
  p.set("limit", String(q.limit));
  if (q.offset > 0) p.set("offset", String(q.offset));
  return `/api/v1/sites?${p}`;
}

/** Every site's filtered fields, decoded once from the snapshot: the independent linear scan reads these. */
function decodedSites(s: Snapshot) {
  const rows = [];
  for (let row = 0; row < s.size; row++) {
    const site = siteAt(s, row);
    rows.push({
      lat: site.lat,
      lon: site.lon,
      country: site.address?.countryCode ?? null,
      operator: site.operator === null ? null : operatorId(site.operator),
      access: site.access ?? "unknown",
      status: site.status,
      plugs: site.connectors.map((c) => ({ type: connectorKind(c.type).type, current: c.current })),
      updated: Date.parse(site.lastUpdated ?? s.header.importedAt),
    });
  }
  return rows;
}
type Decoded = ReturnType<typeof decodedSites>[number];

/** The total of `q` by testing every decoded site against the rules as API.md states them. */
function scanTotal(sites: readonly Decoded[], q: SiteQuery): number {
  const cos = q.near ? Math.cos((q.near.lat * Math.PI) / 180) : 0;
  const max = q.near ? haverOfKm(q.near.radiusKm) : 0;
  const operators = q.operators?.map(operatorId);
  const since = q.updatedSince ? Date.parse(q.updatedSince) : undefined;
  let total = 0;
  for (const d of sites) {
    if (q.bbox && !(d.lat >= q.bbox[1] && d.lat <= q.bbox[3] && d.lon >= q.bbox[0] && d.lon <= q.bbox[2])) continue;
    if (q.near && haverDist(q.near.lon, q.near.lat, cos, d.lon, d.lat) > max) continue;
    if ((q.connectorTypes || q.current) && !d.plugs.some((c) => (!q.connectorTypes || q.connectorTypes.includes(c.type)) && (!q.current || c.current === q.current))) continue;
    if (q.countries && !q.countries.includes(d.country ?? "")) continue;
    if (operators && !(d.operator !== null && operators.includes(d.operator))) continue;
    if (q.access && !(q.access as readonly string[]).includes(d.access)) continue;
    if (q.statuses && !q.statuses.includes(d.status)) continue;
    if (since !== undefined && d.updated < since) continue;
    total++;
  }
  return total;
}

type Answer = { page: { total: number; nextCursor?: string } };

async function timedGet(url: string): Promise<{ ms: number; body: Answer }> {
  const began = performance.now();
  const r = await fetch(url);
  const body = (await r.json()) as Answer;
  if (!r.ok) throw new Error(`${url}: ${r.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - began, body };
}

/** The filter rows: HTTP p50/p99 per page, store p50/p99, totals checked against the store and the scan. */
async function filterFigures(path: string, places: Town[], store: ReturnType<typeof createStore>, snapshot: Snapshot): Promise<string[]> {
  say("decoding every site for the independent linear scan");
  const decoded = decodedSites(snapshot);
  const server = await startBuilt({ CHARGING_DATA: path, CHARGING_RATE_LIMIT: "1000000000" }, ENTRY);
  const out = [
    `Exact filters through ${ENTRY} (${FILTER_QUERIES} queries per row after one untimed, one at a time; each HTTP total equal to the store's, the first ${BASELINE} also to an independent linear scan):`,
    "",
    "| query | HTTP p50 ms | HTTP p99 ms | server CPU ms/query | store p50 ms | store p99 ms | store CPU p99 ms | totals checked |",
    "|---|---|---|---|---|---|---|---|",
  ];
  try {
    // The server prepares its data set (filter index, reference counts, sync order) beside its
    // first requests, and a query needing a part waits for it: one untimed query of every kind
    // first, so no row is timed while the rest is still being built.
    for (const kind of FILTER_KINDS) await timedGet(server.url + pathOf(kind.query(random(1), places[0] as Town)));
    for (const kind of FILTER_KINDS) {
      const rand = random(kind.name.length * 104_729);
      const queries = Array.from({ length: FILTER_QUERIES }, () => kind.query(rand, places[Math.floor(rand() * places.length)] as Town));
      say(`${kind.name}: ${FILTER_QUERIES} HTTP queries`);
      // One untimed query of the row's own: the server's first request of a kind compiles its code paths.
      await timedGet(server.url + pathOf(kind.query(random(1), places[0] as Town)));
      const http: number[] = [];
      let checked = 0;
      let serverCpu = 0;
      for (const [i, q] of queries.entries()) {
        const before = serverCpuMs(server.child.pid);
        const { ms: took, body } = await timedGet(server.url + pathOf(q));
        serverCpu += serverCpuMs(server.child.pid) - before;
        http.push(took);
        const { total } = await store.search(q);
        if (body.page.total !== total) throw new Error(`${kind.name}: HTTP total ${body.page.total}, store ${total} for ${pathOf(q)}`);
        if (i < BASELINE) {
          const scanned = scanTotal(decoded, q);
          if (scanned !== total) throw new Error(`${kind.name}: store total ${total}, linear scan ${scanned} for ${pathOf(q)}`);
          checked++;
        }
      }
      const local = await timeStore(store, queries);
      http.sort((a, b) => a - b);
      const cpuPerQuery = serverCpu / FILTER_QUERIES;
      out.push(
        `| ${kind.name} | ${ms(percentile(http, 0.5))} | ${ms(percentile(http, 0.99))} | ${ms(cpuPerQuery)} | ${ms(percentile(local.times, 0.5))} | ${ms(percentile(local.times, 0.99))} | ${ms(percentile(local.cpu, 0.99))} | ${FILTER_QUERIES} store, ${checked} scan |`,
      );
    }
    out.push(await syncFigures(server.url, places, decoded));
  } finally {
    await stop(server.child);
  }
  return out;
}

/** A whole sync of one country paged by cursor: p50/p99 per page, each site once, the count equal to the scan's. */
async function syncFigures(base: string, places: Town[], decoded: readonly Decoded[]): Promise<string> {
  const country = (places[0] as Town).country;
  const first: SiteQuery = { countries: [country], updatedSince: "2020-01-01T00:00:00Z", limit: 100, offset: 0 };
  say(`sync of country=${country} by cursor, 100 per page`);
  const times: number[] = [];
  let seen = 0;
  let cursor: string | undefined;
  let total: number;
  do {
    const { ms: took, body } = await timedGet(base + pathOf(cursor ? { ...first, cursor } : first));
    times.push(took);
    total = body.page.total;
    seen += (body as unknown as { data: unknown[] }).data.length;
    cursor = body.page.nextCursor;
  } while (cursor && times.length < 100_000);
  const scanned = scanTotal(decoded, first);
  if (seen !== total || total !== scanned) throw new Error(`sync: ${seen} sites seen, total ${total}, linear scan ${scanned}`);
  times.sort((a, b) => a - b);
  return `| sync by cursor (country=${country}, ${times.length} pages of 100, ${seen} sites each once) | ${ms(percentile(times, 0.5))} | ${ms(percentile(times, 0.99))} | - | - | - | - | count = scan |`;
}

/** The old way: test every row, sort the hits, slice the page. */
function linearScan(s: Snapshot, filters: ReturnType<typeof createFilters>, q: SiteQuery): { rows: number[]; total: number } {
  const filter = filters(q);
  const origin = q.near ? { lng: q.near.lon, lat: q.near.lat } : q.bbox ? boxCentre(q.bbox) : undefined;
  const cos = origin ? Math.cos((origin.lat * Math.PI) / 180) : 0;
  const max = q.near ? haverOfKm(q.near.radiusKm) : Infinity;
  const hits: { row: number; d: number }[] = [];
  for (let row = 0; row < s.size; row++) {
    const lon = s.lon[row] as number;
    const lat = s.lat[row] as number;
    if (q.bbox) {
      const [w, so, e, n] = q.bbox;
      if (lat < so || lat > n || (w <= e ? lon < w || lon > e : lon < w && lon > e)) continue;
    }
    const d = origin ? haverDist(origin.lng, origin.lat, cos, lon, lat) : 0;
    if (d > max || (filter && !filter(row))) continue;
    hits.push({ row, d });
  }
  if (origin) hits.sort((a, b) => a.d - b.d || a.row - b.row);
  return { rows: hits.slice(q.offset, q.offset + q.limit).map((h) => h.row), total: hits.length };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;
const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0));

/**
 * CPU time of the stretches a search runs without handing the loop back: measured between
 * its pauses with process.cpuUsage, so other processes taking the cores (which stretch
 * wall-clock stalls) do not count, only our own work (garbage collection included).
 */
const slices = {
  mark: 0,
  longest: 0,
  start() {
    this.mark = cpuMs();
  },
  cut() {
    const now = cpuMs();
    this.longest = Math.max(this.longest, now - this.mark);
    this.mark = now;
  },
};

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The pause the store uses: setImmediate, as the Node adapter does, with the slice measured. */
const measuredYield = async () => {
  slices.cut();
  await new Promise((resolve) => setImmediate(resolve));
  slices.start();
};

async function timeStore(store: ReturnType<typeof createStore>, queries: SiteQuery[]) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  slices.longest = 0;
  const times: number[] = [];
  const cpu: number[] = [];
  const tick = () => new Promise((resolve) => setTimeout(resolve, 2));
  for (const q of queries) {
    const t = performance.now();
    const c = cpuMs();
    slices.start();
    await store.search(q);
    slices.cut();
    times.push(performance.now() - t);
    cpu.push(cpuMs() - c);
    // Between queries the loop idles, so the delay monitor samples; a stall inside a query shows as one long delay.
    await tick();
  }
  await tick();
  delay.disable();
  return { times: times.sort((a, b) => a - b), cpu: cpu.sort((a, b) => a - b), stallMs: delay.max / 1e6, sliceCpuMs: slices.longest };
}

function timeLinear(s: Snapshot, filters: ReturnType<typeof createFilters>, queries: SiteQuery[]): number[] {
  const times: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    linearScan(s, filters, q);
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b);
}

/** CPU time (user + system, ms) the server process has used, from /proc (10 ms ticks: meaningful summed over a row). */
function serverCpuMs(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function serverFigures(path: string, places: Town[]) {
  const started = performance.now();
  const server = await startBuilt({ CHARGING_DATA: path, CHARGING_RATE_LIMIT: "1000000000" }, ENTRY);
  for (;;) {
    const ok = await fetch(`${server.url}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
  }
  const startMs = performance.now() - started;
  const rssStart = rssMb(server.child.pid);
  const rand = random(7);
  const times: number[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const t = places[Math.floor(rand() * places.length)] as Town;
    const began = performance.now();
    const r = await fetch(`${server.url}/api/v1/sites?near=${t.lat.toFixed(4)},${t.lon.toFixed(4)}&radiusKm=500&offset=${i % 5}`);
    await r.arrayBuffer();
    times.push(performance.now() - began);
  }
  const rssAfter = rssMb(server.child.pid);
  await stop(server.child);
  return { startMs, rssStart, rssAfter, http: times.sort((a, b) => a - b) };
}

/**
 * The data set is generated in a child process: generating leaves hundreds of MB of garbage,
 * whose collection would otherwise land in the timed queries as event-loop stalls.
 */
function generateApart(): Town[] {
  const child = spawnSync(process.execPath, [import.meta.filename, "--generate-only", "--sites", String(SITES)], { stdio: ["ignore", "inherit", "inherit"] });
  if (child.status !== 0) throw new Error("generating the data set failed");
  return towns(random(20_260_101));
}

/** One OCM /v3/poi row (verbose, as the API and its exports write it). */
function ocmRow(i: number, rand: () => number, places: Town[]): string {
  const town = places[Math.floor(rand() * places.length)] as Town;
  return JSON.stringify({
    ID: i + 1,
    UUID: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    DataProviderID: 1,
    DataProvider: { ID: 1, Title: "Open Charge Map Contributors", License: "Licensed under Creative Commons Attribution 4.0 International (CC BY 4.0)", IsOpenDataLicensed: true },
    OperatorInfo: { ID: 3, Title: OPERATORS[i % OPERATORS.length] },
    UsageTypeID: 1,
    StatusTypeID: 50,
    SubmissionStatusTypeID: 200,
    AddressInfo: { Title: `Charging ${i + 1}`, AddressLine1: `${1 + (i % 200)} Main Street`, Town: town.name, Postcode: String(10000 + (i % 90000)), Country: { ISOCode: town.country }, Latitude: town.lat + gauss(rand) * 0.15, Longitude: town.lon + gauss(rand) * 0.2 },
    Connections: connectorsOf(rand).map((c) => ({ ConnectionTypeID: c.type === "ccs2" ? 33 : c.type === "chademo" ? 2 : 25, ConnectionType: { Title: c.label }, PowerKW: c.powerKw, CurrentTypeID: c.current === "DC" ? 30 : 20, Quantity: c.quantity })),
    NumberOfPoints: 2,
    GeneralComments: "Generated for scripts/bench-charging-scale.ts; ".repeat(2),
    DateLastStatusUpdate: "2025-06-01T00:00:00Z",
    DateCreated: "2020-01-01T00:00:00Z",
  });
}

async function writeExport(path: string, megabytes: number, places: Town[]): Promise<number> {
  const out = createWriteStream(path);
  const rand = random(99);
  let bytes = 0;
  let rows = 0;
  out.write("[");
  while (bytes < megabytes * 1048576) {
    const text = `${rows > 0 ? "," : ""}${ocmRow(rows, rand, places)}`;
    bytes += Buffer.byteLength(text);
    rows++;
    if (!out.write(text)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve) => out.end("]", () => resolve()));
  return rows;
}

async function importFigures(megabytes: number, places: Town[]): Promise<string> {
  const file = `.bench/ocm-export-${megabytes}mb.json`;
  say(`writing a ${megabytes} MB OCM export to ${file}`);
  const rows = await writeExport(file, megabytes, places);
  const size = statSync(file).size;
  say(`importing ${file} (${rows} rows) with dist/charging-cli.js`);
  const started = performance.now();
  const child = spawn(process.execPath, ["dist/charging-cli.js", "import", file, "--out", `${file}.snapshot`], { stdio: ["ignore", "ignore", "pipe"] });
  let peak = 0;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(child.pid));
    } catch {
      // the process has just ended
    }
  }, 50);
  let log = "";
  child.stderr?.on("data", (chunk) => (log += chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  rmSync(file, { force: true });
  rmSync(`${file}.snapshot`, { force: true });
  if (code !== 0) throw new Error(`the import failed (${code}): ${log.slice(-500)}`);
  return `import: ${(size / 1048576).toFixed(0)} MB OCM export, ${rows} POIs, in ${seconds.toFixed(1)} s (${(size / 1048576 / seconds).toFixed(1)} MB/s), importer peak RSS ${peak.toFixed(0)} MB`;
}

/** Only the exact filters' rows (`--filters-only`). */
async function filtersMain(path: string, places: Town[]): Promise<void> {
  const snapshot = openSnapshot(readFileSync(path), { crc32: (b) => crc32(b) });
  const store = createStore(snapshot, { yieldNow: measuredYield });
  const head = `charging scale bench, exact filters: ${SITES} sites (${(statSync(path).size / 1048576).toFixed(0)} MB snapshot), Node ${process.versions.node}`;
  process.stdout.write(`${[head, "", ...(await filterFigures(path, places, store, snapshot))].join("\n")}\n`);
}

async function main(): Promise<void> {
  if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing; run npm run build first`);
  mkdirSync(".bench", { recursive: true });
  const path = `.bench/charging-${SITES}.snapshot`;
  const routeOnly = values["route-only"];
  const filtersOnly = values["filters-only"];
  const places = (routeOnly || filtersOnly) && existsSync(path) ? towns(random(20_260_101)) : generateApart();
  if (routeOnly) return routeMain(path, places);
  if (filtersOnly) return filtersMain(path, places);
  say("starting dist/charging.js on it");
  const server = await serverFigures(path, places);
  const bytes = readFileSync(path);
  const snapshot = openSnapshot(bytes, { crc32: (b) => crc32(b) });
  const store = createStore(snapshot, { yieldNow: measuredYield });
  const filters = createFilters(snapshot);
  const out: string[] = [];
  out.push(`charging scale bench: ${SITES} sites (${(statSync(path).size / 1048576).toFixed(0)} MB snapshot), Node ${process.versions.node}`);
  out.push(`server: start to first /healthz ${server.startMs.toFixed(0)} ms; RSS ${server.rssStart.toFixed(0)} MB after start, ${server.rssAfter.toFixed(0)} MB after ${QUERIES} HTTP queries`);
  out.push(`HTTP 500 km radius through dist/charging.js: p50 ${ms(percentile(server.http, 0.5))} ms, p99 ${ms(percentile(server.http, 0.99))} ms`);
  out.push("");
  out.push("| query | store p50 ms | store p99 ms | longest event-loop delay ms | longest slice CPU ms | linear scan p50 ms | linear p99 ms | p50 ratio |");
  out.push("|---|---|---|---|---|---|---|---|");
  for (const kind of KINDS) {
    const rand = random(kind.name.length * 7919);
    const queries = Array.from({ length: QUERIES }, () => kind.query(rand, places[Math.floor(rand() * places.length)] as Town));
    say(`${kind.name}: ${QUERIES} store queries, ${BASELINE} linear scans`);
    const fast = await timeStore(store, queries);
    const slow = timeLinear(snapshot, filters, queries.slice(0, BASELINE));
    const ratio = percentile(slow, 0.5) / percentile(fast.times, 0.5);
    out.push(
      `| ${kind.name} | ${ms(percentile(fast.times, 0.5))} | ${ms(percentile(fast.times, 0.99))} | ${ms(fast.stallMs)} | ${ms(fast.sliceCpuMs)} | ${ms(percentile(slow, 0.5))} | ${ms(percentile(slow, 0.99))} | ${ratio.toFixed(0)}× |`,
    );
  }
  const routeQueries = Number(values["route-queries"]);
  if (routeQueries > 0) out.push("", ...(await routeFigures({ snapshot, store, places, random, timeStore, queries: routeQueries, checked: 5, say })));
  if (FILTER_QUERIES > 0) out.push("", ...(await filterFigures(path, places, store, snapshot)));
  const importMb = Number(values["import-mb"]);
  if (importMb > 0) out.push("", await importFigures(importMb, places));
  process.stdout.write(`${out.join("\n")}\n`);
}

/** `--route-only`: the route rows alone. */
async function routeMain(path: string, places: Town[]): Promise<void> {
  const snapshot = openSnapshot(readFileSync(path), { crc32: (b) => crc32(b) });
  const store = createStore(snapshot, { yieldNow: measuredYield });
  const rows = await routeFigures({ snapshot, store, places, random, timeStore, queries: Number(values["route-queries"]), checked: 5, say });
  process.stdout.write(`charging route bench: ${SITES} sites, Node ${process.versions.node}\n\n${rows.join("\n")}\n`);
}

if (values["generate-only"]) generate(`.bench/charging-${SITES}.snapshot`);
else await main();
