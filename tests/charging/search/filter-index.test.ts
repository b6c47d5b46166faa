/**
 * The filter index (bitsets and code columns in KD order): a range counter equals the row
 * filter tested position by position over the same range, for random data, filters and
 * ranges (word edges included); and store totals over boxes and radii that cut the tree
 * into many fully-inside cells equal a linear scan (fast-check, bounded in runs and time).
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { ACCESS_VALUES, type Connector, type Site, STATUS_VALUES } from "../../../src/charging/data/model.ts";
import { createFilters, type FilterQuery, resolveStrings } from "../../../src/charging/search/filter.ts";
import { createFilterIndex } from "../../../src/charging/search/filter-index.ts";
import { counterOf } from "../../../src/charging/search/range-counter.ts";
import { boxHas, haverDist, haverOfKm } from "../../../src/charging/search/geo.ts";
import { createPacer } from "../../../src/charging/search/pacer.ts";
import { ACCESS_FILTER_VALUES, createVocabulary } from "../../../src/charging/search/reference.ts";
import { createStore, type SiteQuery } from "../../../src/charging/search/store.ts";
import { treeOf } from "../../../src/charging/search/walk.ts";
import { openSnapshot } from "../../../src/charging/snapshot/read.ts";
import { stringAt } from "../../../src/charging/snapshot/sites.ts";
import { snapshotOf } from "../../../src/charging/snapshot/write.ts";
import { site } from "../data/helpers.ts";
import { seeded, STAMPS } from "./helpers.ts";

const PLUGS: Pick<Connector, "type" | "label" | "current">[] = [
  { type: "type2", label: "Type 2", current: "AC" },
  { type: "ccs2", label: "CCS (Type 2)", current: "DC" },
  { type: "tesla", label: "Tesla Supercharger", current: "DC" },
  { type: "tesla", label: "Tesla (Model S/X)", current: "AC" },
  { type: "chademo", label: "CHAdeMO", current: null },
  { type: "other", label: "Unknown", current: null },
];
const COUNTRIES = ["DE", "FR", "GB"];
const OPERATORS = ["Ionity", "IONITY", "ChargePoint", "Allego"];
const POWERS = [3.7, 22, 50, 150];
const IMPORTED_AT = "2026-01-01T00:00:00.000Z";

/** Sites from a seed: cheap to generate in the hundreds, so trees have many cells and words. */
function sitesOf(seed: number, count: number): Site[] {
  const { rand, pick } = seeded(seed);
  return Array.from({ length: count }, (_, i) => {
    const connectors: Connector[] = Array.from({ length: Math.floor(rand() * 3) }, () => ({ ...pick(PLUGS), powerKw: rand() < 0.2 ? null : pick(POWERS), quantity: 1 }));
    const powers = connectors.flatMap((c) => (c.powerKw === null ? [] : [c.powerKw]));
    const country = rand() < 0.1 ? null : pick(COUNTRIES);
    return site(`ocm:${i + 1}`, {
      lat: 40 + rand() * 2,
      lon: rand() * 3,
      connectors,
      maxPowerKw: powers.length > 0 ? Math.max(...powers) : null,
      address: country ? { line1: null, line2: null, town: null, region: null, postcode: null, countryCode: country } : null,
      operator: rand() < 0.1 ? null : pick(OPERATORS),
      access: rand() < 0.2 ? null : pick(ACCESS_VALUES),
      status: pick(STATUS_VALUES),
      lastUpdated: pick(STAMPS),
    });
  });
}

const filterArb = fc.record(
  {
    connectorTypes: fc.subarray(["type2", "ccs2", "tesla", "chademo", "other", "nacs"], { minLength: 1 }),
    current: fc.constantFrom("AC" as const, "DC" as const),
    minPower: fc.constantFrom(0, 22, 50, 151),
    openOnly: fc.boolean(),
    statuses: fc.subarray([...STATUS_VALUES], { minLength: 1 }),
    access: fc.subarray([...ACCESS_FILTER_VALUES], { minLength: 1 }),
    countries: fc.subarray([...COUNTRIES, "JP"], { minLength: 1 }),
    operators: fc.subarray(["ionity", "ChargePoint", "Allego"], { minLength: 1 }),
  },
  { requiredKeys: [] },
);

const LIMITS = { numRuns: 60, interruptAfterTimeLimit: 4_000 };

test("a range counter and its words equal the row filter over every position of the range (fast-check)", async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer(), fc.integer({ min: 1, max: 300 }), filterArb, fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 20 }), async (seed, count, q, ranges) => {
      const snapshot = openSnapshot(snapshotOf(sitesOf(seed, count), { importedAt: IMPORTED_AT, sources: [] }, { nodeSize: 4 }));
      const vocabulary = await createVocabulary(snapshot, (id) => stringAt(snapshot, id), createPacer());
      if (q.operators?.some((o) => !vocabulary.operatorStrings(o))) return;
      const filter = createFilters(snapshot, () => vocabulary)(q as FilterQuery);
      const counter = counterOf(await createFilterIndex(snapshot, createPacer()), q as FilterQuery, resolveStrings(vocabulary, q as FilterQuery));
      assert.equal(counter === undefined, filter === undefined);
      if (!counter || !filter) return;
      const { ids } = treeOf(snapshot.index);
      for (const [a, b] of ranges) {
        const [left, right] = [a % count, b % count].sort((x, y) => x - y) as [number, number];
        let expected = 0;
        for (let k = left; k <= right; k++) if (filter(ids[k] as number)) expected++;
        assert.equal(counter(left, right), expected, `[${left}, ${right}]`);
      }
      // A word's bits (all, or some asked for): the filter at each of its positions, none past the last site.
      for (let w = 0; w <= (count - 1) >>> 5; w++) {
        let expected = 0;
        for (let j = 0; j < 32 && (w << 5) + j < count; j++) if (filter(ids[(w << 5) + j] as number)) expected |= 1 << j;
        assert.equal(counter.word(w, -1), expected, `word ${w}`);
        const some = Math.imul(w + seed, 0x9e3779b1);
        assert.equal(counter.word(w, some), expected & some, `word ${w}, bits ${some}`);
      }
    }),
    LIMITS,
  );
});

const regionArb = fc.oneof(
  fc.tuple(fc.double({ min: -0.5, max: 3, noNaN: true }), fc.double({ min: 39.5, max: 42, noNaN: true }), fc.double({ min: 0.1, max: 3, noNaN: true })).map(([w, s, size]) => ({ bbox: [w, s, w + size, s + size * 0.7] as [number, number, number, number] })),
  fc.record({ lat: fc.double({ min: 40, max: 42, noNaN: true }), lon: fc.double({ min: 0, max: 3, noNaN: true }), radiusKm: fc.constantFrom(30, 80, 300) }).map((near) => ({ near })),
  fc.constant({}),
);

const sinceArb = fc.option(fc.constantFrom("2020-01-01T00:00:00Z", "2024-01-01T00:00:00Z", "2025-06-01T12:00:00.001Z", "2025-12-31T00:00:00Z"), { nil: undefined });

test("store totals over boxes, radii, the whole set and syncs under indexed filters equal a linear scan (fast-check)", async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer(), fc.integer({ min: 50, max: 400 }), filterArb, regionArb, sinceArb, async (seed, count, filters, region, since) => {
      const sites = sitesOf(seed, count);
      const store = createStore(openSnapshot(snapshotOf(sites, { importedAt: IMPORTED_AT, sources: [] }, { nodeSize: 4 })));
      const q: SiteQuery = { ...filters, ...region, ...(since ? { updatedSince: since } : {}), limit: 5, offset: 3 };
      const held = new Set(sites.map((s) => s.operator?.toLowerCase()));
      if (q.operators && !q.operators.every((o) => held.has(o.toLowerCase()))) return;
      const expected = sites.filter((s) => inRegion(s, q) && passes(s, q) && (!since || Date.parse(s.lastUpdated ?? IMPORTED_AT) >= Date.parse(since)));
      const result = await store.search(q);
      assert.equal(result.total, expected.length);
      if (!q.bbox && !q.near && !since) assert.deepEqual(result.data.map((s) => s.id), expected.slice(3, 8).map((s) => s.id));
    }),
    LIMITS,
  );
});

function inRegion(s: Site, q: SiteQuery): boolean {
  if (q.bbox && !boxHas(q.bbox, s.lon, s.lat)) return false;
  if (!q.near) return true;
  const { lat, lon, radiusKm } = q.near;
  return haverDist(lon, lat, Math.cos((lat * Math.PI) / 180), s.lon, s.lat) <= haverOfKm(radiusKm);
}

/** The filters as API.md states them (the operators here fold to their lower-case names). */
function passes(s: Site, q: SiteQuery): boolean {
  const plugOk = (c: Connector) => (!q.connectorTypes || q.connectorTypes.includes(c.type)) && (!q.current || c.current === q.current);
  if ((q.connectorTypes || q.current) && !s.connectors.some(plugOk)) return false;
  if (q.openOnly && s.status !== "AVAILABLE") return false;
  if (q.minPower !== undefined && !(s.maxPowerKw !== null && s.maxPowerKw >= q.minPower)) return false;
  if (q.statuses && !q.statuses.includes(s.status)) return false;
  if (q.access && !q.access.includes(s.access ?? "unknown")) return false;
  if (q.countries && !q.countries.includes(s.address?.countryCode ?? "")) return false;
  return !q.operators || (s.operator !== null && q.operators.map((o) => o.toLowerCase()).includes(s.operator.toLowerCase()));
}

test("the index's memory: a bit per site per value held, and 2-byte code columns", async () => {
  const snapshot = openSnapshot(snapshotOf(sitesOf(7, 1000), { importedAt: IMPORTED_AT, sources: [] }));
  const index = await createFilterIndex(snapshot, createPacer());
  const sets = index.status.filter(Boolean).length + index.access.filter(Boolean).length + index.plugs.size;
  assert.equal(index.bytes, sets * 4 * Math.ceil(1000 / 32) + 3 * 2 * 1000);
});

test("a prepared store answers filtered, reference and sync queries from what prepare built", async () => {
  const sites = sitesOf(3, 200);
  const store = createStore(openSnapshot(snapshotOf(sites, { importedAt: IMPORTED_AT, sources: [] }, { nodeSize: 4 })));
  await store.prepare();
  const since = "2024-01-01T00:00:00Z";
  const page = await store.search({ countries: ["DE"], updatedSince: since, bbox: [0, 40, 1.5, 41], limit: 3, offset: 0 });
  const expected = sites.filter((s) => s.address?.countryCode === "DE" && boxHas([0, 40, 1.5, 41], s.lon, s.lat) && Date.parse(s.lastUpdated ?? IMPORTED_AT) >= Date.parse(since));
  assert.equal(page.total, expected.length);
  assert.equal((await store.reference()).countries.find((c) => c.code === "DE")?.count, sites.filter((s) => s.address?.countryCode === "DE").length);
});
