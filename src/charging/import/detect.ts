/**
 * Recognising an input file by its content (not its name): gzip is unpacked first, then the
 * JSON decides: an array of OCM POIs, OCM JSON lines (the mongoexport cache, MongoDB extended
 * JSON unwrapped), OCM reference data, Overpass JSON or overpass-turbo GeoJSON.
 * @module
 */
import { gunzip, isGzip } from "../../shared/stream/bytes.ts";
import { isOcmReference } from "./ocm-reference.ts";
import { isOcmPoi } from "./ocm.ts";
import { isGeoJson, isOverpass } from "./osm-formats.ts";

export type FileFormat = "ocm-json" | "ocm-jsonl" | "ocm-reference" | "osm-overpass" | "osm-geojson";

export interface DetectedFile {
  format: FileFormat;
  /** OCM formats: the rows; other formats: the whole document. */
  json: unknown;
}

export class FormatError extends Error {}

/** Raw open-data exports run to tens of MB; a gzip member expanding past this is refused. */
const MAX_GUNZIPPED_BYTES = 512 * 1024 * 1024;

/**
 * MongoDB extended JSON (as mongoexport writes it) to plain JSON: `{"$date": x}` -> x,
 * `{"$numberInt"|"$numberLong"|"$numberDouble": "n"}` -> n, and `_id` dropped.
 */
export function unwrapExtendedJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrapExtendedJson);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value);
  if (entries.length === 1) {
    const [key, inner] = entries[0] as [string, unknown];
    if (key === "$date") return typeof inner === "object" ? unwrapExtendedJson(inner) : inner;
    if (key === "$numberInt" || key === "$numberLong" || key === "$numberDouble") return Number(inner);
    if (key === "$oid") return inner;
  }
  const out: Record<string, unknown> = {};
  for (const [key, inner] of entries) if (key !== "_id") out[key] = unwrapExtendedJson(inner);
  return out;
}

/**
 * JSON lines whose first row is an OCM POI. A line that does not parse stays in place as
 * `null`, so the importer counts it as malformed instead of rejecting the whole export.
 */
function parseLines(text: string): unknown[] | undefined {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  const rows = lines.map((line) => {
    try {
      return unwrapExtendedJson(JSON.parse(line));
    } catch {
      return null;
    }
  });
  return rows.length > 0 && isOcmPoi(rows[0]) ? rows : undefined;
}

function classify(json: unknown): DetectedFile | undefined {
  if (Array.isArray(json)) {
    return json.length === 0 || json.some(isOcmPoi)
      ? { format: "ocm-json", json: unwrapExtendedJson(json) }
      : undefined;
  }
  if (isOcmReference(json)) return { format: "ocm-reference", json: unwrapExtendedJson(json) };
  if (isOverpass(json)) return { format: "osm-overpass", json };
  if (isGeoJson(json)) return { format: "osm-geojson", json };
  if (isOcmPoi(json)) return { format: "ocm-json", json: [unwrapExtendedJson(json)] };
  return undefined;
}

/** Detects a file's format; throws FormatError naming what was expected. */
export async function detectFile(bytes: Uint8Array): Promise<DetectedFile> {
  const raw = isGzip(bytes)
    ? await gunzip(bytes, MAX_GUNZIPPED_BYTES).catch(() => {
        throw new FormatError("gzip data is corrupt");
      })
    : bytes;
  if (raw === "too-large") throw new FormatError(`gzip data expands past ${MAX_GUNZIPPED_BYTES} bytes`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(raw).replace(/^\uFEFF/, "");
  } catch {
    throw new FormatError("not UTF-8 text");
  }
  let json: unknown;
  let parsed = false;
  try {
    json = JSON.parse(text);
    parsed = true;
  } catch {
    const rows = parseLines(text);
    if (rows) return { format: "ocm-jsonl", json: rows };
  }
  const found = parsed ? classify(json) : undefined;
  if (found) return found;
  throw new FormatError(
    "unknown format; expected OCM /v3/poi JSON (array or JSON lines, optionally gzip), OCM reference data, Overpass JSON or overpass-turbo GeoJSON",
  );
}
