/**
 * `charging refresh`: the unattended refresh. Downloads the latest Open Charge Map export (POIs
 * and reference data) and an OpenStreetMap extract (Overpass), imports them into a snapshot
 * beside `--out`, reads that snapshot back with every check, compares its counts with the file
 * it replaces (at most `--max-drop` percent fewer sites in total and per source), and renames it
 * over `--out`. A server serving that file (`CHARGING_DATA`) swaps to it on its own. Nothing is
 * replaced unless every step succeeded. Exit codes: 0 replaced, 1 a download or the write
 * failed, 2 bad flags or the new data refused.
 * @module
 */
import { metaFlagOf, optionTable, parseArgs, usage, valueOf } from "../../shared/cli/args.ts";
import { reportFailure } from "../../shared/cli/failure.ts";
import { ApiError } from "../../shared/errors.ts";
import { type ImportIo, runImport } from "./command.ts";

/** The Open Charge Map API: every POI, compact (reference data by id), one request. */
export const DEFAULT_OCM_URL = "https://api.openchargemap.io/v3/poi?output=json&compact=true&verbose=false&maxresults=10000000&client=charging-sites";
/** The reference data compact POIs need (providers with their licences, connection types). */
export const DEFAULT_OCM_REFERENCE_URL = "https://api.openchargemap.io/v3/referencedata?client=charging-sites";
const OVERPASS_QUERY = '[out:json][timeout:900][maxsize:2147483648];nwr["amenity"="charging_station"];out center meta;';
/** Every charging station in OpenStreetMap, ways and relations at their centre, with timestamps. */
export const DEFAULT_OSM_URL = `https://overpass-api.de/api/interpreter?data=${encodeURIComponent(OVERPASS_QUERY)}`;

export interface DownloadOptions {
  /** Request headers (the OCM key). */
  headers: Record<string, string>;
  /** Milliseconds without a byte (answer or body) before an attempt is abandoned. */
  idleTimeoutMs: number;
  /** Attempts after the first one, for network errors, timeouts, 429 and 5xx answers. */
  retries: number;
  /** Milliseconds before the first retry; doubled for each next one. */
  backoffMs: number;
}

/** What the refresh reads of a data-set file. */
export interface DataFacts {
  counts: Record<string, number>;
  importedAt: string;
  version: string;
}

export interface RefreshIo extends ImportIo {
  /** Streams `url` to the file `to`; resolves to its byte count. Throws UPSTREAM_UNAVAILABLE. */
  download(url: string, to: string, options: DownloadOptions): Promise<number>;
  /** Opens a data-set file with every check; undefined when there is none. Throws when it is unusable. */
  inspect(path: string): Promise<DataFacts | undefined>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
  /** A new empty folder for the downloads in the folder of `beside` (big files: not /tmp), and how to remove it. */
  workDir(beside: string): Promise<{ path: string; remove(): Promise<void> }>;
  env: Readonly<Record<string, string | undefined>>;
}

const REFRESH_USAGE = `usage: charging refresh [--out FILE] [--ocm-url URL] [--ocm-reference-url URL] [--osm-url URL]
                        [--ocm-key KEY] [--max-drop PERCENT] [--timeout SECONDS] [--retries N] [--backoff SECONDS]
  Downloads the latest Open Charge Map and OpenStreetMap data, imports it, checks it and renames
  the new snapshot over --out; a server serving that file (CHARGING_DATA) swaps to it on its own.
  --out                the snapshot to replace (default: CHARGING_DATA)
  --ocm-url            OCM POIs (default: the OCM API, every POI, compact)
  --ocm-reference-url  OCM reference data (default: the OCM API's /v3/referencedata)
  --osm-url            an Overpass JSON extract (default: every amenity=charging_station from overpass-api.de)
  --ocm-key            OCM API key, sent as X-API-Key (default: OCM_API_KEY)
  --max-drop           refuse the new data when it has more than this percent fewer sites than
                       the file it replaces, in total or per source (default 10)
  --timeout            seconds without a byte before a download attempt is abandoned (default 120)
  --retries            retries per download after network errors, timeouts, 429 and 5xx (default 3)
  --backoff            seconds before the first retry, doubled for each next one (default 5)
Exit codes: 0 replaced, 1 a download or the write failed (nothing replaced), 2 bad flags or the
new data refused (nothing replaced).`;

const OPTIONS = optionTable(
  ["out", "ocm-url", "ocm-reference-url", "osm-url", "ocm-key", "max-drop", "timeout", "retries", "backoff"],
  ["help"],
);

interface RefreshOptions {
  out: string;
  downloads: { name: string; url: string; headers: Record<string, string> }[];
  maxDrop: number;
  download: Omit<DownloadOptions, "headers">;
}

function numberOf(text: string | undefined, flag: string, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || value < 0 || value > max) throw usage(`--${flag} ${text} is not a number from 0 to ${max}`);
  return value;
}

function urlOf(text: string | undefined, flag: string, fallback: string): string {
  const url = text ?? fallback;
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) throw usage(`--${flag} ${url} is not an http(s) URL`);
  return url;
}

function optionsOf(args: readonly string[], env: RefreshIo["env"]): RefreshOptions {
  const parsed = parseArgs(args, OPTIONS);
  if (parsed.positionals.length > 0) throw usage(`refresh takes no file arguments (got "${parsed.positionals[0]}")`);
  const out = valueOf(parsed, "out") ?? env.CHARGING_DATA;
  if (!out) throw usage("--out FILE is required when CHARGING_DATA is not set");
  const key = valueOf(parsed, "ocm-key") ?? env.OCM_API_KEY;
  const ocm: Record<string, string> = key ? { "x-api-key": key } : {};
  const retries = numberOf(valueOf(parsed, "retries"), "retries", 3, 10);
  if (!Number.isInteger(retries)) throw usage(`--retries ${retries} is not a whole number`);
  return {
    out,
    downloads: [
      { name: "ocm-reference.json", url: urlOf(valueOf(parsed, "ocm-reference-url"), "ocm-reference-url", DEFAULT_OCM_REFERENCE_URL), headers: ocm },
      { name: "ocm-poi.json", url: urlOf(valueOf(parsed, "ocm-url"), "ocm-url", DEFAULT_OCM_URL), headers: ocm },
      { name: "osm-overpass.json", url: urlOf(valueOf(parsed, "osm-url"), "osm-url", DEFAULT_OSM_URL), headers: {} },
    ],
    maxDrop: numberOf(valueOf(parsed, "max-drop"), "max-drop", 10, 100),
    download: {
      idleTimeoutMs: numberOf(valueOf(parsed, "timeout"), "timeout", 120, 86_400) * 1000,
      retries,
      backoffMs: numberOf(valueOf(parsed, "backoff"), "backoff", 5, 3600) * 1000,
    },
  };
}

const megabytes = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;

async function downloadAll(opts: RefreshOptions, dir: string, io: RefreshIo): Promise<string[]> {
  const files: string[] = [];
  for (const { name, url, headers } of opts.downloads) {
    const to = `${dir}/${name}`;
    io.stderr(`refresh: downloading ${url}`);
    const bytes = await io.download(url, to, { ...opts.download, headers });
    io.stderr(`refresh: ${name}: ${megabytes(bytes)}`);
    files.push(to);
  }
  return files;
}

/** Imports `files` into `to`; the import's own JSON summary is left out (the refresh prints one). */
async function importInto(files: string[], to: string, io: RefreshIo): Promise<void> {
  const code = await runImport([...files, "--out", to], { ...io, stdout: () => {} });
  if (code !== 0) throw new ApiError(code === 1 ? "WRITE_FAILED" : "INVALID_DATA", `the import of the downloads failed (see the lines above), so ${to} was not written`);
}

/** The first count that fell by more than `maxDrop` percent, described; undefined when none did. */
export function countDrop(before: Record<string, number>, after: Record<string, number>, maxDrop: number): string | undefined {
  if ((after.sites ?? 0) === 0) return "the new data has no sites";
  // Per source first: it names what went missing (a source's download came back empty).
  const keys = Object.keys(before).sort((a, b) => Number(a === "sites") - Number(b === "sites"));
  for (const key of keys) {
    const was = before[key] as number;
    const now = after[key] ?? 0;
    if (was > 0 && now < was * (1 - maxDrop / 100)) {
      return `${key === "sites" ? "sites" : `${key} sites`} fell from ${was} to ${now}, more than the ${maxDrop}% --max-drop allows`;
    }
  }
  return undefined;
}

/** Reads the new file back and compares it with the one it replaces; throws INVALID_DATA to refuse it. */
async function verify(opts: RefreshOptions, candidate: string, io: RefreshIo): Promise<{ now: DataFacts; was?: DataFacts }> {
  const now = await io.inspect(candidate);
  if (!now) throw new ApiError("INVALID_DATA", `${candidate} was not written`);
  let was: DataFacts | undefined;
  try {
    was = await io.inspect(opts.out);
  } catch (err) {
    io.stderr(`refresh: ${opts.out} does not open (${(err as Error).message}); nothing to compare the counts with`);
  }
  const drop = was ? countDrop(was.counts, now.counts, opts.maxDrop) : countDrop({}, now.counts, opts.maxDrop);
  if (drop) throw new ApiError("INVALID_DATA", `refused the new data: ${drop}; ${opts.out} is unchanged (check the downloads, or raise --max-drop if the drop is real)`);
  return was ? { now, was } : { now };
}

async function run(opts: RefreshOptions, io: RefreshIo): Promise<number> {
  const work = await io.workDir(opts.out);
  const candidate = `${opts.out}.refresh`;
  try {
    const files = await downloadAll(opts, work.path, io);
    await importInto(files, candidate, io);
    const { now, was } = await verify(opts, candidate, io);
    await io.rename(candidate, opts.out);
    const before = was ? ` (was ${was.counts.sites}, imported ${was.importedAt})` : "";
    io.stderr(`refresh: replaced ${opts.out}: ${now.counts.sites} sites (ocm ${now.counts.ocm ?? 0}, osm ${now.counts.osm ?? 0})${before}; a server serving it swaps on its own`);
    io.stdout(JSON.stringify({ out: opts.out, counts: now.counts, version: now.version, importedAt: now.importedAt, previous: was?.counts ?? null }));
    return 0;
  } finally {
    await io.remove(candidate);
    await work.remove();
  }
}

/** Runs the refresh command; returns the exit code. */
export async function runRefresh(args: readonly string[], io: RefreshIo): Promise<number> {
  try {
    if (metaFlagOf(args) === "help") {
      io.stdout(REFRESH_USAGE);
      return 0;
    }
    return await run(optionsOf(args, io.env), io);
  } catch (err) {
    return reportFailure(err, "charging refresh --help", io.stderr);
  }
}
