/**
 * Sitemaps (sitemaps.org protocol): `<urlset>` and `<sitemapindex>`, gzip by magic bytes,
 * at most 50,000 URLs and 50 MB uncompressed per file, parsed with fast-xml-parser.
 * @module
 */
import { XMLParser } from "../../../deps.ts";

export const SITEMAP_URL_LIMIT = 50_000;
export const SITEMAP_BYTE_LIMIT = 50 * 1024 * 1024;

export type ParsedSitemap =
  | { kind: "urlset"; urls: string[]; overLimit: boolean }
  | { kind: "index"; sitemaps: string[] }
  | { kind: "invalid"; error: string };

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) => name === "url" || name === "sitemap",
});

const isGzip = (bytes: Uint8Array) => bytes[0] === 0x1f && bytes[1] === 0x8b;

/** Gunzips with a size cap so a small bomb cannot expand without bound. */
export async function gunzip(
  bytes: Uint8Array,
  limit = SITEMAP_BYTE_LIMIT,
): Promise<Uint8Array | "too-large"> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream("gzip"));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return "too-large";
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

const fieldsOf = (node: unknown): Record<string, unknown> =>
  node && typeof node === "object" ? (node as Record<string, unknown>) : {};

const locs = (items: unknown): string[] =>
  (Array.isArray(items) ? items : []).flatMap((item) => {
    const loc = item && typeof item === "object" ? (item as Record<string, unknown>).loc : undefined;
    return typeof loc === "string" && loc.trim() ? [loc.trim()] : [];
  });

/** Parses a sitemap file's bytes (gzip or plain XML). */
export async function parseSitemap(bytes: Uint8Array): Promise<ParsedSitemap & { gzip: boolean }> {
  const gzip = isGzip(bytes);
  let plain = bytes;
  if (gzip) {
    try {
      const out = await gunzip(bytes);
      if (out === "too-large") return { kind: "invalid", error: "more than 50 MB uncompressed", gzip };
      plain = out;
    } catch (err) {
      return { kind: "invalid", error: `gzip: ${err instanceof Error ? err.message : String(err)}`, gzip };
    }
  }
  if (plain.byteLength > SITEMAP_BYTE_LIMIT) return { kind: "invalid", error: "more than 50 MB", gzip };
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(new TextDecoder().decode(plain), true) as Record<string, unknown>;
  } catch (err) {
    return {
      kind: "invalid",
      error: `XML: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`,
      gzip,
    };
  }
  const urlset = doc.urlset;
  if (urlset !== undefined) {
    const urls = locs(fieldsOf(urlset).url);
    return {
      kind: "urlset",
      urls: urls.slice(0, SITEMAP_URL_LIMIT),
      overLimit: urls.length > SITEMAP_URL_LIMIT,
      gzip,
    };
  }
  if (doc.sitemapindex !== undefined) {
    return { kind: "index", sitemaps: locs(fieldsOf(doc.sitemapindex).sitemap), gzip };
  }
  return { kind: "invalid", error: "root element is neither <urlset> nor <sitemapindex>", gzip };
}
