import assert from "node:assert/strict";
import { test } from "node:test";
import type { Connector } from "../../../src/charging/data/model.ts";
import { distance as geoDistance } from "geokdbush";
import { compareIds, type SiteQuery, storeOfSites } from "../../../src/charging/search/store.ts";
import { fullImport, site } from "../data/helpers.ts";

const plug = (type: string, label: string, powerKw: number | null): Connector => ({
  type,
  label,
  powerKw,
  quantity: 1,
  current: null,
});

const sites = [
  site("ocm:10", { lon: 10, lat: 50, connectors: [plug("ccs2", "CCS (Type 2)", 150)], maxPowerKw: 150 }),
  site("ocm:9", {
    lon: 10.5,
    lat: 50.5,
    connectors: [plug("type2", "Type 2 (Socket Only)", 22)],
    maxPowerKw: 22,
    status: "OUTOFORDER",
  }),
  site("ocm:100", { lon: 11, lat: 51, connectors: [plug("chademo", "CHAdeMO", null)], status: "UNKNOWN" }),
  site("osm:way/5", { lon: 179.9, lat: 0, connectors: [plug("type2", "socket:type2", 11)], maxPowerKw: 11 }),
  site("osm:node/7", { lon: -179.9, lat: 0.1, connectors: [plug("schuko", "socket:schuko", null)] }),
  site("osm:node/6", { lon: 10, lat: 50.2, attributionKey: "osm" }),
];
const store = storeOfSites(sites);
const ids = async (q: SiteQuery) => (await store.search(q)).data.map((s) => s.id);
const page = { limit: 100, offset: 0 };

test("id order: source, then OSM element type, then numeric id", async () => {
  assert.deepEqual((await ids(page)), ["ocm:9", "ocm:10", "ocm:100", "osm:node/6", "osm:node/7", "osm:way/5"]);
  assert.ok(compareIds("osm:node/99", "osm:way/1") < 0);
  assert.ok(compareIds("ocm:2", "ocm:10") < 0);
  assert.equal(compareIds("ocm:1", "ocm:1"), 0);
  assert.equal(store.size, 6);
});

test("bbox edges are inclusive; the order is nearest first from the box centre, ties in id order", async () => {
  // Centre 10.25,50.25: osm:node/6 is 18.7 km away, ocm:9 and ocm:10 about 33 km (ocm:9 nearer: its parallel is shorter).
  assert.deepEqual((await ids({ ...page, bbox: [10, 50, 10.5, 50.5] })), ["osm:node/6", "ocm:9", "ocm:10"]);
  const d = (s: { lon: number; lat: number }) => geoDistance(10.25, 50.25, s.lon, s.lat);
  assert.ok(d(sites[5] as never) < d(sites[1] as never) && d(sites[1] as never) < d(sites[0] as never));
  assert.deepEqual((await ids({ ...page, bbox: [10.0000001, 50, 10.5, 50.5] })), ["ocm:9"]);
  assert.deepEqual((await ids({ ...page, bbox: [0, 0, 1, 1] })), []);
  assert.deepEqual((await ids({ ...page, bbox: [10, 51, 11, 50] })), [], "minLat above maxLat matches nothing");
  assert.equal((await store.search({ ...page, bbox: [-180, -90, 180, 90] })).total, 6, "a box around everything");
});

test("a bbox with minLon > maxLon crosses the antimeridian", async () => {
  // Centre 180,0: osm:way/5 (179.9,0) is 11 km away, osm:node/7 (-179.9,0.1) 16 km.
  assert.deepEqual((await ids({ ...page, bbox: [179, -1, -179, 1] })), ["osm:way/5", "osm:node/7"]);
  assert.deepEqual((await ids({ ...page, bbox: [179.95, -1, -179.95, 1] })), []);
});

test("connector: case-insensitive substring over type, vocabulary name, aliases and label", async () => {
  assert.deepEqual((await ids({ ...page, connector: "CCS" })), ["ocm:10"]);
  assert.deepEqual(
    (await ids({ ...page, connector: "type 2" })),
    ["ocm:9", "ocm:10", "osm:way/5"],
    "CCS (Type 2) label matches too",
  );
  assert.deepEqual((await ids({ ...page, connector: "mennekes" })), ["ocm:9", "osm:way/5"], "alias of type2");
  assert.deepEqual((await ids({ ...page, connector: "socket:schuko" })), ["osm:node/7"], "the OSM key label");
  assert.deepEqual((await ids({ ...page, connector: "Chademo" })), ["ocm:100"]);
  assert.deepEqual((await ids({ ...page, connector: "nacs" })), []);
});

test("minPower is a floor on maxPowerKw; unknown power never matches", async () => {
  assert.deepEqual((await ids({ ...page, minPower: 22 })), ["ocm:9", "ocm:10"]);
  assert.deepEqual((await ids({ ...page, minPower: 150 })), ["ocm:10"]);
  assert.deepEqual((await ids({ ...page, minPower: 150.1 })), []);
  assert.equal((await store.search({ ...page, minPower: 0 })).total, 3, "0 kW still needs a known power");
});

test("openOnly keeps AVAILABLE rows; filters combine", async () => {
  assert.deepEqual((await ids({ ...page, openOnly: true })), ["ocm:10", "osm:node/6", "osm:node/7", "osm:way/5"]);
  assert.deepEqual((await ids({ ...page, openOnly: false })).length, 6);
  assert.deepEqual((await ids({ ...page, openOnly: true, connector: "type2", bbox: [0, -1, 180, 60] })), [
    "osm:way/5",
  ]);
});

test("paging: total counts every match, limit and offset slice, past the end is empty", async () => {
  const r = (await store.search({ limit: 2, offset: 1 }));
  assert.deepEqual(
    r.data.map((s) => s.id),
    ["ocm:10", "ocm:100"],
  );
  assert.equal(r.total, 6);
  const filtered = (await store.search({ limit: 1, offset: 1, openOnly: true }));
  assert.deepEqual([filtered.data.map((s) => s.id), filtered.total], [["osm:node/6"], 4]);
  const past = (await store.search({ limit: 20, offset: 100000 }));
  assert.deepEqual([past.data, past.total], [[], 6]);
  assert.equal((await store.search({ limit: 0, offset: 0 })).data.length, 0);
  const boxed = (await store.search({ limit: 1, offset: 2, bbox: [10, 50, 10.5, 50.5] }));
  assert.deepEqual([boxed.data.map((s) => s.id), boxed.total], [["ocm:10"], 3], "the third nearest to the centre");
});

test("attribution: one per partition in the page, every partition for an empty page", async () => {
  assert.deepEqual((await store.search({ limit: 2, offset: 0 })).attribution, [
    { text: "Data © Open Charge Map contributors, CC BY 4.0", url: "https://openchargemap.org" },
  ]);
  const mixed = (await store.search({ limit: 10, offset: 2 })).attribution.map((a) => a.url);
  assert.deepEqual(mixed, ["https://openchargemap.org", "https://www.openstreetmap.org/copyright"]);
  assert.equal((await store.search({ ...page, connector: "nothing" })).attribution.length, 2);
  assert.deepEqual(
    store.attributions.map((a) => a.url),
    ["https://openchargemap.org", "https://www.openstreetmap.org/copyright"],
  );
  assert.equal(
    store.attributionFor(sites[5] as (typeof sites)[number]).text,
    "© OpenStreetMap contributors, ODbL 1.0",
  );
});

test("near: great-circle radius, sorted by distance, carrying distanceKm, across the antimeridian", async () => {
  const r = (await store.search({ ...page, near: { lat: 50, lon: 10, radiusKm: 60 } }));
  assert.deepEqual(
    r.data.map((s) => [s.id, s.distanceKm]),
    [
      ["ocm:10", 0],
      ["osm:node/6", 22.239],
    ],
  );
  assert.equal(r.total, 2, "ocm:9 is 66 km away, outside the radius");
  const wider = (await store.search({ ...page, near: { lat: 50, lon: 10, radiusKm: 67 } }));
  assert.deepEqual(
    wider.data.map((s) => s.id),
    ["ocm:10", "osm:node/6", "ocm:9"],
  );
  assert.ok(Math.abs((wider.data[2]?.distanceKm ?? 0) - 66.3) < 0.5, "haversine distance (66.3 km)");
  const wrap = (await store.search({ ...page, near: { lat: 0, lon: 180, radiusKm: 30 } }));
  assert.deepEqual(wrap.data.map((s) => s.id).sort(), ["osm:node/7", "osm:way/5"]);
  const filtered = (await store.search({
    limit: 1,
    offset: 1,
    near: { lat: 50, lon: 10, radiusKm: 500 },
    minPower: 1,
  }));
  assert.deepEqual([filtered.data.map((s) => s.id), filtered.total], [["ocm:9"], 2]);
  const boxed = (await store.search({
    ...page,
    near: { lat: 50, lon: 10, radiusKm: 500 },
    bbox: [10.2, 50, 12, 52],
  }));
  assert.deepEqual(
    boxed.data.map((s) => s.id),
    ["ocm:9", "ocm:100"],
  );
  assert.equal(sites[0]?.distanceKm, undefined, "stored rows are not mutated");
});

test("get: known ids only; an empty store answers nothing", async () => {
  assert.equal(store.get("ocm:10")?.maxPowerKw, 150);
  assert.equal(store.get("ocm:11"), undefined);
  const empty = storeOfSites([]);
  assert.equal(empty.size, 0);
  assert.deepEqual((await empty.search({ ...page, bbox: [-1, -1, 1, 1] })).data, []);
  assert.deepEqual((await empty.search({ ...page, near: { lat: 0, lon: 0, radiusKm: 10 } })).total, 0);
  assert.deepEqual(empty.attributions, []);
});

test("on the real dataset: a bbox over Austin, connector and power filters, closed ids absent", async () => {
  const { sites: real } = await fullImport();
  const big = storeOfSites(real);
  const austin = (await big.search({ bbox: [-98, 30, -97.5, 30.6], limit: 100, offset: 0 }));
  assert.ok(austin.total > 600, `${austin.total} Austin sites`);
  assert.ok(austin.data.every((s) => s.lon >= -98 && s.lon <= -97.5 && s.lat >= 30 && s.lat <= 30.6));
  const fast = (await big.search({ connector: "ccs", minPower: 50, limit: 100, offset: 0 }));
  assert.ok(fast.total > 0 && fast.data.every((s) => (s.maxPowerKw ?? 0) >= 50));
  assert.ok(
    fast.data.every((s) =>
      s.connectors.some((c) => c.type.startsWith("ccs") || c.label.toLowerCase().includes("ccs")),
    ),
  );
  const all = (await big.search({ bbox: [-180, -90, 180, 90], limit: 100, offset: 0 }));
  assert.equal(all.total, real.length);
  assert.equal(all.attribution.length, new Set(all.data.map((s) => s.attributionKey)).size);
  assert.equal(big.get("ocm:2398"), undefined, "a decommissioned OCM site answers nothing");
});

test("a site decoded once is handed out as its own object: a near search's distance stays off later answers", async () => {
  const fresh = storeOfSites(sites);
  const near = await fresh.search({ near: { lat: 50, lon: 10, radiusKm: 1 }, limit: 10, offset: 0 });
  assert.equal(near.data[0]?.id, "ocm:10");
  assert.equal(typeof near.data[0]?.distanceKm, "number");
  const boxed = await fresh.search({ bbox: [9.9, 49.9, 10.1, 50.1], limit: 10, offset: 0 });
  assert.equal(boxed.data[0]?.distanceKm, undefined);
  assert.equal(fresh.get("ocm:10")?.distanceKm, undefined);
  assert.notEqual(fresh.get("ocm:10"), fresh.get("ocm:10"));
  assert.deepEqual(fresh.get("ocm:10"), [...fresh.sites()].find((s) => s.id === "ocm:10"));
});
