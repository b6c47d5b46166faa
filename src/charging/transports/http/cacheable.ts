/**
 * Answers of a static cut, made cacheable: a strong entity tag per data cut, answer key and
 * content encoding; `if-none-match` answered 304 without a body; `cache-control` for a cut
 * that changes only when the operator deploys a new one; and compression (gzip, brotli where
 * the runtime offers it) of bodies over 1 KiB when the client accepts it, compressed bytes
 * kept per key in a bounded LRU from the key's second request on (second-sight.ts), so a
 * repeated query is compressed twice, not every time, and a map pan's one-off answer is not kept.
 * @module
 */
import { chooseEncoding, compress, type Compressor, type Encoding, MIN_COMPRESS_BYTES } from "./compress.ts";
import { fnv1a, httpDate, modified } from "./conditional.ts";
import { Lru } from "../../../shared/lru.ts";
import { createSecondSight } from "./second-sight.ts";
import { type PreparedJson, preparedJson } from "../../../shared/http/respond.ts";

/** Compressed answers kept (search answers are a few KB each once compressed). */
const COMPRESSED_KEPT = 256;

/** accept-encoding values whose choice is kept (browsers and clients send a handful). */
const ENCODING_CHOICES_KEPT = 64;

interface CacheableOptions {
  /** Names the data cut; a new cut changes every tag. */
  version: string;
  /** When the data cut was imported (ISO 8601): `last-modified`, and what `if-modified-since` is compared with. */
  lastModified?: string;
  cacheControl: string;
  encodings: readonly Encoding[];
  /** Default: `CompressionStream` at its defaults. */
  compress?: Compressor | undefined;
}

/** Answers `prepared` (the identity body of `key`) to `request`, with its media type (JSON by default). */
export type Cacheable = (request: Request, key: string, prepared: PreparedJson, type?: string) => Promise<Response>;

export function createCacheable(options: CacheableOptions): Cacheable {
  const { version, cacheControl, encodings, compress: compressor = compress } = options;
  const compressed = new Lru<string, Uint8Array<ArrayBuffer>>(COMPRESSED_KEPT);
  const askedBefore = createSecondSight();
  // The tag is hashed per request: a hash of the key costs less than remembering it per answer
  // (a WeakMap entry for every distinct query's answer, which map pans make by the thousand).
  const vary = encodings.length > 0 ? "accept, accept-encoding" : "accept";
  const date = options.lastModified === undefined ? undefined : httpDate(options.lastModified);

  // Clients send the same accept-encoding on every request: it is parsed once per distinct value.
  const choices = new Lru<string, Encoding | "">(ENCODING_CHOICES_KEPT);
  const encodingFor = (accept: string | null): Encoding | undefined => {
    if (accept === null) return undefined;
    let choice = choices.get(accept);
    if (choice === undefined) {
      choice = chooseEncoding(accept, encodings) ?? "";
      choices.set(accept, choice);
    }
    return choice || undefined;
  };

  const encoded = async (key: string, encoding: Encoding, bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>> => {
    const name = `${encoding}:${key}`;
    let body = compressed.get(name);
    if (!body) {
      body = await compressor(bytes, encoding);
      if (askedBefore(name)) compressed.set(name, body);
    }
    return body;
  };

  return async (request, key, prepared, type) => {
    const large = prepared.bytes.byteLength >= MIN_COMPRESS_BYTES;
    const encoding = large ? encodingFor(request.headers.get("accept-encoding")) : undefined;
    const etag = `"${version}-${fnv1a(key)}${encoding ? `-${encoding}` : ""}"`;
    const headers: Record<string, string> = { etag, "cache-control": cacheControl, vary };
    if (date) headers["last-modified"] = date.text;
    if (!modified(request, etag, date?.seconds)) return new Response(null, { status: 304, headers });
    if (type) headers["content-type"] = type;
    if (!encoding) return preparedJson(prepared, { headers });
    headers["content-encoding"] = encoding;
    return preparedJson({ bytes: await encoded(key, encoding, prepared.bytes) }, { headers });
  };
}
