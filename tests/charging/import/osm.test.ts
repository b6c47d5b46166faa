import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { parseCapacity } from "../../../src/charging/import/capacity.ts";
import { type OsmElement, osmSite, parseOutputKw } from "../../../src/charging/import/osm.ts";
import {
  geojsonElement,
  overpassElement,
  overpassTimestamp,
  ringCentroid,
} from "../../../src/charging/import/osm-formats.ts";
import { data, fullImport } from "../data/helpers.ts";

/** A whole document through the per-row readers, as the streaming import feeds them. */
function geojsonElements(doc: { type?: string; timestamp?: string; features: unknown[] }) {
  const elements: OsmElement[] = [];
  let malformed = 0;
  for (const f of doc.features) {
    const e = geojsonElement(f, doc.timestamp ?? null);
    if (e) elements.push(e);
    else malformed++;
  }
  return { elements, malformed };
}

function overpassElements(doc: { osm3s?: unknown; elements: unknown[] }) {
  const elements = doc.elements.map((e) => overpassElement(e, overpassTimestamp(doc.osm3s)));
  return { elements: elements.filter((e): e is OsmElement => e !== undefined), malformed: elements.filter((e) => !e).length };
}

const el = (tags: Record<string, string>, patch: Partial<OsmElement> = {}): OsmElement => ({
  type: "node",
  id: 42,
  lat: 52.1,
  lon: 13.2,
  tags,
  timestamp: "2024-03-01T12:00:00Z",
  ...patch,
});

test("real overpass-turbo GeoJSON: 80 nodes and 2 ways, ways at their polygon centroid", async () => {
  const json = JSON.parse(readFileSync(data("osm-charging-stations-de-2015-overpass-turbo.geojson"), "utf8"));
  const { elements, malformed } = geojsonElements(json);
  assert.equal(malformed, 0);
  assert.equal(elements.filter((e) => e.type === "node").length, 80);
  const way = elements.find((e) => e.id === 311286575);
  assert.equal(way?.type, "way");
  assert.ok(
    way && Math.abs((way.lat as number) - 48.91205) < 1e-4 && Math.abs((way.lon as number) - 11.19622) < 1e-4,
  );
  assert.equal(way?.tags["@id"], undefined, "@-keys are not tags");
  assert.equal(way?.timestamp, "2015-05-03T14:45:02Z", "the export timestamp dates every row");

  const { byId } = await fullImport();
  const site = byId.get("osm:way/311286575");
  assert.equal(site?.operator, "Solarcenter Bauer");
  assert.equal(site?.fee, false);
  assert.equal(site?.licence, "ODbL-1.0");
  assert.equal(site?.sourceUrl, "https://www.openstreetmap.org/way/311286575");
});

test("sockets become connectors with output power; unknown socket keys read as other", () => {
  const result = osmSite(
    el({
      amenity: "charging_station",
      "socket:type2_combo": "2",
      "socket:type2_combo:output": "150 kW",
      "socket:type2": "yes",
      "socket:type2:output": "22 kW;11 kW",
      "socket:chademo": "0",
      "socket:weird_plug": "1",
      "socket:schuko:voltage": "230",
      capacity: "2 x 22 kW",
      access: "customers",
      fee: "yes",
      charge: "0.39 EUR/kWh",
      opening_hours: "24/7",
      network: "Ionity",
      "addr:street": "Hauptstraße",
      "addr:housenumber": "5",
      "addr:city": "Berlin",
      "addr:country": "de",
    }),
  );
  assert.ok("site" in result);
  const s = result.site;
  assert.deepEqual(s.connectors, [
    { type: "ccs2", label: "socket:type2_combo", powerKw: 150, quantity: 2, current: "DC" },
    { type: "type2", label: "socket:type2", powerKw: 22, quantity: null, current: "AC" },
    { type: "other", label: "socket:weird_plug", powerKw: null, quantity: 1, current: null },
  ]);
  assert.equal(s.maxPowerKw, 150);
  assert.equal(s.capacity, 2);
  assert.equal(s.access, "customers");
  assert.equal(s.fee, true);
  assert.equal(s.usageCost, "0.39 EUR/kWh");
  assert.equal(s.openingHours, "24/7");
  assert.equal(s.network, "Ionity");
  assert.deepEqual(s.address, {
    line1: "Hauptstraße 5",
    line2: null,
    town: "Berlin",
    region: null,
    postcode: null,
    countryCode: "DE",
  });
  assert.equal(s.lastUpdated, "2024-03-01T12:00:00.000Z");
  assert.equal(s.status, "AVAILABLE");
});

test("lifecycle prefixes and operational_status: closed dropped, planned and broken kept with their status", () => {
  for (const prefix of ["disused", "abandoned", "removed", "demolished", "was"]) {
    assert.deepEqual(osmSite(el({ [`${prefix}:amenity`]: "charging_station" })), {
      drop: "closed",
      id: "osm:node/42",
    });
  }
  assert.deepEqual(osmSite(el({ amenity: "charging_station", operational_status: "closed" })), {
    drop: "closed",
    id: "osm:node/42",
  });
  const status = (tags: Record<string, string>) => {
    const r = osmSite(el(tags));
    return "site" in r ? r.site.status : r.drop;
  };
  assert.equal(status({ "construction:amenity": "charging_station" }), "PLANNED");
  assert.equal(status({ amenity: "charging_station", operational_status: "out_of_order" }), "OUTOFORDER");
  assert.equal(
    status({ amenity: "charging_station", operational_status: "temporarily_closed" }),
    "INOPERATIVE",
  );
  assert.equal(status({ amenity: "fuel" }), "not-a-charging-station");
  assert.equal(status({ amenity: "charging_station" }), "AVAILABLE");
});

test("elements without usable coordinates are dropped", () => {
  assert.deepEqual(osmSite(el({ amenity: "charging_station" }, { lat: undefined })), {
    drop: "no-coordinates",
    id: "osm:node/42",
  });
  assert.deepEqual(osmSite(el({ amenity: "charging_station" }, { lat: 0, lon: 0 })), {
    drop: "no-coordinates",
    id: "osm:node/42",
  });
  assert.deepEqual(osmSite(el({ amenity: "charging_station" }, { lat: 91 })), {
    drop: "no-coordinates",
    id: "osm:node/42",
  });
});

test("Overpass JSON: nodes, ways with center or geometry, relations; osm3s timestamp as fallback", () => {
  const { elements } = overpassElements({
    osm3s: { timestamp_osm_base: "2026-02-01T00:00:00Z" },
    elements: [
      {
        type: "node",
        id: 1,
        lat: 1,
        lon: 2,
        tags: { amenity: "charging_station" },
        timestamp: "2025-01-01T00:00:00Z",
      },
      { type: "way", id: 2, center: { lat: 3, lon: 4 }, tags: { amenity: "charging_station" } },
      {
        type: "way",
        id: 3,
        geometry: [
          { lat: 0, lon: 10 },
          { lat: 0, lon: 12 },
          { lat: 2, lon: 12 },
          { lat: 2, lon: 10 },
          { lat: 0, lon: 10 },
        ],
      },
      { type: "relation", id: 4, tags: {} },
    ],
  });
  assert.deepEqual(
    elements.map((e) => [e.type, e.id, e.lat, e.lon, e.timestamp]),
    [
      ["node", 1, 1, 2, "2025-01-01T00:00:00Z"],
      ["way", 2, 3, 4, "2026-02-01T00:00:00Z"],
      ["way", 3, 1, 11, "2026-02-01T00:00:00Z"],
      ["relation", 4, undefined, undefined, "2026-02-01T00:00:00Z"],
    ],
  );
  assert.equal(overpassElement({ type: "area", id: 1 }, null), undefined, "not an Overpass element: malformed");
});

test("GeoJSON features without an OSM id are counted as malformed; odd geometries handled", () => {
  const { elements, malformed } = geojsonElements({
    type: "FeatureCollection",
    features: [
      {
        type: "Feature",
        properties: { amenity: "charging_station" },
        geometry: { type: "Point", coordinates: [1, 2] },
      },
      { type: "Feature", id: "node/7", properties: null, geometry: null },
      {
        type: "Feature",
        id: "way/8",
        properties: { "@id": "way/8" },
        geometry: {
          type: "LineString",
          coordinates: [
            [0, 0],
            [2, 2],
          ],
        },
      },
      {
        type: "Feature",
        id: "relation/9",
        properties: {},
        geometry: {
          type: "MultiPolygon",
          coordinates: [
            [
              [
                [0, 0],
                [4, 0],
                [4, 4],
                [0, 4],
                [0, 0],
              ],
            ],
          ],
        },
      },
    ],
  });
  assert.equal(malformed, 1);
  assert.deepEqual(
    elements.map((e) => [e.type, e.id, e.lat, e.lon]),
    [
      ["node", 7, undefined, undefined],
      ["way", 8, 1, 1],
      ["relation", 9, 2, 2],
    ],
  );
  assert.equal(ringCentroid([]), undefined);
});

test("output power: kW/kVA figures only, decimal comma, highest of a list", () => {
  assert.equal(parseOutputKw("22 kW"), 22);
  assert.equal(parseOutputKw("3,7 kW"), 3.7);
  assert.equal(parseOutputKw("50kW;150 kW"), 150);
  assert.equal(parseOutputKw("11 kVA"), 11);
  assert.equal(parseOutputKw("7000"), null, "bare numbers are ambiguous (W? kW?)");
  assert.equal(parseOutputKw("32 A"), null);
  assert.equal(parseOutputKw(undefined), null);
});

test("messy real capacity values: counts only when unambiguous, never a kW figure", () => {
  const rows = readFileSync(data("osm-capacity-freetext-values-de.tsv"), "utf8")
    .split("\n")
    .slice(1)
    .filter(Boolean)
    .map((line) => line.split("\t")[1] as string);
  assert.equal(rows.length, 134, "134 value rows (the data README says 135)");
  const parsed = new Map(rows.map((r) => [r, parseCapacity(r)]));
  const expect: [string, number | null][] = [
    ["2 x 22 kW", 2],
    ["2x22 KW", 2],
    ["2;max. 26,6 kW", 2],
    ["(3 x Typ 2 Dose, 2 x Schuko)", 5],
    ["2x Typ2 (22 kW, 32A, 3Ph)", 2],
    ["1x16A, 3x6A", 4],
    ["capacity:charging=1", 1],
    ["charging=2", 2],
    ["7 vehicles", 7],
    ["2 Auto's", 2],
    ["２", 2],
    ["22 kW", null],
    ["50kW", null],
    ["3,7", null],
    ["3;22", null],
    ["1;2", null],
    ["~200", null],
    ["1-3", null],
    ["bis 150", null],
    ["3x2", null],
    ["capacity:bike=4", null],
    ["230 Volt", null],
    ["1 CHAdeMO 50 kW DC", null],
    ["Typ 2·22.0 kW Verfügbar: 2/2", null],
  ];
  for (const [raw, want] of expect) assert.equal(parsed.get(raw), want, raw);
  for (const [raw, n] of parsed) {
    if (n !== null) assert.ok(n <= 10, `${raw} -> ${n}: no kW figure is read as a vehicle count`);
  }
  assert.equal(parseCapacity("4"), 4);
  assert.equal(parseCapacity("0"), null);
  assert.equal(parseCapacity(undefined), null);
});
