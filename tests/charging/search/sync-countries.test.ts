/**
 * A sync naming countries reads its countries' runs (sync-countries.ts): the runs hold every
 * KD position once, under its country, in sync order; and syncs over one or several countries
 * (with and without other filters, offsets and a region), paged by cursor across the runs'
 * boundaries and across many sites of one instant, give every matching site exactly once, in
 * (updatedAt, id) order, with the total of a linear scan on every page (fast-check); a query
 * of the whole set naming only countries counts their runs, with a scan's total and page.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { STATUS_VALUES, type Site } from "../../../src/charging/data/model.ts";
import { createFilterIndex } from "../../../src/charging/search/filter-index.ts";
import { boxHas } from "../../../src/charging/search/geo.ts";
import { createPacer } from "../../../src/charging/search/pacer.ts";
import { createStore, type SiteQuery } from "../../../src/charging/search/store.ts";
import { createCountryRuns } from "../../../src/charging/search/sync-countries.ts";
import { createSyncSearch } from "../../../src/charging/search/sync-search.ts";
import { openSnapshot } from "../../../src/charging/snapshot/read.ts";
import { createSiteReader, stringAt } from "../../../src/charging/snapshot/sites.ts";
import { snapshotOf } from "../../../src/charging/snapshot/write.ts";
import { site } from "../data/helpers.ts";
import { seeded, STAMPS, syncedIds } from "./helpers.ts";

const IMPORTED_AT = "2026-01-01T00:00:00.000Z";
const COUNTRIES = ["DE", "FR", "GB", "NL"];

function sitesOf(seed: number, count: number): Site[] {
  const { rand, pick } = seeded(seed);
  return Array.from({ length: count }, (_, i) => {
    const country = rand() < 0.1 ? null : pick(COUNTRIES);
    return site(rand() < 0.3 ? `osm:node/${i + 1}` : `ocm:${i + 1}`, {
      lat: 40 + rand() * 2,
      lon: rand() * 3,
      address: country ? { line1: null, line2: null, town: null, region: null, postcode: null, countryCode: country } : null,
      status: pick(STATUS_VALUES),
      lastUpdated: pick(STAMPS),
    });
  });
}

const snapshotFor = (sites: readonly Site[]) => openSnapshot(snapshotOf(sites, { importedAt: IMPORTED_AT, sources: [] }, { nodeSize: 4 }));

test("the runs hold every KD position once, under its country code, in sync order", async () => {
  const snapshot = snapshotFor(sitesOf(5, 700));
  const index = await createFilterIndex(snapshot, createPacer());
  const sync = createSyncSearch({ snapshot, countries: async () => index.country, siteAt: createSiteReader(snapshot), attributionOf: () => [], text: (id) => stringAt(snapshot, id), pace: {} });
  const order = await sync.order();
  const placeOfRow = new Map([...order.order].map((row, place) => [row, place]));
  const { ids } = snapshot.index as unknown as { ids: ArrayLike<number> };
  const places = Uint32Array.from({ length: snapshot.size }, (_, k) => placeOfRow.get(ids[k] as number) as number);
  const runs = await createCountryRuns(index.country.codes, places, index.country.code.size, createPacer());
  assert.deepEqual([...runs.positions].sort((x, y) => x - y), Array.from({ length: snapshot.size }, (_, k) => k));
  for (let c = 0; c < index.country.code.size; c++) {
    const run = [...runs.positions.subarray(runs.starts[c], runs.starts[c + 1])];
    assert.ok(run.every((k) => index.country.codes[k] === c));
    assert.ok(run.every((k, i) => i === 0 || (places[k] as number) > (places[run[i - 1] as number] as number)));
  }
});

const updatedKey = (s: Site) => Date.parse(s.lastUpdated ?? IMPORTED_AT);
const idKey = (s: Site) => [s.id.startsWith("ocm:") ? 0 : 1, Number(s.id.replace(/\D/g, ""))] as const;
const bySync = (a: Site, b: Site) => updatedKey(a) - updatedKey(b) || idKey(a)[0] - idKey(b)[0] || idKey(a)[1] - idKey(b)[1];

const queryArb = fc.record(
  {
    countries: fc.array(fc.constantFrom(...COUNTRIES, "JP"), { minLength: 1, maxLength: 4 }),
    updatedSince: fc.constantFrom("2020-01-01T00:00:00Z", "2024-01-01T00:00:00Z", "2025-06-01T12:00:00.001Z"),
    statuses: fc.subarray([...STATUS_VALUES], { minLength: 1 }),
    bbox: fc.constantFrom<[number, number, number, number]>([0, 40, 1.5, 41], [1, 40.5, 3, 42]),
  },
  { requiredKeys: ["countries", "updatedSince"] },
);

test("a sync of countries paged by cursor gives every matching site once, in order, with a scan's total on every page (fast-check)", async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer(), fc.integer({ min: 0, max: 400 }), queryArb, fc.integer({ min: 1, max: 40 }), fc.nat({ max: 3 }), async (seed, count, filters, limit, offset) => {
      const sites = sitesOf(seed, count);
      const store = createStore(snapshotFor(sites));
      const q: SiteQuery = { ...filters, limit, offset: 0 };
      const expected = sites
        .filter((s) => filters.countries.includes(s.address?.countryCode ?? ""))
        .filter((s) => updatedKey(s) >= Date.parse(filters.updatedSince))
        .filter((s) => !filters.statuses || filters.statuses.includes(s.status))
        .filter((s) => !filters.bbox || boxHas(filters.bbox, s.lon, s.lat))
        .sort(bySync)
        .map((s) => s.id);
      const first = await store.search({ ...q, offset });
      assert.deepEqual(first.data.map((s) => s.id), expected.slice(offset, offset + limit));
      assert.deepEqual(await syncedIds(store, q, expected), expected);
    }),
    { numRuns: 150, interruptAfterTimeLimit: 15_000 },
  );
});

test("a query naming only countries, without a region, counts their runs: totals and pages equal a scan", async () => {
  const sites = sitesOf(11, 500);
  const store = createStore(snapshotFor(sites));
  for (const countries of [["DE"], ["FR", "GB"], ["NL", "NL"], ["JP"], ["DE", "JP", "FR", "GB", "NL"]]) {
    const expected = sites.filter((s) => countries.includes(s.address?.countryCode ?? ""));
    const page = await store.search({ countries, limit: 7, offset: 2 });
    assert.equal(page.total, expected.length, countries.join());
    const byId = (a: Site, b: Site) => idKey(a)[0] - idKey(b)[0] || idKey(a)[1] - idKey(b)[1];
    assert.deepEqual(page.data.map((s) => s.id), expected.sort(byId).slice(2, 9).map((s) => s.id));
  }
});
