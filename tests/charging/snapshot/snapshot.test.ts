/**
 * The binary snapshot: the real data set round-trips exactly; randomly corrupted files give
 * INVALID_DATA (never a crash or a wrong answer; the checks one by one are in container.test.ts
 * and content-checks.test.ts); the prebuilt index and the bounded walks answer exactly what a
 * linear scan with a full sort answers (fast-check).
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { crc32 as nativeCrc32 } from "node:zlib";
import fc from "fast-check";
import { parseDatasetFile } from "../../../src/charging/data/dataset.ts";
import type { Site } from "../../../src/charging/data/model.ts";
import { createFilters } from "../../../src/charging/search/filter.ts";
import { boxCentre, cellLowerBound, cellUpperBound, haverDist, haverOfKm } from "../../../src/charging/search/geo.ts";
import { crc32 } from "../../../src/charging/snapshot/crc32.ts";
import { isApiError } from "../../../src/shared/errors.ts";
import { isSnapshot } from "../../../src/charging/snapshot/container.ts";
import { openSnapshot } from "../../../src/charging/snapshot/read.ts";
import { snapshotOf } from "../../../src/charging/snapshot/write.ts";
import { createStore, type SiteQuery, storeOfSites } from "../../../src/charging/search/store.ts";
import { site } from "../data/helpers.ts";

const shipped = parseDatasetFile(
  JSON.parse(readFileSync(new URL("../../../fixtures/charging/sites.json", import.meta.url), "utf8")),
);
const bytes = snapshotOf(shipped.sites, shipped.header);

test("the real data set round-trips through a snapshot: every site, header and attribution", () => {
  assert.ok(isSnapshot(bytes));
  const store = createStore(openSnapshot(bytes, { crc32: nativeCrc32 }));
  assert.equal(store.size, shipped.sites.length);
  assert.deepEqual(store.header, shipped.header);
  assert.deepEqual([...store.sites()], shipped.sites, "id order, every field");
  for (const s of shipped.sites.slice(0, 300)) assert.deepEqual(store.get(s.id), s);
  assert.equal(store.get("ocm:2398"), undefined, "closed");
  assert.equal(store.get("ocm:99999999999999999999"), undefined, "past 2^53");
  assert.equal(store.get("ocm:0123"), undefined, "not an id as stored");
  assert.ok(bytes.byteLength < 2_000_000, `${bytes.byteLength} bytes for ${store.size} sites`);
});

test("the table CRC-32 agrees with zlib's", () => {
  fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (b) => crc32(b) === nativeCrc32(b)));
  assert.equal(crc32(new TextEncoder().encode("123456789")), 0xcbf43926);
});

test("random corruption never crashes: INVALID_DATA or a usable store (fast-check, bounded)", () => {
  const small = snapshotOf(shipped.sites.slice(0, 40), shipped.header);
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(small.length - 1), fc.integer({ min: 1, max: 255 })), { maxLength: 4 }), fc.nat(small.length), (flips, cut) => {
      const copy = small.slice(0, Math.max(cut, small.length - 64));
      for (const [at, mask] of flips) if (at < copy.length) (copy[at] as number) ^= mask;
      try {
        const store = createStore(openSnapshot(copy));
        for (const s of store.sites()) assert.equal(typeof s.id, "string");
      } catch (err) {
        assert.ok(isApiError(err, "INVALID_DATA"), String(err));
      }
    }),
    { numRuns: 300 },
  );
});

// --- the walks against a linear scan with a full sort ---

const CONNECTORS = [
  { type: "ccs2", label: "CCS (Type 2)", current: "DC" as const },
  { type: "type2", label: "Type 2 (Socket Only)", current: "AC" as const },
  { type: "chademo", label: "CHAdeMO", current: "DC" as const },
  { type: "schuko", label: "socket:schuko", current: "AC" as const },
];

const siteArb = fc
  .record({
    n: fc.integer({ min: 1, max: 100_000 }),
    osm: fc.boolean(),
    lat: fc.double({ min: -89, max: 89, noNaN: true }),
    lon: fc.double({ min: -180, max: 180, noNaN: true }),
    plugs: fc.array(fc.tuple(fc.nat(3), fc.option(fc.integer({ min: 3, max: 350 }), { nil: null })), { maxLength: 3 }),
    open: fc.boolean(),
  })
  .map(({ n, osm, lat, lon, plugs, open }): Site => {
    const connectors = plugs.map(([k, powerKw]) => ({ ...(CONNECTORS[k] as (typeof CONNECTORS)[0]), powerKw, quantity: 1 }));
    const powers = connectors.map((c) => c.powerKw).filter((p): p is number => p !== null);
    return site(osm ? `osm:node/${n}` : `ocm:${n}`, {
      lat,
      lon,
      connectors,
      maxPowerKw: powers.length ? Math.max(...powers) : null,
      status: open ? "AVAILABLE" : "OUTOFORDER",
    });
  });

/**
 * Clusters (points near one centre, so KD cells fall fully inside regions) and a coarse grid
 * (many points at the very same place, so distance ties must fall back to id order).
 */
const clusteredArb = fc.tuple(fc.double({ min: -60, max: 60, noNaN: true }), fc.double({ min: -170, max: 170, noNaN: true })).chain(([clat, clon]) =>
  fc.array(
    fc.oneof(
      siteArb,
      siteArb.map((s) => ({ ...s, lat: clat + (s.lat % 1), lon: clon + (s.lon % 1) })),
      siteArb.map((s) => ({ ...s, lat: clat + Math.round(s.lat % 2), lon: clon + Math.round(s.lon % 2) })),
    ),
    { maxLength: 400, size: "max" },
  ),
);

/** Present now and then: most queries carry no filter, so KD cells count without a visit. */
const sometimes = <T>(arb: fc.Arbitrary<T>, weight = 1) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: arb, weight });

const queryArb = fc
  .record({
    bbox: sometimes(
      fc
        .tuple(
          fc.double({ min: -180, max: 180, noNaN: true }),
          fc.double({ min: -90, max: 90, noNaN: true }),
          fc.double({ min: -180, max: 180, noNaN: true }),
          fc.double({ min: -90, max: 90, noNaN: true }),
        )
        .map(([w, a, e, b]) => [w, Math.min(a, b), e, Math.max(a, b)] as [number, number, number, number]),
      3,
    ),
    near: sometimes(
      fc.record({
        lat: fc.double({ min: -90, max: 90, noNaN: true }),
        lon: fc.double({ min: -180, max: 180, noNaN: true }),
        radiusKm: fc.double({ min: 0.001, max: 500, noNaN: true }),
      }),
      3,
    ),
    connector: sometimes(fc.constantFrom("ccs", "type 2", "chademo", "socket", "mennekes")),
    minPower: sometimes(fc.integer({ min: 0, max: 300 })),
    openOnly: sometimes(fc.boolean()),
    limit: fc.integer({ min: 1, max: 100 }),
    offset: fc.integer({ min: 0, max: 120 }),
  })
  .map((q) => Object.fromEntries(Object.entries(q).filter(([, value]) => value !== undefined)) as unknown as SiteQuery);

function linearScan(sites: readonly Site[], q: SiteQuery) {
  const store = storeOfSites(sites);
  const all = [...store.sites()];
  const snapshot = openSnapshot(snapshotOf(sites, { importedAt: "2020-01-01T00:00:00.000Z", sources: [] }));
  const filter = createFilters(snapshot)(q);
  const inBox = (s: Site) => {
    if (!q.bbox) return true;
    const [w, south, e, north] = q.bbox;
    if (s.lat < south || s.lat > north) return false;
    return w <= e ? s.lon >= w && s.lon <= e : s.lon >= w || s.lon <= e;
  };
  const origin = q.near ? { lng: q.near.lon, lat: q.near.lat } : q.bbox ? boxCentre(q.bbox) : undefined;
  const cos = origin ? Math.cos((origin.lat * Math.PI) / 180) : 0;
  const h = (s: Site) => (origin ? haverDist(origin.lng, origin.lat, cos, s.lon, s.lat) : 0);
  const hits = all
    .map((s, row) => ({ s, row, d: h(s) }))
    .filter(({ s, row, d }) => inBox(s) && (!q.near || d <= haverOfKm(q.near.radiusKm)) && (!filter || filter(row)));
  if (origin) hits.sort((a, b) => a.d - b.d || a.row - b.row);
  return { ids: hits.slice(q.offset, q.offset + q.limit).map((x) => x.s.id), total: hits.length };
}

/** Most random queries miss small data sets; half of them are moved onto one of the sites. */
function aroundASite(q: SiteQuery, sites: readonly Site[], pick: number): SiteQuery {
  const at = sites[pick % Math.max(sites.length, 1)];
  if (!at || pick % 2 === 0) return q;
  const moved = { ...q };
  if (q.near) moved.near = { ...q.near, lat: at.lat, lon: at.lon };
  if (q.bbox) {
    const span = (pick % 7) + 0.5;
    moved.bbox = [Math.max(-180, at.lon - span), Math.max(-90, at.lat - span), Math.min(180, at.lon + span), Math.min(90, at.lat + span)];
  }
  return moved;
}

const dedupe = (sites: Site[]) => [...new Map(sites.map((s) => [s.id, s])).values()];

test("bounded walks answer exactly what a linear scan with a full sort answers (fast-check)", async () => {
  await fc.assert(
    fc.asyncProperty(clusteredArb.map(dedupe), queryArb, fc.constantFrom(2, 3, 8, 64), fc.nat(), async (sites, raw, nodeSize, pick) => {
      const q = aroundASite(raw, sites, pick);
      const store = storeOfSites(sites, undefined, { sliceMs: 0 }, { nodeSize });
      const got = await store.search(q);
      const want = linearScan(sites, q);
      assert.deepEqual({ ids: got.data.map((s) => s.id), total: got.total }, want);
    }),
    { numRuns: 300 },
  );
});

test("a pacer with a zero slice yields on long walks and the answer is unchanged", async () => {
  const ccs = { type: "ccs2", label: "CCS (Type 2)", powerKw: 50, quantity: 1, current: "DC" as const };
  const sites = Array.from({ length: 5000 }, (_, i) =>
    site(`ocm:${i + 1}`, { lat: 50 + (i % 70) / 100, lon: 10 + Math.floor(i / 70) / 100, maxPowerKw: i % 3 ? 50 : null, connectors: i % 4 ? [ccs] : [] }),
  );
  let yields = 0;
  const paced = storeOfSites(sites, undefined, { sliceMs: 0, yieldNow: async () => void yields++ });
  const plain = storeOfSites(sites);
  for (const q of [
    { limit: 20, offset: 4000, minPower: 10 },
    { limit: 20, offset: 3000, bbox: [9, 49, 12, 52] as [number, number, number, number] },
    { limit: 5, offset: 0, near: { lat: 50.3, lon: 10.3, radiusKm: 500 }, minPower: 1 },
    // A substring filter has no filter index: cells wholly inside are tested site by site.
    { limit: 20, offset: 100, bbox: [9, 49, 12, 52] as [number, number, number, number], connector: "ccs" },
    { limit: 5, offset: 0, near: { lat: 50.3, lon: 10.3, radiusKm: 500 }, connector: "ccs" },
  ]) {
    yields = 0;
    const got = await paced.search(q);
    assert.ok(yields > 0, `yielded on ${JSON.stringify(q)}`);
    assert.deepEqual(got, await plain.search(q));
  }
});

test("an empty snapshot opens and answers nothing", async () => {
  const empty = createStore(openSnapshot(snapshotOf([], { importedAt: "2020-01-01T00:00:00.000Z", sources: [] })));
  assert.equal(empty.size, 0);
  assert.deepEqual((await empty.search({ limit: 5, offset: 0, near: { lat: 0, lon: 0, radiusKm: 10 } })).total, 0);
  assert.deepEqual((await empty.search({ limit: 5, offset: 0, bbox: [-1, -1, 1, 1] })).data, []);
  assert.equal(empty.get("ocm:1"), undefined);
});

test("a cell with the meridian opposite the origin inside has no corner bound (its farthest point is inside)", () => {
  const cell = { minLng: -175, minLat: -1, maxLng: -165, maxLat: 1 };
  const cos = Math.cos(0);
  assert.equal(cellUpperBound(10, 0, cos, cell), Infinity);
  assert.ok(haverDist(10, 0, cos, -170, 0) > 0.999, "the antipode lies in the cell");
  const east = { minLng: 20, minLat: -1, maxLng: 30, maxLat: 1 };
  for (const [x, y] of [[20, -1], [25, 0], [30, 1], [22, 0.5]] as const)
    assert.ok(haverDist(10, 0, cos, x, y) <= cellUpperBound(10, 0, cos, east));
  assert.ok(cellLowerBound(10, 0, cos, east) <= haverDist(10, 0, cos, 20, 0));
});

test("a snapshot read from disk as a Node Buffer opens, also at an odd byte offset of a larger buffer", () => {
  const dir = mkdtempSync(join(tmpdir(), "snapshot-"));
  try {
    writeFileSync(join(dir, "s.snapshot"), bytes);
    const fromDisk = readFileSync(join(dir, "s.snapshot"));
    assert.equal(createStore(openSnapshot(fromDisk)).get("ocm:2388")?.id, "ocm:2388");
    const odd = Buffer.concat([Buffer.from([1, 2, 3]), fromDisk]).subarray(3);
    assert.equal(odd.byteOffset % 8 !== 0, true);
    assert.equal(createStore(openSnapshot(odd)).size, shipped.sites.length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
