/**
 * Shared test helpers: the real data directory, an in-memory import run, and site builders.
 * @module
 */
import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { DatasetHeader } from "../../../src/charging/data/dataset.ts";
import { SnapshotBuilder } from "../../../src/charging/snapshot/write.ts";
import { join, resolve } from "node:path";
import { parseDatasetFile } from "../../../src/charging/data/dataset.ts";
import { type ImportIo, runImport } from "../../../src/charging/import/command.ts";
import type { Site } from "../../../src/charging/data/model.ts";

/** The raw open data the importer reads (Open Charge Map and OpenStreetMap files, licences in its README.md). */
export const DATA_DIR = resolve(import.meta.dirname, "../../../fixtures/charging/raw");
export const data = (name: string) => join(DATA_DIR, name);

export const SITE_FILES = readdirSync(DATA_DIR)
  .filter((name) => /\.(json|geojson|jsonl\.gz)$/.test(name))
  .sort()
  .map(data);

export interface ImportRun {
  code: number;
  stderr: string[];
  stdout: string[];
  /** JSON outputs as text; snapshot outputs as bytes. */
  written: Map<string, string>;
  snapshots: Map<string, Uint8Array>;
}

/** The data-set header of `sites` (partitions, credit lines, counts). */
export function headerFor(sites: readonly Site[], importedAt = "2026-01-01T00:00:00.000Z"): DatasetHeader {
  const builder = new SnapshotBuilder();
  for (const s of sites) builder.add(s);
  return builder.header(importedAt, []);
}

/** A file's bytes as a stream in chunks of `size` bytes (tests split multi-byte characters and tokens). */
export function chunked(bytes: Uint8Array, size = 4096): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

/** Runs the import command against real files with an in-memory output. */
export async function importInMemory(
  args: string[],
  extraFiles: Record<string, string | Uint8Array> = {},
): Promise<ImportRun> {
  const run: ImportRun = { code: -1, stderr: [], stdout: [], written: new Map(), snapshots: new Map() };
  const io: ImportIo = {
    openFile: async (path) => {
      const extra = extraFiles[path];
      const bytes =
        extra === undefined
          ? new Uint8Array(await readFile(path))
          : typeof extra === "string"
            ? new TextEncoder().encode(extra)
            : extra;
      return { size: bytes.byteLength, stream: chunked(bytes, 997) };
    },
    writeFile: async (path, data) => {
      if (path.startsWith("/unwritable/")) throw new Error("EACCES: permission denied");
      if (data instanceof Uint8Array) run.snapshots.set(path, data);
      else run.written.set(path, [...data].join(""));
    },
    stderr: (line) => run.stderr.push(line),
    stdout: (line) => run.stdout.push(line),
    now: () => new Date("2026-01-02T03:04:05.678Z"),
  };
  run.code = await runImport(args, io);
  return run;
}

let full: Promise<{ run: ImportRun; sites: Site[]; byId: Map<string, Site> }> | undefined;

/** The import of every real file, done once per test process. */
export function fullImport() {
  full ??= importInMemory(["import", ...SITE_FILES, "--out", "mem.json"]).then((run) => {
    const { sites } = parseDatasetFile(JSON.parse(run.written.get("mem.json") ?? "null"));
    return { run, sites, byId: new Map(sites.map((s) => [s.id, s])) };
  });
  return full;
}

/** A minimal valid site for store and status tests. */
export function site(id: string, patch: Partial<Site> = {}): Site {
  const source = id.startsWith("osm:") ? "osm" : "ocm";
  return {
    id,
    source,
    licence: source === "osm" ? "ODbL-1.0" : "CC-BY-4.0",
    attributionKey: source === "osm" ? "osm" : "ocm/1/CC-BY-4.0",
    name: null,
    lat: 0.5,
    lon: 0.5,
    address: null,
    operator: null,
    network: null,
    connectors: [],
    maxPowerKw: null,
    capacity: null,
    access: null,
    fee: null,
    usageCost: null,
    openingHours: null,
    status: "AVAILABLE",
    statusKind: "registry",
    lastUpdated: "2025-01-01T00:00:00.000Z",
    sourceUrl: "",
    ...patch,
  };
}
