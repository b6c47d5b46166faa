/**
 * An import file as a stream: gzip is recognised by its magic bytes and unpacked with
 * `DecompressionStream`, then the format is told from the first 64 KiB of the content (never
 * the name): a JSON array of OCM POIs, OCM JSON lines (the mongoexport cache), one POI
 * object, OCM reference data, Overpass JSON, overpass-turbo GeoJSON or a data set in the
 * `charging-sites/1` format. Nothing reads a whole file: the rest streams on.
 * @module
 */
import { Tokenizer } from "../../../deps.ts";
import { ApiError } from "../../shared/errors.ts";
import { concatBytes } from "../../shared/stream/bytes.ts";
import { DATASET_FORMAT } from "../data/dataset.ts";
import { unwrapExtendedJson } from "./extended-json.ts";
import { isOcmPoi } from "./ocm.ts";

export type FileFormat =
  | "ocm-json"
  | "ocm-poi"
  | "ocm-jsonl"
  | "ocm-reference"
  | "osm-overpass"
  | "osm-geojson"
  | "charging-dataset";

/** A file the importer cannot read (INVALID_DATA); the message says what is wrong and what was expected. */
export const formatError = (message: string) => new ApiError("INVALID_DATA", message);

const UNKNOWN_FORMAT =
  "unknown format; expected OCM /v3/poi JSON (array or JSON lines, optionally gzip), OCM reference data, Overpass JSON, overpass-turbo GeoJSON or a charging-sites/1 data set";

const SNIFF_BYTES = 64 * 1024;

/** The first `min` bytes of `stream` (fewer at its end) and a stream replaying everything. */
async function peek(
  stream: ReadableStream<Uint8Array>,
  min: number,
): Promise<{ head: Uint8Array; ended: boolean; replay: ReadableStream<Uint8Array> }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  while (size < min) {
    const { done, value } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  const head = concatBytes(chunks, size);
  const replay = new ReadableStream<Uint8Array>({
    start(controller) {
      if (size > 0) controller.enqueue(head);
      if (ended) controller.close();
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { head, ended, replay };
}

/** Turns DecompressionStream failures into an INVALID_DATA error the user can act on. */
function gunzipped(stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const unpacked = stream.pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>);
  const reader = unpacked.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch {
        controller.error(formatError("gzip data is corrupt or truncated"));
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** Top-level keys (and the top-level `type` and `format` values) found in a JSON prefix. */
function topLevel(head: Uint8Array): { keys: Set<string>; type?: string; format?: string } {
  const found: { keys: Set<string>; type?: string; format?: string } = { keys: new Set() };
  const tokenizer = new Tokenizer();
  let depth = 0;
  let expectKey = false;
  let lastKey = "";
  tokenizer.onToken = ({ token, value }) => {
    if (token === 0 /* LEFT_BRACE */ || token === 2 /* LEFT_BRACKET */) {
      depth++;
      expectKey = token === 0 && depth === 1;
    } else if (token === 1 /* RIGHT_BRACE */ || token === 3 /* RIGHT_BRACKET */) depth--;
    else if (token === 5 /* COMMA */ && depth === 1) expectKey = true;
    else if (token === 9 /* STRING */ && depth === 1 && expectKey) {
      lastKey = String(value);
      found.keys.add(lastKey);
      expectKey = false;
    } else if (token === 9 && depth === 1 && (lastKey === "type" || lastKey === "format")) {
      found[lastKey] = String(value);
    }
  };
  try {
    tokenizer.write(head);
  } catch {
    // Only a prefix: it may stop inside a value, and the full parse reports real errors.
  }
  return found;
}

function firstLineIsPoi(text: string): boolean {
  const newline = text.indexOf("\n");
  if (newline < 0 || text.slice(newline).trim() === "") return false;
  try {
    return isOcmPoi(unwrapExtendedJson(JSON.parse(text.slice(0, newline))));
  } catch {
    return false;
  }
}

function classify(head: Uint8Array): FileFormat {
  const text = new TextDecoder().decode(head).replace(/^\uFEFF/, "").trimStart();
  if (text.startsWith("[")) return "ocm-json";
  if (!text.startsWith("{")) throw formatError(UNKNOWN_FORMAT);
  if (firstLineIsPoi(text)) return "ocm-jsonl";
  const { keys, type, format } = topLevel(head);
  if (keys.has("elements")) return "osm-overpass";
  if (type === "FeatureCollection" || keys.has("features")) return "osm-geojson";
  if (format === DATASET_FORMAT) return "charging-dataset";
  if (keys.has("ConnectionTypes") || keys.has("DataProviders")) return "ocm-reference";
  if (keys.has("ID") && keys.has("AddressInfo")) return "ocm-poi";
  throw formatError(UNKNOWN_FORMAT);
}

/** Unpacks gzip and tells the format; the returned stream replays the file from its start. */
export async function openSource(
  raw: ReadableStream<Uint8Array>,
): Promise<{ format: FileFormat; gzip: boolean; stream: ReadableStream<Uint8Array> }> {
  const magic = await peek(raw, 2);
  const gzip = magic.head[0] === 0x1f && magic.head[1] === 0x8b;
  const content = gzip ? gunzipped(magic.replay) : magic.replay;
  const sniffed = await peek(content, SNIFF_BYTES);
  try {
    return { format: classify(sniffed.head), gzip, stream: sniffed.replay };
  } catch (err) {
    await sniffed.replay.cancel().catch(() => {});
    throw err;
  }
}
