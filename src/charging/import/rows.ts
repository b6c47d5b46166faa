/**
 * Reading an import file's rows as they stream in: a streaming JSON parser (@streamparser/json,
 * keeping nothing it has handed over) emits each array element (OCM POIs, Overpass elements,
 * GeoJSON features, data-set rows) and the few top-level values around them; JSON lines are
 * split and parsed one line at a time. Memory follows one row, not the file. Errors say what
 * is wrong and where: invalid UTF-8, invalid JSON at a byte position, a file that ends early.
 * @module
 */
import { JSONParser } from "../../../deps.ts";
import { type ApiError, isApiError, messageOf } from "../../shared/errors.ts";
import { type FileFormat, formatError } from "./source.ts";

interface RowHandler {
  /** One row (a value that does not parse, in JSON lines, arrives as `null`). */
  row(value: unknown): void;
  /** A top-level value beside the rows (`osm3s`, `timestamp`, `partitions`, ...). */
  meta(key: string, value: unknown): void;
  /** Content bytes read so far. */
  progress(bytes: number): void;
}

/** JSON paths per format, and how deep a row sits (0: the document is the row). */
const LAYOUT: Record<Exclude<FileFormat, "ocm-jsonl">, { paths: string[]; depth: number }> = {
  "ocm-json": { paths: ["$.*"], depth: 1 },
  "ocm-poi": { paths: ["$"], depth: 0 },
  "ocm-reference": { paths: ["$"], depth: 0 },
  "osm-overpass": { paths: ["$.osm3s", "$.elements.*"], depth: 2 },
  "osm-geojson": { paths: ["$.timestamp", "$.features.*"], depth: 2 },
  "charging-dataset": {
    paths: ["$.format", "$.importedAt", "$.sources", "$.partitions", "$.counts", "$.sites.*"],
    depth: 2,
  },
};

function explain(err: unknown, tokenAt: number): ApiError {
  const message = messageOf(err);
  if (/ended in (the )?mid/i.test(message) || /middle of a token/i.test(message))
    return formatError("the JSON ends before it is complete (is the file truncated?)");
  // Tokenizer errors carry their position; token-parser errors get the last token's.
  const where = /position/.test(message) ? "" : ` (at byte ${tokenAt})`;
  return formatError(`invalid JSON: ${message}${where}`);
}

/**
 * Feeds `handle` chunk by chunk. The JSON tokenizer reads stray bytes outside strings as
 * Latin-1, so UTF-8 is checked here, by a streaming strict decoder, to name the real problem.
 */
async function eachChunk(
  stream: ReadableStream<Uint8Array>,
  handle: (chunk: Uint8Array) => void,
  progress: (bytes: number) => void,
): Promise<number> {
  const reader = stream.getReader();
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  let bytes = 0;
  const checkUtf8 = (chunk: Uint8Array, final: boolean) => {
    try {
      utf8.decode(chunk, { stream: !final });
    } catch {
      throw formatError(`not UTF-8 text (in bytes ${bytes} to ${bytes + chunk.byteLength})`);
    }
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        checkUtf8(new Uint8Array(0), true);
        return bytes;
      }
      checkUtf8(value, false);
      handle(value);
      bytes += value.byteLength;
      progress(bytes);
    }
  } catch (err) {
    await reader.cancel().catch(() => {});
    throw err;
  }
}

async function readJson(format: keyof typeof LAYOUT, stream: ReadableStream<Uint8Array>, handler: RowHandler): Promise<void> {
  const { paths, depth } = LAYOUT[format];
  const parser = new JSONParser({ paths, keepStack: false });
  // A handler's own failure (missing reference data) passes through the parser untouched.
  let failure: unknown;
  parser.onValue = ({ value, key, stack }) => {
    try {
      if (stack.length === depth) handler.row(value);
      else if (typeof key === "string") handler.meta(key, value);
    } catch (err) {
      failure ??= err;
      throw err;
    }
  };
  let tokenAt = 0;
  parser.onToken = ({ offset }) => {
    tokenAt = offset;
  };
  try {
    await eachChunk(stream, (chunk) => parser.write(chunk), handler.progress);
    if (!parser.isEnded) parser.end();
  } catch (err) {
    if (failure !== undefined) throw failure;
    if (isApiError(err, "INVALID_DATA")) throw err;
    throw explain(err, tokenAt);
  }
}

/** JSON lines: one value per line; a line that does not parse is a `null` row (counted as malformed). */
async function readLines(stream: ReadableStream<Uint8Array>, handler: RowHandler): Promise<void> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let rest = "";
  let line = 0;
  const emit = (text: string) => {
    line++;
    if (text.trim() === "") return;
    try {
      handler.row(JSON.parse(text));
    } catch {
      handler.row(null);
    }
  };
  const take = (chunk: Uint8Array, final: boolean) => {
    try {
      rest += decoder.decode(chunk, { stream: !final });
    } catch {
      throw formatError(`not UTF-8 text (line ${line + 1})`);
    }
    const lines = rest.split("\n");
    rest = final ? "" : (lines.pop() as string);
    for (const text of lines) emit(text.replace(/\r$/, ""));
  };
  await eachChunk(stream, (chunk) => take(chunk, false), handler.progress);
  take(new Uint8Array(0), true);
}

/** Streams the rows of a file of `format` into `handler`. */
export function readRows(format: FileFormat, stream: ReadableStream<Uint8Array>, handler: RowHandler): Promise<void> {
  return format === "ocm-jsonl" ? readLines(stream, handler) : readJson(format, stream, handler);
}
