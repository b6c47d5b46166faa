/**
 * The exact filters (connectorType, current, country, operator, access, status) and the sync
 * (updatedSince, cursor) against a linear scan over the sites: random data sets and random
 * combinations with bbox and near+radius, totals and pages compared (fast-check, bounded in
 * time); and paging a sync by cursor gives each matching site exactly once, in order.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { CONNECTOR_TYPES, connectorTypesOf } from "../../../src/charging/data/connector-types.ts";
import { searchTerms } from "../../../src/charging/data/connectors.ts";
import { connectorKind } from "../../../src/charging/data/connectors.ts";
import { ACCESS_VALUES, type Connector, type Site, STATUS_VALUES } from "../../../src/charging/data/model.ts";
import { boxHas, haverDist, haverOfKm } from "../../../src/charging/search/geo.ts";
import { ACCESS_FILTER_VALUES, operatorId } from "../../../src/charging/search/reference.ts";
import { type SiteQuery, storeOfSites } from "../../../src/charging/search/store.ts";
import { site } from "../data/helpers.ts";
import { syncedIds } from "./helpers.ts";

const IMPORTED_AT = "2026-01-01T00:00:00.000Z";
const PLUGS: Pick<Connector, "type" | "label" | "current">[] = [
  { type: "type1", label: "Type 1 (J1772)", current: "AC" },
  { type: "ccs1", label: "CCS (Type 1)", current: "DC" },
  { type: "type2", label: "Type 2 (Socket Only)", current: "AC" },
  { type: "ccs2", label: "CCS (Type 2)", current: "DC" },
  { type: "tesla", label: "Tesla Supercharger", current: "DC" },
  { type: "tesla", label: "Tesla (Model S/X)", current: "AC" },
  { type: "nacs", label: "NACS / SAE J3400", current: null },
  { type: "chademo", label: "CHAdeMO", current: "DC" },
  { type: "other", label: "Unknown", current: null },
];
const OPERATORS = ["Ionity", "IONITY", "ChargePoint", "Tesla (Tesla-only charging)", "Zero Carbon World"];
const COUNTRIES = ["DE", "FR", "US", "GB"];
const STAMPS = ["2024-01-01T00:00:00.000Z", "2025-06-01T12:00:00.000Z", "2025-06-01T12:00:00.000Z", "2026-02-03T04:05:06.789Z"];

const siteArb = (n: number) =>
  fc.record({
    lat: fc.double({ min: 40, max: 42, noNaN: true }),
    lon: fc.double({ min: 0, max: 3, noNaN: true }),
    plugs: fc.array(fc.record({ plug: fc.constantFrom(...PLUGS), power: fc.option(fc.constantFrom(3.7, 22, 50, 150)) }), { maxLength: 3 }),
    country: fc.option(fc.constantFrom(...COUNTRIES)),
    operator: fc.option(fc.constantFrom(...OPERATORS)),
    access: fc.option(fc.constantFrom(...ACCESS_VALUES)),
    status: fc.constantFrom(...STATUS_VALUES),
    lastUpdated: fc.option(fc.constantFrom(...STAMPS)),
  }).map((r) => {
    const connectors: Connector[] = r.plugs.map(({ plug, power }) => ({ ...plug, powerKw: power as number | null, quantity: 1 }));
    const powers = connectors.flatMap((c) => (c.powerKw === null ? [] : [c.powerKw]));
    return site(`ocm:${n}`, {
      lat: r.lat,
      lon: r.lon,
      connectors,
      maxPowerKw: powers.length > 0 ? Math.max(...powers) : null,
      address: r.country ? { line1: null, line2: null, town: null, region: null, postcode: null, countryCode: r.country } : null,
      operator: r.operator,
      access: r.access,
      status: r.status,
      lastUpdated: r.lastUpdated,
    });
  });

const sitesArb = fc.integer({ min: 0, max: 60 }).chain((count) =>
  fc.tuple(...Array.from({ length: count }, (_, i) => siteArb(i + 1))),
);


const queryArb = fc.record(
  {
    connector: fc.constantFrom("ccs", "type 1", "tesla", "ac", "j1772"),
    connectorTypes: fc.subarray([...CONNECTOR_TYPES.slice(0, 8), "other"], { minLength: 1 }),
    current: fc.constantFrom("AC" as const, "DC" as const),
    minPower: fc.constantFrom(0, 22, 50),
    openOnly: fc.boolean(),
    statuses: fc.subarray([...STATUS_VALUES], { minLength: 1 }),
    access: fc.subarray([...ACCESS_FILTER_VALUES], { minLength: 1 }),
    countries: fc.subarray([...COUNTRIES, "JP"], { minLength: 1 }),
    operators: fc.subarray(["ionity", "ChargePoint", "tesla-tesla-only-charging", "Zero Carbon World"], { minLength: 1 }),
    bbox: fc.constantFrom<[number, number, number, number]>([0, 40, 1.5, 41], [1, 40.5, 3, 42], [-10, 30, 10, 50]),
    near: fc.record({ lat: fc.double({ min: 40, max: 42, noNaN: true }), lon: fc.double({ min: 0, max: 3, noNaN: true }), radiusKm: fc.constantFrom(20, 80, 400) }),
    updatedSince: fc.constantFrom(...STAMPS, "2025-01-01T00:00:00.000Z"),
  },
  { requiredKeys: [] },
);

/** The linear scan: every site tested by the rules as API.md states them. */
function matches(s: Site, q: Omit<SiteQuery, "limit" | "offset">): boolean {
  const connectorOk = (c: Connector) =>
    (!q.connector || searchTerms(c.type, c.label).some((t) => t.includes((q.connector as string).toLowerCase()))) &&
    (!q.connectorTypes || q.connectorTypes.includes(connectorKind(c.type).type)) &&
    (!q.current || c.current === q.current);
  if ((q.connector || q.connectorTypes || q.current) && !s.connectors.some(connectorOk)) return false;
  if (q.openOnly && s.status !== "AVAILABLE") return false;
  if (q.minPower !== undefined && !(s.maxPowerKw !== null && s.maxPowerKw >= q.minPower)) return false;
  if (q.statuses && !q.statuses.includes(s.status)) return false;
  if (q.access && !q.access.includes(s.access ?? "unknown")) return false;
  if (q.countries && !q.countries.includes(s.address?.countryCode ?? "")) return false;
  if (q.operators && !(s.operator !== null && q.operators.map(operatorId).includes(operatorId(s.operator)))) return false;
  if (q.bbox && !boxHas(q.bbox, s.lon, s.lat)) return false;
  if (q.near) {
    const { lat, lon, radiusKm } = q.near;
    if (haverDist(lon, lat, Math.cos((lat * Math.PI) / 180), s.lon, s.lat) > haverOfKm(radiusKm)) return false;
  }
  if (q.updatedSince && Date.parse(s.lastUpdated ?? IMPORTED_AT) < Date.parse(q.updatedSince)) return false;
  return true;
}

const knowsOperators = (sites: readonly Site[], operators: readonly string[] | undefined) => {
  const held = new Set(sites.flatMap((s) => (s.operator ? [operatorId(s.operator)] : [])));
  return !operators || operators.every((o) => held.has(operatorId(o)));
};

const updatedKey = (s: Site) => Date.parse(s.lastUpdated ?? IMPORTED_AT);
const byUpdate = (a: Site, b: Site) => updatedKey(a) - updatedKey(b) || Number(a.id.slice(4)) - Number(b.id.slice(4));

test("every exact filter, alone and combined with bbox, near and each other, matches a linear scan (fast-check)", async () => {
  await fc.assert(
    fc.asyncProperty(sitesArb, queryArb, async (sites, filters) => {
      const store = storeOfSites(sites, { importedAt: IMPORTED_AT, sources: [] }, undefined, { nodeSize: 4 });
      const q: SiteQuery = { ...filters, limit: 100, offset: 0 };
      if (!knowsOperators(sites, q.operators)) {
        await assert.rejects(store.search(q), /INVALID_ARGUMENTS|no operator of this data set/);
        return;
      }
      const expected = sites.filter((s) => matches(s, q));
      const result = await store.search(q);
      assert.equal(result.total, expected.length);
      assert.deepEqual(result.data.map((s) => s.id).sort(), expected.map((s) => s.id).sort());
      if (q.updatedSince) assert.deepEqual(result.data.map((s) => s.id), expected.sort(byUpdate).map((s) => s.id));
    }),
    { numRuns: 300, interruptAfterTimeLimit: 20_000 },
  );
});

test("a sync paged by cursor gives every matching site exactly once, in (updatedAt, id) order (fast-check)", async () => {
  await fc.assert(
    fc.asyncProperty(sitesArb, queryArb, fc.integer({ min: 1, max: 7 }), async (sites, filters, limit) => {
      const { operators: _skip, ...rest } = filters;
      const store = storeOfSites(sites, { importedAt: IMPORTED_AT, sources: [] }, undefined, { nodeSize: 4 });
      const q: SiteQuery = { ...rest, updatedSince: rest.updatedSince ?? "1970-01-01T00:00:00Z", limit, offset: 0 };
      const expected = sites.filter((s) => matches(s, q)).sort(byUpdate).map((s) => s.id);
      const seen = await syncedIds(store, q, expected, (page) => assert.equal(page.data.length, limit));
      assert.deepEqual(seen, expected);
    }),
    { numRuns: 200, interruptAfterTimeLimit: 20_000 },
  );
});

test("a cursor stays valid on a new data cut: the next page starts after the site it names", async () => {
  const a = site("ocm:1", { lastUpdated: "2025-01-01T00:00:00.000Z" });
  const b = site("ocm:2", { lastUpdated: "2025-02-01T00:00:00.000Z" });
  const c = site("ocm:3", { lastUpdated: "2025-03-01T00:00:00.000Z" });
  const first = await storeOfSites([a, b, c]).search({ updatedSince: "2025-01-01", limit: 1, offset: 0 });
  assert.deepEqual(first.data.map((s) => s.id), ["ocm:1"]);
  assert.ok(first.nextCursor);
  // ocm:1 is gone and ocm:4 arrived (changed after the cursor) in the new cut.
  const d = site("ocm:4", { lastUpdated: "2025-04-01T00:00:00.000Z" });
  const next = await storeOfSites([b, c, d]).search({ cursor: first.nextCursor, limit: 10, offset: 0 });
  assert.deepEqual(next.data.map((s) => s.id), ["ocm:2", "ocm:3", "ocm:4"]);
  assert.equal(next.nextCursor, undefined);
  await assert.rejects(storeOfSites([a]).search({ cursor: "bm90LWEtY3Vyc29y", limit: 1, offset: 0 }), /cursor is not one this API gave/);
  await assert.rejects(storeOfSites([a]).search({ cursor: "!!", limit: 1, offset: 0 }), /cursor is not one this API gave/);
});

test("a sync orders every timestamp shape the data set allows, to the millisecond", async () => {
  const store = storeOfSites([
    site("ocm:1", { lastUpdated: "2025-06-01T12:00:00.5Z" }),
    site("ocm:2", { lastUpdated: "2025-06-01T12:00:00.400Z" }),
    site("ocm:3", { lastUpdated: "2025-06-01T12:00:00Z" }),
    site("ocm:4", { lastUpdated: "2025-06-01T12:00:00.45Z" }),
  ]);
  const page = await store.search({ updatedSince: "2025-06-01T12:00:00.400Z", limit: 10, offset: 0 });
  assert.deepEqual(page.data.map((s) => s.id), ["ocm:2", "ocm:4", "ocm:1"]);
});

test("a site without lastUpdated syncs at the import time, so it is never missed", async () => {
  const old = site("ocm:1", { lastUpdated: "2020-01-01T00:00:00.000Z" });
  const unknown = site("ocm:2", { lastUpdated: null });
  const store = storeOfSites([old, unknown], { importedAt: "2026-01-01T00:00:00.000Z", sources: [] });
  const since = await store.search({ updatedSince: "2025-12-31T00:00:00Z", limit: 10, offset: 0 });
  assert.deepEqual(since.data.map((s) => s.id), ["ocm:2"]);
});

test("the words users type map onto the connector types; slugs name exactly themselves", () => {
  const cases: [string, string[]][] = [
    ["Type 1", ["type1"]],
    ["J1772", ["type1"]],
    ["SAE J1772", ["type1"]],
    ["type-2", ["type2"]],
    ["Mennekes", ["type2"]],
    ["CCS", ["ccs2", "ccs1"]],
    ["ccs1", ["ccs1"]],
    ["CHAdeMO", ["chademo"]],
    ["Tesla", ["tesla"]],
    ["NACS", ["nacs"]],
    ["Schuko", ["schuko"]],
    ["GB/T", ["gbt_dc", "gbt_ac"]],
  ];
  for (const [word, types] of cases) assert.deepEqual(connectorTypesOf(word)?.sort(), types.sort(), word);
  assert.equal(connectorTypesOf("AC"), undefined);
  assert.equal(connectorTypesOf("flux capacitor"), undefined);
});

test("the reference counts each value once per site, and operators that fold alike are one", async () => {
  const store = storeOfSites([
    site("ocm:1", { operator: "Ionity", access: "public", connectors: [{ type: "ccs2", label: "CCS", powerKw: 350, quantity: 2, current: "DC" }, { type: "ccs2", label: "CCS (Type 2)", powerKw: 50, quantity: 1, current: "DC" }] }),
    site("ocm:2", { operator: "IONITY", address: { line1: null, line2: null, town: null, region: null, postcode: null, countryCode: "DE" } }),
    site("ocm:3", { operator: "IONITY", status: "PLANNED" }),
  ]);
  const ref = await store.reference();
  assert.deepEqual(ref.operators, [{ id: "ionity", name: "IONITY", count: 3 }]);
  assert.deepEqual(ref.countries, [{ code: "DE", count: 1 }]);
  assert.equal(ref.connectorTypes.find((t) => t.type === "ccs2")?.count, 1);
  assert.deepEqual(ref.currentTypes, [{ current: "AC", count: 0 }, { current: "DC", count: 1 }]);
  assert.deepEqual(ref.access.find((a) => a.value === "unknown"), { value: "unknown", count: 2 });
  assert.equal(ref.statuses.find((s) => s.value === "PLANNED")?.count, 1);
  assert.equal(operatorId("Ünïcode  Chargers!"), "unicode-chargers");
  assert.equal(operatorId("***"), "operator");
});
