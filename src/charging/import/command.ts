/**
 * `charging import <files...> --out <path> [--imported-at <ISO>]`: converts OCM and OSM
 * files (format detected per file) into the shipped dataset. Progress and per-file summaries
 * go to stderr, a JSON summary to stdout. Exit codes: 0 done, 1 output not written,
 * 2 bad flags, unreadable file, unknown format or missing reference data.
 * @module
 */
import { serializeDataset } from "../dataset.ts";
import { type DetectedFile, detectFile, FormatError } from "./detect.ts";
import { datasetHeader, type FileRows, type FileSummary, mergeFiles } from "./merge.ts";
import { importOcmRow, MissingReferenceError } from "./ocm.ts";
import { type OcmReference, parseOcmReference } from "./ocm-reference.ts";
import { osmSite } from "./osm.ts";
import { geojsonElements, overpassElements } from "./osm-formats.ts";
import type { RowResult } from "./row.ts";

export interface ImportIo {
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: string): Promise<void>;
  stderr(line: string): void;
  stdout(line: string): void;
  /** Clock for the header's import time (default: the system clock). */
  now?(): Date;
}

export const IMPORT_USAGE = `usage: charging import <files...> --out <path> [--imported-at <ISO 8601>]
  files: Open Charge Map /v3/poi JSON (verbose or compact; compact needs ocm-reference.json too),
         OCM JSON lines (mongoexport, .jsonl.gz), Overpass JSON or overpass-turbo GeoJSON
  --out          where to write the dataset (fixtures/charging/sites.json format)
  --imported-at  import time written to the header (default: now)`;

class UsageError extends Error {}

interface Options {
  files: string[];
  out: string;
  importedAt: string | undefined;
  help: boolean;
}

function parseArgs(args: readonly string[]): Options {
  const list = args[0] === "import" ? args.slice(1) : [...args];
  const opts: Options = { files: [], out: "", importedAt: undefined, help: false };
  for (let i = 0; i < list.length; i++) {
    const arg = list[i] as string;
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=") ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const value = () => {
      const next = inline ?? list[++i];
      if (next === undefined || next === "") throw new UsageError(`${flag} needs a value`);
      return next;
    };
    if (flag === "--help" || flag === "-h") opts.help = true;
    else if (flag === "--out") opts.out = value();
    else if (flag === "--imported-at") opts.importedAt = value();
    else if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown option ${arg}`);
    else opts.files.push(arg);
  }
  if (opts.help) return opts;
  if (opts.files.length === 0) throw new UsageError("no input files given");
  if (!opts.out) throw new UsageError("--out <path> is required");
  if (opts.importedAt !== undefined && Number.isNaN(Date.parse(opts.importedAt))) {
    throw new UsageError(`--imported-at ${opts.importedAt} is not an ISO 8601 date`);
  }
  return opts;
}

function convert(
  file: string,
  detected: DetectedFile,
  ref: OcmReference | undefined,
  io: ImportIo,
): RowResult[] {
  if (detected.format === "ocm-json" || detected.format === "ocm-jsonl") {
    const rows = detected.json as unknown[];
    return rows.map((row, i) => {
      if (i > 0 && i % 2000 === 0) io.stderr(`import: ${file}: ${i}/${rows.length} rows`);
      return importOcmRow(row, ref);
    });
  }
  const read =
    detected.format === "osm-geojson" ? geojsonElements(detected.json) : overpassElements(detected.json);
  const malformed: RowResult[] = Array.from({ length: read.malformed }, () => ({ drop: "malformed" }));
  return [...read.elements.map(osmSite), ...malformed];
}

const describe = (s: FileSummary) => {
  const reasons = Object.entries(s.dropped).map(([reason, n]) => `${reason} ${n}`);
  return `import: ${s.file} (${s.format}): read ${s.read}, kept ${s.kept}, dropped ${s.read - s.kept}${reasons.length ? ` (${reasons.join(", ")})` : ""}`;
};

async function load(
  files: readonly string[],
  io: ImportIo,
): Promise<{ file: string; detected: DetectedFile }[]> {
  const loaded = [];
  for (const file of files) {
    let bytes: Uint8Array;
    try {
      bytes = await io.readFile(file);
    } catch (err) {
      throw new UsageError(`cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
    }
    io.stderr(`import: reading ${file} (${bytes.byteLength} bytes)`);
    try {
      loaded.push({ file, detected: await detectFile(bytes) });
    } catch (err) {
      if (err instanceof FormatError) throw new UsageError(`${file}: ${err.message}`);
      throw err;
    }
  }
  return loaded;
}

async function run(opts: Options, io: ImportIo): Promise<number> {
  const loaded = await load(opts.files, io);
  let ref: OcmReference | undefined;
  for (const { file, detected } of loaded.filter((l) => l.detected.format === "ocm-reference")) {
    try {
      ref = parseOcmReference(detected.json);
    } catch (err) {
      throw new UsageError(`${file}: ${(err as Error).message}`);
    }
  }
  const data = loaded.filter((l) => l.detected.format !== "ocm-reference");
  if (data.length === 0) throw new UsageError("only reference data given; add site files");
  const rows: FileRows[] = data.map(({ file, detected }) => {
    try {
      return {
        file: file.split(/[\\/]/).at(-1) ?? file,
        format: detected.format,
        results: convert(file, detected, ref, io),
      };
    } catch (err) {
      if (err instanceof MissingReferenceError)
        throw new UsageError(`${file}: ${err.message}; pass ocm-reference.json as well`);
      throw new UsageError(`${file}: ${(err as Error).message}`);
    }
  });
  const { sites, summaries } = mergeFiles(rows);
  for (const s of summaries) io.stderr(describe(s));
  const importedAt = new Date(opts.importedAt ?? io.now?.() ?? new Date()).toISOString();
  const header = datasetHeader(importedAt, summaries, sites);
  try {
    await io.writeFile(opts.out, serializeDataset(header, sites));
  } catch (err) {
    io.stderr(`import: cannot write ${opts.out}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  io.stderr(
    `import: wrote ${sites.length} sites (ocm ${header.counts.ocm}, osm ${header.counts.osm}) to ${opts.out}`,
  );
  io.stdout(JSON.stringify({ out: opts.out, counts: header.counts, sources: summaries }));
  return 0;
}

/** Runs the import command; returns the exit code. */
export async function runImport(args: string[], io: ImportIo): Promise<number> {
  try {
    const opts = parseArgs(args);
    if (opts.help) {
      io.stdout(IMPORT_USAGE);
      return 0;
    }
    return await run(opts, io);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr(`import: ${err.message}`);
    io.stderr(IMPORT_USAGE);
    return 2;
  }
}
