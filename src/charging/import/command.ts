/**
 * `charging import <files...> --out <path> [--imported-at <ISO>]`: converts OCM and OSM
 * files (format detected per file, gzip unpacked) into a data set: a binary snapshot (what
 * the server maps), or the JSON data-set format when `--out` ends in `.json`. Files of any
 * size stream through: rows are parsed one at a time into the snapshot's columns, never as
 * one string. Progress and per-file summaries go to stderr, a JSON summary to stdout.
 * Exit codes: 0 done, 1 output not written, 2 bad flags, unreadable file, unknown or broken
 * format, or missing reference data.
 * @module
 */
import { metaFlagOf, optionTable, parseArgs, usage, valueOf } from "../../shared/cli/args.ts";
import { failureLine, reportFailure } from "../../shared/cli/failure.ts";
import { ApiError, isApiError, messageOf } from "../../shared/errors.ts";
import { datasetChunks, datasetPartitions, datasetRow } from "../data/dataset.ts";
import type { Site } from "../data/model.ts";
import type { Crc32 } from "../snapshot/crc32.ts";
import { openSnapshot } from "../snapshot/read.ts";
import { SnapshotBuilder } from "../snapshot/write.ts";
import { createStore } from "../search/store.ts";
import { unwrapExtendedJson } from "./extended-json.ts";
import { importOcmRow } from "./ocm.ts";
import { type OcmReference, parseOcmReference } from "./ocm-reference.ts";
import { osmSite } from "./osm.ts";
import { geojsonElement, overpassElement, overpassTimestamp } from "./osm-formats.ts";
import type { DropReason, RowResult } from "./row.ts";
import { readRows } from "./rows.ts";
import { type FileFormat, openSource } from "./source.ts";

export interface ImportIo {
  /** The file as a byte stream, and its size in bytes (for progress). */
  openFile(path: string): Promise<{ size: number; stream: ReadableStream<Uint8Array> }>;
  /** Writes bytes, or text pieces in order (a JSON data set of any size). */
  writeFile(path: string, data: Uint8Array | Iterable<string>): Promise<void>;
  stderr(line: string): void;
  stdout(line: string): void;
  /** Clock for the header's import time (default: the system clock). */
  now?(): Date;
  /** A faster CRC-32 for the snapshot (Node passes zlib's). */
  crc32?: Crc32;
}

const IMPORT_USAGE = `usage: charging import <files...> --out <path> [--imported-at <ISO 8601>]
  files: Open Charge Map /v3/poi JSON (verbose or compact; compact needs ocm-reference.json too),
         OCM JSON lines (mongoexport, .jsonl.gz), Overpass JSON, overpass-turbo GeoJSON or a
         charging-sites/1 JSON data set; gzip is unpacked; files of any size stream through
  --out          where to write: a snapshot (what the server maps), or the JSON data-set
                 format (fixtures/charging/sites.json) when the path ends in .json
  --imported-at  import time written to the header (default: now)`;

/** `err` as a failure of `file`: its message prefixed with the file; INVALID_DATA unless typed otherwise. */
function inFile(file: string, err: unknown): ApiError {
  const message = `${file}: ${messageOf(err)}`;
  return new ApiError(isApiError(err) ? err.code : "INVALID_DATA", message, { cause: err });
}

interface Options {
  files: string[];
  out: string;
  importedAt: string | undefined;
}

const OPTIONS = optionTable(["out", "imported-at"], ["help"]);

function optionsOf(args: readonly string[]): Options {
  const parsed = parseArgs(args[0] === "import" ? args.slice(1) : args, OPTIONS);
  const opts: Options = {
    files: parsed.positionals,
    out: valueOf(parsed, "out") ?? "",
    importedAt: valueOf(parsed, "imported-at"),
  };
  if (opts.files.length === 0) throw usage("no input files given");
  if (!opts.out) throw usage("--out <path> is required");
  if (opts.importedAt !== undefined && Number.isNaN(Date.parse(opts.importedAt))) {
    throw usage(`--imported-at ${opts.importedAt} is not an ISO 8601 date`);
  }
  return opts;
}

interface FileSummary {
  file: string;
  format: string;
  read: number;
  kept: number;
  dropped: Partial<Record<DropReason, number>>;
}

const baseName = (file: string) => file.split(/[\\/]/).at(-1) ?? file;
const megabytes = (bytes: number) => {
  const mb = bytes / 1048576;
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
};

async function open(file: string, io: ImportIo) {
  const opened = await io.openFile(file).catch((err: unknown) => {
    throw new ApiError("INVALID_USAGE", `cannot read ${file}: ${messageOf(err)}`, { cause: err });
  });
  const source = await openSource(opened.stream).catch((err: unknown) => {
    throw isApiError(err, "INVALID_DATA") ? inFile(file, err) : err;
  });
  return { ...source, size: opened.size };
}

/** Reference data is small (a few hundred KB): it is collected whole, then validated. */
async function loadReference(file: string, stream: ReadableStream<Uint8Array>): Promise<OcmReference> {
  let doc: unknown;
  try {
    await readRows("ocm-reference", stream, { row: (value) => (doc = value), meta: () => {}, progress: () => {} });
    return parseOcmReference(unwrapExtendedJson(doc));
  } catch (err) {
    throw inFile(file, err);
  }
}

/** Turns each streamed row of one file into a RowResult, per its format. */
function converter(format: FileFormat, ref: OcmReference | undefined) {
  let fallback: string | null = null;
  let partitions: ReturnType<typeof datasetPartitions> | undefined;
  const convert = (raw: unknown): RowResult => {
    if (format === "ocm-json" || format === "ocm-poi" || format === "ocm-jsonl") {
      return raw === null ? { drop: "malformed" } : importOcmRow(unwrapExtendedJson(raw), ref);
    }
    if (format === "charging-dataset") {
      const site = partitions ? datasetRow(raw, partitions) : undefined;
      return site ? { site } : { drop: "malformed" };
    }
    const element = format === "osm-overpass" ? overpassElement(raw, fallback) : geojsonElement(raw, fallback);
    return element ? osmSite(element) : { drop: "malformed" };
  };
  const meta = (key: string, value: unknown) => {
    if (key === "osm3s") fallback = overpassTimestamp(value);
    else if (key === "timestamp" && typeof value === "string") fallback = value;
    else if (key === "partitions") partitions = datasetPartitions(value);
  };
  return { convert, meta };
}

/** A file opened: its format, whether it was gzip, its size and its content. */
type Source = Awaited<ReturnType<typeof open>> & { file: string };

/** A progress line at every tenth of a plain file, and every 8 MB unpacked of a gzip one (its size is unknown). */
function progressOf(source: Source, rows: () => number, io: ImportIo): (bytes: number) => void {
  const step = source.gzip ? 8 * 1048576 : Math.max(source.size / 10, 1);
  let next = step;
  return (bytes) => {
    if (bytes < next || (!source.gzip && bytes >= source.size)) return;
    while (next <= bytes) next += step;
    const share = source.gzip ? `${megabytes(bytes)} unpacked` : `${Math.round((bytes / source.size) * 100)}% of ${megabytes(source.size)}`;
    io.stderr(`import: ${source.file}: ${share}, ${rows()} rows`);
  };
}

function bump(summary: FileSummary, reason: DropReason): void {
  summary.dropped[reason] = (summary.dropped[reason] ?? 0) + 1;
}

async function importFile(
  source: Source,
  index: number,
  context: { ref: OcmReference | undefined; builder: SnapshotBuilder; summaries: FileSummary[]; io: ImportIo },
): Promise<void> {
  const { builder, summaries, io } = context;
  const summary: FileSummary = { file: baseName(source.file), format: source.format === "ocm-poi" ? "ocm-json" : source.format, read: 0, kept: 0, dropped: {} };
  summaries.push(summary);
  const { convert, meta } = converter(source.format, context.ref);
  const keep = (site: Site) => {
    const added = builder.add(site, index);
    if (added.outcome === "older") return bump(summary, "duplicate");
    summary.kept++;
    if (added.replacedTag === undefined) return;
    const loser = summaries[added.replacedTag] as FileSummary;
    loser.kept--;
    bump(loser, "duplicate");
  };
  const row = (raw: unknown) => {
    summary.read++;
    const result = convert(raw);
    if ("drop" in result) bump(summary, result.drop);
    else keep(result.site);
  };
  try {
    await readRows(source.format, source.stream, { row, meta, progress: progressOf(source, () => summary.read, io) });
  } catch (err) {
    throw inFile(source.file, err);
  }
}

const describe = (s: FileSummary) => {
  const reasons = Object.entries(s.dropped).map(([reason, n]) => `${reason} ${n}`);
  return `import: ${s.file} (${s.format}): read ${s.read}, kept ${s.kept}, dropped ${s.read - s.kept}${reasons.length ? ` (${reasons.join(", ")})` : ""}`;
};

/** Opens every file once to tell formats apart: reference data must be known before compact OCM rows. */
async function sources(files: readonly string[], io: ImportIo): Promise<{ ref?: OcmReference; data: string[] }> {
  let ref: OcmReference | undefined;
  const data: string[] = [];
  for (const file of files) {
    const source = await open(file, io);
    io.stderr(`import: ${file}: ${source.format}${source.gzip ? " (gzip)" : ""}, ${megabytes(source.size)}`);
    if (source.format === "ocm-reference") ref = await loadReference(file, source.stream);
    else {
      await source.stream.cancel().catch(() => {});
      data.push(file);
    }
  }
  if (data.length === 0) throw usage("only reference data given; add site files");
  return ref ? { ref, data } : { data };
}

async function write(opts: Options, builder: SnapshotBuilder, summaries: FileSummary[], io: ImportIo): Promise<Record<string, number>> {
  const importedAt = new Date(opts.importedAt ?? io.now?.() ?? new Date()).toISOString();
  const sourcesList = summaries.map((s) => ({ ...s }));
  const crc = io.crc32 ? { crc32: io.crc32 } : {};
  const snapshot = builder.finish(importedAt, sourcesList, crc);
  const header = builder.header(importedAt, sourcesList);
  const data = opts.out.endsWith(".json") ? datasetChunks(header, createStore(openSnapshot(snapshot, crc)).sites()) : snapshot;
  await io.writeFile(opts.out, data);
  return header.counts;
}

async function run(opts: Options, io: ImportIo): Promise<number> {
  const { ref, data } = await sources(opts.files, io);
  const builder = new SnapshotBuilder();
  const summaries: FileSummary[] = [];
  for (const [index, file] of data.entries()) {
    const source = await open(file, io);
    await importFile({ file, ...source }, index, { ref, builder, summaries, io });
  }
  for (const s of summaries) io.stderr(describe(s));
  let counts: Record<string, number>;
  try {
    counts = await write(opts, builder, summaries, io);
  } catch (err) {
    io.stderr(failureLine(new ApiError("WRITE_FAILED", `cannot write ${opts.out}: ${messageOf(err)}`), "charging import --help"));
    return 1;
  }
  io.stderr(`import: wrote ${counts.sites} sites (ocm ${counts.ocm}, osm ${counts.osm}) to ${opts.out}`);
  io.stdout(JSON.stringify({ out: opts.out, counts, sources: summaries }));
  return 0;
}

/** Runs the import command; returns the exit code. */
export async function runImport(args: string[], io: ImportIo): Promise<number> {
  try {
    // --help (or -h) anywhere before -- wins over a bad flag beside it, as in every other command.
    if (metaFlagOf(args) === "help") {
      io.stdout(IMPORT_USAGE);
      return 0;
    }
    return await run(optionsOf(args), io);
  } catch (err) {
    return reportFailure(err, "charging import --help", io.stderr);
  }
}
