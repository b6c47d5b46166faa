import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  compactSite,
  parseDataset,
  parseDatasetFile,
  serializeDataset,
} from "../../../src/charging/data/dataset.ts";
import { attributionForKey, LICENCE_ALLOWLIST, openLicence } from "../../../src/charging/data/licence.ts";
import { fullImport, headerFor, site } from "./helpers.ts";

const shipped = JSON.parse(
  readFileSync(new URL("../../../fixtures/charging/sites.json", import.meta.url), "utf8"),
);

test("the shipped dataset parses, its header counts match, and it equals a fresh import", async () => {
  const { header, sites } = parseDatasetFile(shipped);
  assert.equal(header.format, "charging-sites/1");
  assert.equal(header.counts.sites, sites.length);
  assert.equal(header.counts.ocm, sites.filter((s) => s.source === "ocm").length);
  assert.equal(header.counts.osm, 82);
  assert.equal(
    header.partitions.reduce((n, p) => n + p.count, 0),
    sites.length,
  );
  const osm = header.partitions.find((p) => p.key === "osm");
  assert.deepEqual(osm?.attribution, {
    text: "© OpenStreetMap contributors, ODbL 1.0",
    url: "https://www.openstreetmap.org/copyright",
  });
  assert.ok(!sites.some((s) => s.id === "ocm:2398"), "a decommissioned site is not shipped");
  const fresh = await fullImport();
  assert.deepEqual(
    sites,
    fresh.sites,
    "fixtures/charging/sites.json is up to date (node scripts/import-charging.ts)",
  );
});

test("serialize then parse gives the same sites back; nulls and derived fields are not stored", () => {
  const sites = [
    site("ocm:5", {
      name: "A",
      connectors: [{ type: "ccs2", label: "CCS (Type 2)", powerKw: 50, quantity: null, current: "DC" }],
      maxPowerKw: 50,
      sourceUrl: "https://openchargemap.org/site/poi/details/5",
      address: {
        line1: "Street 1",
        line2: null,
        town: null,
        region: null,
        postcode: "123",
        countryCode: "DE",
      },
    }),
    site("osm:relation/9", {
      sourceUrl: "https://www.openstreetmap.org/relation/9",
      lastUpdated: null,
      fee: false,
    }),
  ];
  const header = headerFor(sites);
  const text = serializeDataset(header, sites);
  assert.deepEqual(parseDataset(JSON.parse(text)), sites);
  const stored = compactSite(sites[0] as (typeof sites)[number]);
  assert.deepEqual(Object.keys(stored).sort(), [
    "address",
    "attributionKey",
    "connectors",
    "id",
    "lastUpdated",
    "lat",
    "lon",
    "name",
    "status",
  ]);
  assert.deepEqual(stored.address, { line1: "Street 1", postcode: "123", countryCode: "DE" });
});

type Row = Record<string, unknown>;
type Doc = { sites: Row[]; partitions: Row[] } & Row;

const valid = (): Doc =>
  JSON.parse(
    serializeDataset(headerFor([site("ocm:5")]), [site("ocm:5")]),
  );

test("malformed dataset files are refused with a message naming the problem", () => {
  const cases: [string, (d: Doc) => void, RegExp][] = [
    ["not an object", (d) => Object.assign(d, { format: "other" }), /format/],
    ["a bad id", (d) => ((d.sites[0] as Row).id = "ocm:abc"), /sites\.0\.id: id must be ocm:<n>/],
    ["a latitude out of range", (d) => ((d.sites[0] as Row).lat = 95), /sites\.0\.lat/],
    ["an unknown status", (d) => ((d.sites[0] as Row).status = "REMOVED"), /sites\.0\.status/],
    ["an unknown field", (d) => ((d.sites[0] as Row).secret = 1), /sites\.0/],
    [
      "a non-open licence",
      (d) => ((d.partitions[0] as Row).licence = "CC-BY-NC-SA-3.0"),
      /open-licence allowlist/,
    ],
    [
      "a row without a partition",
      (d) => ((d.sites[0] as Row).attributionKey = "ocm/15/x"),
      /has no partition/,
    ],
    ["a row from the wrong source", (d) => ((d.sites[0] as Row).id = "osm:node/5"), /is not from ocm/],
    ["a repeated id", (d) => d.sites.push({ ...d.sites[0] }), /repeats/],
    ["a bad date", (d) => ((d.sites[0] as Row).lastUpdated = "yesterday"), /lastUpdated must be ISO 8601/],
  ];
  for (const [name, mutate, message] of cases) {
    const doc = valid();
    mutate(doc);
    assert.throws(() => parseDataset(doc), message, name);
  }
  assert.throws(() => parseDataset(null), /charging dataset is malformed/);
  assert.throws(() => parseDataset([]), /charging dataset is malformed/);
});

test("licence allowlist: open licences pass, NC / agreement / vague / missing are refused", () => {
  assert.equal(
    openLicence(
      "Licensed under Creative Commons Attribution-ShareAlike 4.0 International (CC BY-SA 4.0)",
      true,
    ),
    "CC-BY-SA-4.0",
  );
  assert.equal(
    openLicence(
      "NOBIL by Enova is licensed under a Creative Commons Attribution 4.0 International (CC BY 4.0) License.",
      true,
    ),
    "CC-BY-4.0",
  );
  assert.equal(
    openLicence("Provided by Bundesnetzagentur.de under the CC-BY 4.0 license", true),
    "CC-BY-4.0",
  );
  assert.equal(
    openLicence("Contains public sector information licensed under the Open Government Licence v2.0.", true),
    "OGL-UK-2.0",
  );
  assert.equal(openLicence("http://creativecommons.org/licenses/by/3.0", true), "CC-BY-3.0");
  assert.equal(
    openLicence(
      "Open License: https://www.etalab.gouv.fr/wp-content/uploads/2014/05/Licence_Ouverte.pdf",
      true,
    ),
    "LicenseRef-etalab-1.0",
  );
  assert.equal(
    openLicence(
      "Licensed under Attribution-NonCommercial-ShareAlike 3.0 : http://creativecommons.org/licenses/by-nc-sa/3.0/",
      true,
    ),
    null,
  );
  assert.equal(openLicence("Public Data redistributed by agreement", true), null);
  assert.equal(openLicence("General public data", true), null);
  assert.equal(openLicence(null, null), null);
  assert.equal(openLicence("CC BY 4.0", false), null, "IsOpenDataLicensed false wins over the text");
  assert.ok(LICENCE_ALLOWLIST.includes("ODbL-1.0"));
  assert.ok(!LICENCE_ALLOWLIST.includes(""));
});

test("credit lines per partition", () => {
  assert.match(attributionForKey("ocm/2/LicenseRef-NREL-AFDC").text, /Alternative Fuels Data Center/);
  assert.match(attributionForKey("ocm/18/OGL-UK-2.0").text, /Open Government Licence v2\.0/);
  assert.equal(
    attributionForKey("ocm/1/CC-BY-SA-4.0").text,
    "Data © Open Charge Map contributors, CC BY-SA 4.0",
  );
  assert.equal(
    attributionForKey("ocm/29/CC-BY-4.0").text,
    "Data © Open Charge Map data provider 29, CC BY 4.0",
  );
});
