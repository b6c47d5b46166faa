/**
 * Response compression. Which encodings a runtime offers, and the compressor, are the
 * adapter's choice: the default is the web-standard `CompressionStream` (gzip everywhere), but
 * it compresses at its library's defaults, brotli at quality 11 (17 ms of CPU for a 14 KB
 * answer, 35-90 times the answer itself), so the Node adapter brings its own at a dynamic
 * answer's quality (shim/node/compress.ts). The client's `accept-encoding` picks among the
 * offered encodings (q-values honoured, `q=0` refuses, `*` matches).
 * @module
 */

export type Encoding = "br" | "gzip";

/** CompressionStream format names per content-coding token. */
const FORMAT: Record<Encoding, string> = { br: "brotli", gzip: "gzip" };

/** Bodies smaller than this go out as they are: the headers would cost more than the saving. */
export const MIN_COMPRESS_BYTES = 1024;

/** The encoding to answer with: the offered one the client weighs highest (ties: offer order). */
export function chooseEncoding(acceptEncoding: string | null, offered: readonly Encoding[]): Encoding | undefined {
  if (!acceptEncoding || offered.length === 0) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((x) => x !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    if (name) weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  let best: Encoding | undefined;
  let bestWeight = 0;
  for (const encoding of offered) {
    const weight = weights.get(encoding) ?? weights.get("*") ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}

/** Compresses `bytes` with `encoding`. */
export type Compressor = (bytes: Uint8Array, encoding: Encoding) => Promise<Uint8Array<ArrayBuffer>>;

/** `bytes` compressed with `encoding` by `CompressionStream`, at its defaults. */
export async function compress(bytes: Uint8Array, encoding: Encoding): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new CompressionStream(FORMAT[encoding] as CompressionFormat) as unknown as TransformStream<Uint8Array, Uint8Array>);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
