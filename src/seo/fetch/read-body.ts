/**
 * Reading a response body up to a byte cap as it arrives: decoded to text, kept as raw bytes,
 * or streamed into a `TextSink` so no body is kept at all.
 * @module
 */
import { concatBytes } from "../../shared/stream/bytes.ts";
import { StreamDecoder } from "./charset.ts";
import type { HttpResponse } from "./http-request.ts";

/**
 * Takes a body's decoded text as it arrives; `end` follows the last chunk (not after a failed
 * read), and the read is over when it returns or its promise settles (a sink may hand the text
 * to another thread).
 */
export interface TextSink {
  write(text: string): void;
  end(): void | Promise<void>;
}

interface ReadResult {
  bytes: number;
  truncated: boolean;
}

/** Passes each chunk of the body to `take` until `maxBytes`; leaving early cancels the rest. */
async function readCapped(
  response: HttpResponse,
  maxBytes: number,
  take: (chunk: Uint8Array) => void,
): Promise<ReadResult> {
  let size = 0;
  let truncated = false;
  const step = (value: Uint8Array): boolean => {
    if (size + value.byteLength > maxBytes) {
      take(value.subarray(0, maxBytes - size));
      size = maxBytes;
      truncated = true;
      return false;
    }
    take(value);
    size += value.byteLength;
    return true;
  };
  if (response.readChunks) await response.readChunks(step);
  else for await (const value of response.body ?? []) if (!step(value)) break;
  return { bytes: size, truncated };
}

/** What reading a body gave: the text (`body`), the undecoded bytes (`raw`) or the `sink` it streamed into. */
interface BodyRead extends ReadResult {
  body?: string;
  raw?: Uint8Array;
  sink?: TextSink;
}

/** The body as text, or as raw bytes (`anyContentType`), or streamed into `sink`. */
export async function readBody(
  body: HttpResponse,
  type: string | null,
  maxBytes: number,
  anyContentType: boolean,
  sink: TextSink | undefined,
): Promise<BodyRead> {
  const decoder = anyContentType ? undefined : new StreamDecoder(type);
  if (sink && decoder) {
    // Decoding lags one chunk behind, so a body that came in one chunk is decoded in one call.
    let held: Uint8Array | undefined;
    const read = await readCapped(body, maxBytes, (chunk) => {
      if (held) sink.write(decoder.write(held));
      held = chunk;
    });
    sink.write(decoder.end(held));
    // A sink that answers later (another thread) must not keep the last chunk's buffer alive meanwhile.
    held = undefined;
    await sink.end();
    return { ...read, sink };
  }
  const chunks: Uint8Array[] = [];
  const read = await readCapped(body, maxBytes, (chunk) => chunks.push(chunk));
  const raw = concatBytes(chunks, read.bytes);
  if (!decoder) return { ...read, raw };
  return { ...read, body: decoder.end(raw) };
}
