import assert from "node:assert/strict";
import { test } from "node:test";
import { data, importInMemory } from "../data/helpers.ts";

const OCM_ROW = (id: number, extra: Record<string, unknown> = {}) => ({
  ID: id,
  DataProviderID: 1,
  DataProvider: { ID: 1, License: "Licensed under CC BY 4.0", IsOpenDataLicensed: true },
  SubmissionStatusTypeID: 200,
  StatusTypeID: 50,
  AddressInfo: { Title: `Site ${id}`, Latitude: 52.5, Longitude: 13.4 },
  Connections: [{ ConnectionTypeID: 33, PowerKW: 150, CurrentTypeID: 30, Quantity: 2 }],
  ...extra,
});

test("--help prints the usage on stdout and exits 0", async () => {
  const run = await importInMemory(["import", "--help"]);
  assert.equal(run.code, 0);
  assert.match(run.stdout.join("\n"), /usage: charging import <files\.\.\.> --out <path>/);
});

for (const [name, args, message] of [
  ["no files", ["--out", "x"], /no input files given/],
  ["no --out", [data("ocm-poi-evmap-de-verbose.json")], /--out <path> is required/],
  ["--out without a value", [data("ocm-poi-evmap-de-verbose.json"), "--out"], /--out needs a value/],
  ["an unknown option", ["a.json", "--out", "x", "--fast"], /unknown option --fast/],
  ["a repeated option", ["a.json", "--out", "x", "--out", "y"], /--out given more than once/],
  ["a bad --imported-at", ["a.json", "--out", "x", "--imported-at=yesterday"], /not an ISO 8601 date/],
  ["an unreadable file", ["/nonexistent/file.json", "--out", "x"], /cannot read \/nonexistent\/file\.json/],
  ["a file of unknown format", [data("osm-capacity-freetext-values-de.tsv"), "--out", "x"], /unknown format/],
  ["only reference data", [data("ocm-reference.json"), "--out", "x"], /only reference data given/],
  [
    "compact rows without reference data",
    [data("ocm-poi-london-gb-compact.json"), "--out", "x"],
    /pass ocm-reference\.json as well/,
  ],
] as const) {
  test(`exit code 2 and a clear message on ${name}`, async () => {
    const run = await importInMemory([...args]);
    assert.equal(run.code, 2);
    assert.match(run.stderr.join("\n"), message);
    assert.match(run.stderr.at(-1) ?? "", /^INVALID_(USAGE|DATA): [^\n]+; [^\n]+$/, "one line: CODE: what happened; what to do");
    assert.equal(run.written.size + run.snapshots.size, 0, "nothing is written");
  });
}

test("gzip that is corrupt, non-UTF-8 bytes and JSON of another shape are refused", async () => {
  const files = {
    "bad.gz": new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2, 3]),
    "latin1.json": new Uint8Array([0x5b, 0xe9, 0x5d]),
    "other.json": JSON.stringify({ hello: "world" }),
  };
  for (const [file, message] of [
    ["bad.gz", /gzip data is corrupt/],
    ["latin1.json", /not UTF-8/],
    ["other.json", /unknown format/],
  ] as const) {
    const run = await importInMemory([file, "--out", "x"], files);
    assert.equal(run.code, 2, file);
    assert.match(run.stderr.join("\n"), message);
  }
});

test("a write failure exits 1 and says so", async () => {
  const run = await importInMemory([data("ocm-poi-evmap-de-verbose.json"), "--out", "/unwritable/x.json"]);
  assert.equal(run.code, 1);
  assert.match(run.stderr.join("\n"), /cannot write \/unwritable\/x\.json: EACCES/);
});

test("JSON lines with MongoDB extended JSON are unwrapped; malformed rows are counted", async () => {
  const lines = [
    JSON.stringify({
      _id: { $oid: "abc" },
      ...OCM_ROW(11, {
        DateLastStatusUpdate: { $date: "2024-05-01T10:00:00Z" },
        NumberOfPoints: { $numberInt: "4" },
      }),
    }),
    JSON.stringify({ ID: 12, AddressInfo: { Latitude: "north" } }),
    JSON.stringify(OCM_ROW(13, { SubmissionStatusTypeID: 1 })),
    '{"ID": 14, "AddressInfo": {"Lat', // a truncated line
  ].join("\n");
  const run = await importInMemory(["rows.jsonl", "--out", "o.json", "--imported-at", "2026-01-01T00:00:00Z"], {
    "rows.jsonl": lines,
  });
  assert.equal(run.code, 0, run.stderr.join("\n"));
  const file = JSON.parse(run.written.get("o.json") ?? "null");
  assert.equal(file.importedAt, "2026-01-01T00:00:00.000Z");
  assert.deepEqual(file.sources[0], {
    file: "rows.jsonl",
    format: "ocm-jsonl",
    read: 4,
    kept: 1,
    dropped: { malformed: 2, unpublished: 1 },
  });
  assert.equal(file.sites[0].lastUpdated, "2024-05-01T10:00:00.000Z");
  assert.equal(file.sites[0].capacity, 4);
  assert.equal(file.counts.sites, 1);
});

test("a single POI object and Overpass JSON are recognised", async () => {
  const overpass = {
    osm3s: { timestamp_osm_base: "2026-01-01T00:00:00Z" },
    elements: [
      {
        type: "node",
        id: 5,
        lat: 48.1,
        lon: 11.5,
        tags: { amenity: "charging_station", "socket:type2": "2" },
      },
    ],
  };
  const run = await importInMemory(["one.json", "op.json", "--out", "o.json"], {
    "one.json": JSON.stringify(OCM_ROW(21)),
    "op.json": JSON.stringify(overpass),
  });
  assert.equal(run.code, 0, run.stderr.join("\n"));
  const file = JSON.parse(run.written.get("o.json") ?? "null");
  assert.deepEqual(
    file.sources.map((s: { format: string }) => s.format),
    ["ocm-json", "osm-overpass"],
  );
  assert.deepEqual(
    file.sites.map((s: { id: string }) => s.id),
    ["ocm:21", "osm:node/5"],
  );
  assert.equal(file.importedAt, "2026-01-02T03:04:05.678Z", "the injected clock dates the import");
  assert.deepEqual(
    file.partitions.map((p: { key: string }) => p.key),
    ["ocm/1/CC-BY-4.0", "osm"],
  );
});

test("reference data of the wrong shape exits 2 naming the file; a row of the wrong shape counts as malformed", async () => {
  const badReference = { DataProviders: "none", ConnectionTypes: [] };
  const run = await importInMemory(["ref.json", data("ocm-poi-evmap-de-verbose.json"), "--out", "x"], {
    "ref.json": JSON.stringify(badReference),
  });
  assert.equal(run.code, 2);
  assert.match(run.stderr.join("\n"), /ref\.json: not OCM reference data: DataProviders/);
  assert.equal(run.written.size + run.snapshots.size, 0);
  const truncated = await importInMemory(["ref.json", data("ocm-poi-evmap-de-verbose.json"), "--out", "x"], {
    "ref.json": '{"DataProviders": [], "ConnectionTypes": [{"ID": 1, ',
  });
  assert.equal(truncated.code, 2, "a broken reference file is bad input, named like any other");
  assert.match(truncated.stderr.join("\n"), /INVALID_DATA: ref\.json: the JSON ends before it is complete/);
  const overpass = { elements: [{ type: "area", id: 1 }, { type: "node", id: 2, lat: 1, lon: 2, tags: { amenity: "charging_station" } }] };
  const partly = await importInMemory(["op.json", "--out", "o.json"], { "op.json": JSON.stringify(overpass) });
  assert.equal(partly.code, 0, partly.stderr.join("\n"));
  assert.deepEqual(JSON.parse(partly.written.get("o.json") ?? "null").sources[0].dropped, { malformed: 1 });
});
