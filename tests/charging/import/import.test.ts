import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { gunzipSync } from "node:zlib";
import { LICENCE_ALLOWLIST } from "../../../src/charging/data/licence.ts";
import { data, fullImport, importInMemory } from "../data/helpers.ts";

test("the real files import into 4461 open-licensed sites with a per-file summary", async () => {
  const { run, sites } = await fullImport();
  assert.equal(run.code, 0);
  assert.equal(sites.length, 4461);
  assert.equal(sites.filter((s) => s.source === "ocm").length, 4379);
  assert.equal(sites.filter((s) => s.source === "osm").length, 82);
  const summary = JSON.parse(run.stdout.at(-1) ?? "{}");
  const mongo = summary.sources.find((s: { file: string }) => s.file.startsWith("ocm-poi-mongoexport"));
  assert.deepEqual(mongo, {
    file: "ocm-poi-mongoexport-2020-11-20.jsonl.gz",
    format: "ocm-jsonl",
    read: 3834,
    kept: 3590,
    dropped: { closed: 214, duplicate: 5, unpublished: 25 },
  });
  assert.ok(run.stderr.some((l) => /mongoexport.*read 3834, kept 3590, dropped 244 \(closed 214/.test(l)));
  assert.ok(
    run.stderr.some((l) => /mongoexport-2020-11-20\.jsonl\.gz: 8\.0 MB unpacked, \d+ rows/.test(l)) &&
      run.stderr.some((l) => /austin-us-verbose\.json: 50% of 2\.1 MB, \d+ rows/.test(l)),
    "progress is shown for long files",
  );
});

test("every served row carries an allowlisted licence and a matching source", async () => {
  const { sites } = await fullImport();
  for (const s of sites) {
    assert.ok(LICENCE_ALLOWLIST.includes(s.licence), `${s.id} ${s.licence}`);
    assert.match(s.id, s.source === "ocm" ? /^ocm:\d+$/ : /^osm:(node|way)\/\d+$/);
  }
  const licences = new Set(sites.map((s) => s.licence));
  assert.deepEqual([...licences].sort(), [
    "CC-BY-4.0",
    "CC-BY-SA-4.0",
    "LicenseRef-NREL-AFDC",
    "ODbL-1.0",
    "OGL-UK-2.0",
  ]);
});

test("closed, unpublished and 0,0 rows from the real data are absent", async () => {
  const { byId } = await fullImport();
  assert.equal(byId.get("ocm:2398"), undefined, "Delisted - No Longer Active/Decommissioned");
  assert.equal(byId.get("ocm:5756"), undefined, "Delisted - Superseded by Update");
  assert.equal(byId.get("ocm:5478"), undefined, "Submission Rejected - Incomplete");
  assert.equal(byId.get("ocm:4607"), undefined, "testpoint at 0,0");
  assert.ok(byId.get("ocm:4343"), "a live afdc row is present");
});

/**
 * Rows of data providers without an open licence are not in fixtures/ (their raw README says why),
 * so these two are a real afdc row given those providers' records as OCM's reference data has them.
 */
test("a row whose data provider has no open licence is dropped (CarStations.com, ESB eCars)", async () => {
  const afdc = JSON.parse(
    gunzipSync(readFileSync(data("ocm-poi-mongoexport-2020-11-20.jsonl.gz"))).toString("utf8").split("\n")
      .find((line) => line.includes('"ID":4343,')) ?? "null",
  );
  assert.equal(afdc.DataProviderID, 2);
  const as = (id: number, provider: { ID: number }) => JSON.stringify({ ...afdc, ID: id, DataProviderID: provider.ID, DataProvider: provider });
  const carStations = { ID: 15, Title: "CarStations.com", License: null, IsOpenDataLicensed: null };
  const esb = { ID: 23, Title: "ESB eCars", License: "Not licensed for reuse", IsOpenDataLicensed: false };
  const file = "/closed-providers.jsonl";
  const run = await importInMemory([file, "--out", "c.json"], { [file]: `${as(900001, carStations)}\n${as(900002, esb)}\n${as(900003, afdc.DataProvider)}\n` });
  const [summary] = JSON.parse(run.stdout.at(-1) ?? "{}").sources;
  assert.deepEqual([summary.kept, summary.dropped], [1, { "licence-not-open": 2 }]);
  const ids = (JSON.parse(run.written.get("c.json") ?? "null").sites as { id: string }[]).map((s) => s.id);
  assert.deepEqual(ids, ["ocm:900003"]);
});

test("a removed connection is left out while the rest of the site stays", async () => {
  const { byId } = await fullImport();
  const s = byId.get("ocm:5851");
  assert.ok(s);
  assert.equal(s.connectors.length, 3, "one of four connections is Removed (Decommissioned)");
  assert.equal(s.status, "AVAILABLE", "Partly Operational (Mixed) reads AVAILABLE");
});

test("verbose rows resolve nested objects; licences come from each row's provider", async () => {
  const { byId } = await fullImport();
  const austin = byId.get("ocm:4343");
  assert.ok(austin);
  assert.equal(austin.licence, "LicenseRef-NREL-AFDC");
  assert.equal(austin.attributionKey, "ocm/2/LicenseRef-NREL-AFDC");
  assert.equal(austin.operator, "ChargePoint");
  assert.equal(austin.access, "public");
  assert.deepEqual(austin.address, {
    line1: "900 Barton Springs Rd",
    line2: null,
    town: "Austin",
    region: "TX",
    postcode: "78704",
    countryCode: "US",
  });
  assert.deepEqual(austin.connectors[0], {
    type: "nema",
    label: "NEMA 5-20R",
    powerKw: 1,
    quantity: 3,
    current: "AC",
  });
  assert.equal(austin.maxPowerKw, 3);
  assert.equal(austin.capacity, 6);
  assert.equal(austin.lastUpdated, "2019-12-24T09:08:00.000Z");
  assert.equal(austin.sourceUrl, "https://openchargemap.org/site/poi/details/4343");
  const providerOne2025 = [...byId.values()].find((s) => s.attributionKey === "ocm/1/CC-BY-4.0");
  assert.ok(providerOne2025, "the 2025 Austin export states CC BY 4.0 for OCM contributors");
});

test("compact rows resolve ids through ocm-reference.json (London, OGL rows)", async () => {
  const { byId } = await fullImport();
  const s = byId.get("ocm:157899");
  assert.ok(s);
  assert.equal(s.licence, "CC-BY-SA-4.0", "provider 1 licence as the 2021 reference data states it");
  assert.equal(s.operator, "Chargemaster", "OperatorID 8 resolved through the reference data");
  assert.equal(s.address?.countryCode, "GB");
  assert.deepEqual(
    s.connectors.map((c) => [c.type, c.label, c.powerKw, c.current]),
    [
      ["chademo", "CHAdeMO", 50, "DC"],
      ["ccs2", "CCS (Type 2)", 50, "DC"],
      ["type2", "Type 2 (Tethered Connector)", 43, "AC"],
    ],
  );
  assert.equal(s.access, "membership");
  const ogl = [...byId.values()].filter((x) => x.licence === "OGL-UK-2.0");
  assert.ok(ogl.length >= 33, "the 33 UK NCR London rows are served under OGL v2.0");
});

test("the verbose and compact forms of the same POIs import identically", async () => {
  const verbose = await importInMemory([
    data("ocm-poi-evmap-de-verbose.json"),
    data("ocm-reference.json"),
    "--out",
    "v.json",
  ]);
  const compact = await importInMemory([
    data("ocm-poi-evmap-de-compact.json"),
    data("ocm-reference.json"),
    "--out",
    "c.json",
  ]);
  const rows = (run: typeof verbose) =>
    JSON.parse(run.written.get(run === verbose ? "v.json" : "c.json") ?? "null").sites;
  assert.equal(rows(verbose).length, 4);
  assert.deepEqual(rows(compact), rows(verbose));
  assert.equal(rows(verbose)[0].address.town, "Meldorf", "the leading space of ' Meldorf' is trimmed");
});

test("a POI present in several files is kept once: the newest copy, on a tie the file given first", async () => {
  const { run, byId } = await fullImport();
  const austin = JSON.parse(run.stdout.at(-1) ?? "{}").sources.find((s: { file: string }) =>
    s.file.includes("austin"),
  );
  assert.equal(austin.kept, 684, "Austin is given first and is never older than the 2020 copies");
  assert.equal(byId.get("ocm:4638")?.lastUpdated, "2025-11-11T12:38:00.000Z");

  const reversed = await importInMemory([
    data("ocm-poi-mongoexport-2020-11-20.jsonl.gz"),
    data("ocm-poi-austin-us-verbose.json"),
    "--out",
    "r.json",
  ]);
  const [mongo, later] = JSON.parse(reversed.stdout.at(-1) ?? "{}").sources;
  assert.equal(mongo.dropped.duplicate, 1, "only 4638 is replaced by its newer Austin copy");
  assert.equal(later.dropped.duplicate, 4, "ties keep the mongoexport copy given first");
  const rows = JSON.parse(reversed.written.get("r.json") ?? "null").sites as { id: string; lastUpdated: string }[];
  assert.equal(rows.find((r) => r.id === "ocm:4638")?.lastUpdated, "2025-11-11T12:38:00.000Z");
  assert.equal(new Set(rows.map((r) => r.id)).size, rows.length);
});

test("DC-only plugs stay DC when an OCM row states AC for them (ocm:2728 CHAdeMO 40 kW)", async () => {
  const { byId, sites } = await fullImport();
  const chademo = byId.get("ocm:2728")?.connectors.find((c) => c.type === "chademo");
  assert.deepEqual(chademo && [chademo.label, chademo.powerKw, chademo.current], ["CHAdeMO", 40, "DC"]);
  const dcOnly = new Set(["ccs1", "ccs2", "chademo", "gbt_dc"]);
  const slips = sites.flatMap((s) => s.connectors.filter((c) => dcOnly.has(c.type) && c.current !== "DC"));
  assert.deepEqual(slips, []);
});
