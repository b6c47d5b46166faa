/**
 * The import streams: every format gives the same rows whatever the chunking (down to one byte:
 * multi-byte characters and tokens split across chunks); a generated export of 25,000 POIs,
 * plain and gzip, streams into a snapshot the server opens; broken files say what is wrong.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { type ImportIo, runImport } from "../../../src/charging/import/command.ts";
import { readRows } from "../../../src/charging/import/rows.ts";
import { type FileFormat, openSource } from "../../../src/charging/import/source.ts";
import { openSnapshot } from "../../../src/charging/snapshot/read.ts";
import { createStore } from "../../../src/charging/search/store.ts";
import { chunked, data, importInMemory } from "../data/helpers.ts";

async function rowsOf(bytes: Uint8Array, size: number): Promise<{ format: FileFormat; rows: unknown[]; meta: string[] }> {
  const { format, stream } = await openSource(chunked(bytes, size));
  const rows: unknown[] = [];
  const meta: string[] = [];
  await readRows(format, stream, { row: (r) => rows.push(r), meta: (k) => meta.push(k), progress: () => {} });
  return { format, rows, meta };
}

test("every real format reads the same rows in chunks of 1 or 7, 61 and 64 KiB bytes", async () => {
  for (const [file, format, count, smallest] of [
    ["ocm-poi-evmap-de-verbose.json", "ocm-json", 4, 1],
    ["ocm-poi-london-gb-compact.json", "ocm-json", 100, 7],
    ["osm-charging-stations-de-2015-overpass-turbo.geojson", "osm-geojson", 82, 1],
  ] as const) {
    const bytes = new Uint8Array(readFileSync(data(file)));
    const whole = await rowsOf(bytes, 1 << 16);
    assert.equal(whole.format, format, file);
    assert.equal(whole.rows.length, count, file);
    for (const size of [smallest, 61]) assert.deepEqual(await rowsOf(bytes, size), whole, `${file} in ${size}-byte chunks`);
  }
  const geo = await rowsOf(new Uint8Array(readFileSync(data("osm-charging-stations-de-2015-overpass-turbo.geojson"))), 999);
  assert.deepEqual(geo.meta, ["timestamp"]);
  const gz = new Uint8Array(readFileSync(data("ocm-poi-mongoexport-2020-11-20.jsonl.gz")));
  const lines = await rowsOf(gz, 4096);
  assert.equal(lines.format, "ocm-jsonl");
  assert.equal(lines.rows.length, 3834);
  assert.deepEqual((await rowsOf(gz, 509)).rows.length, 3834);
});

const encoder = new TextEncoder();

/** An OCM export of `n` POIs as a stream produced on demand (never one string, in the test either). */
function ocmExport(n: number): { size: number; stream: () => ReadableStream<Uint8Array> } {
  const poi = (i: number) =>
    JSON.stringify({
      ID: i + 1,
      DataProviderID: 1,
      DataProvider: { ID: 1, License: "Licensed under CC BY 4.0", IsOpenDataLicensed: true },
      SubmissionStatusTypeID: 200,
      StatusTypeID: 50,
      AddressInfo: { Title: `Ladestation Müller ${i}`, Town: "Zürich", Latitude: 40 + (i % 1000) / 100, Longitude: -5 + Math.floor(i / 1000) / 10 },
      Connections: [{ ConnectionTypeID: 33, ConnectionType: { Title: "CCS (Type 2)" }, PowerKW: 50 + (i % 4) * 50, CurrentTypeID: 30, Quantity: 2 }],
      DateLastStatusUpdate: "2025-01-01T00:00:00Z",
    });
  let size = 2;
  for (let i = 0; i < n; i++) size += encoder.encode(poi(i)).byteLength + (i > 0 ? 1 : 0);
  const stream = () => {
    let i = 0;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        const batch: string[] = i === 0 ? ["["] : [];
        for (const end = Math.min(n, i + 200); i < end; i++) batch.push(`${i > 0 ? "," : ""}${poi(i)}`);
        if (i === n) batch.push("]");
        controller.enqueue(encoder.encode(batch.join("")));
        if (i === n) controller.close();
      },
    });
  };
  return { size, stream };
}

function streamingIo(files: Record<string, () => ReadableStream<Uint8Array>>, sizes: Record<string, number>, out: Map<string, Uint8Array>, stderr: string[]): ImportIo {
  return {
    openFile: async (path) => ({ size: sizes[path] ?? 0, stream: (files[path] as () => ReadableStream<Uint8Array>)() }),
    writeFile: async (path, bytes) => {
      assert.ok(bytes instanceof Uint8Array, "a snapshot is written as bytes");
      out.set(path, bytes);
    },
    stderr: (line) => stderr.push(line),
    stdout: () => {},
    now: () => new Date("2026-01-01T00:00:00.000Z"),
  };
}

test("a generated export of 25,000 POIs streams into a snapshot, plain and gzip, with progress on stderr", async () => {
  const exportFile = ocmExport(25_000);
  const gzip = () => exportFile.stream().pipeThrough(new CompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>);
  const out = new Map<string, Uint8Array>();
  const stderr: string[] = [];
  const io = streamingIo({ "export.json": exportFile.stream, "export.json.gz": gzip }, { "export.json": exportFile.size, "export.json.gz": 1 }, out, stderr);
  assert.equal(await runImport(["export.json", "--out", "plain.snapshot"], io), 0, stderr.join("\n"));
  assert.equal(await runImport(["export.json.gz", "--out", "gz.snapshot"], io), 0, stderr.join("\n"));
  const plain = createStore(openSnapshot(out.get("plain.snapshot") as Uint8Array));
  const unpacked = createStore(openSnapshot(out.get("gz.snapshot") as Uint8Array));
  assert.equal(plain.size, 25_000);
  assert.equal(unpacked.size, 25_000);
  assert.deepEqual(plain.get("ocm:25000"), unpacked.get("ocm:25000"));
  assert.equal(plain.get("ocm:1")?.name, "Ladestation Müller 0", "multi-byte text survives");
  const page = await plain.search({ near: { lat: 40, lon: -5, radiusKm: 5 }, minPower: 150, limit: 5, offset: 0 });
  assert.ok(page.total > 0 && page.data.every((s) => (s.maxPowerKw ?? 0) >= 150));
  assert.ok(stderr.some((l) => /export\.json: 50% of \d+(\.\d)? MB, \d+ rows/.test(l)), stderr.join("\n"));
  assert.ok(stderr.some((l) => /export\.json\.gz: 8\.0 MB unpacked, \d+ rows/.test(l)), stderr.join("\n"));
});

test("a broken file says what is wrong: truncated, invalid JSON at a position, not UTF-8, corrupt gzip", async () => {
  const files: Record<string, string | Uint8Array> = {
    "truncated.json": '{"elements": [{"type": "node", "id": 1, "lat": 1, "lon": 2}, {"type": "no',
    "garbage.json": '{"elements": [{"type": "node", "id": 1, "lat": 1, "lon": 2}, {"type": "node" "id": 2}]}',
    "latin1.json": new Uint8Array([0x5b, 0x22, 0xe9, 0x22, 0x5d]),
    "trailing.json": '{"elements": []} {"elements": []}',
    "bad.gz": new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7]),
    "empty.json": "",
    "tsv.json": "node_id\tcapacity\n1\t2\n",
  };
  for (const [file, message] of [
    ["truncated.json", /truncated\.json: the JSON ends before it is complete \(is the file truncated\?\)/],
    ["garbage.json", /garbage\.json: invalid JSON: Unexpected STRING \("id"\) in state COMMA \(at byte 77\)/],
    ["latin1.json", /latin1\.json: not UTF-8 text \(in bytes 0 to 5\)/],
    ["trailing.json", /trailing\.json: invalid JSON: Unexpected "\{"/],
    ["bad.gz", /bad\.gz: gzip data is corrupt or truncated/],
    ["empty.json", /empty\.json: unknown format/],
    ["tsv.json", /tsv\.json: unknown format/],
  ] as const) {
    const run = await importInMemory([file, "--out", "x"], files);
    assert.equal(run.code, 2, file);
    assert.match(run.stderr.join("\n"), message);
    assert.equal(run.written.size + run.snapshots.size, 0, "nothing is written");
  }
});

test("a JSON data set converts to a snapshot and back to the same JSON", async () => {
  const shipped = readFileSync("fixtures/charging/sites.json", "utf8");
  const toSnapshot = await importInMemory(["sites.json", "--out", "sites.snapshot"], { "sites.json": shipped });
  assert.equal(toSnapshot.code, 0, toSnapshot.stderr.join("\n"));
  const snapshot = toSnapshot.snapshots.get("sites.snapshot") as Uint8Array;
  const store = createStore(openSnapshot(snapshot));
  assert.equal(store.size, JSON.parse(shipped).sites.length);
  const back = await importInMemory(["s.snapshot.json", "--out", "again.json"], { "s.snapshot.json": shipped });
  assert.deepEqual(JSON.parse(back.written.get("again.json") ?? "null").sites, JSON.parse(shipped).sites);
});
