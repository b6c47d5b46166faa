/**
 * Sitemaps (sitemaps.org protocol): `<urlset>` and `<sitemapindex>`, gzip by magic bytes,
 * at most 50,000 URLs and 50 MB uncompressed per file, parsed with fast-xml-parser.
 * @module
 */
import { XMLParser } from "../../../deps.ts";
import { gunzip, isGzip } from "../../shared/stream/bytes.ts";
import { messageOf } from "../../shared/errors.ts";

const SITEMAP_URL_LIMIT = 50_000;
const SITEMAP_BYTE_LIMIT = 50 * 1024 * 1024;

/**
 * A urlset's hreflang annotations (`<xhtml:link rel="alternate" hreflang href>` in a `<url>`):
 * how many entries carry them, the distinct codes written (up to 50, judged by the audit), and
 * entries whose alternate, listed in the same file, does not list them back.
 */
export interface SitemapHreflang {
  entries: number;
  codes: string[];
  missingReturn: { count: number; examples: string[] };
}

type ParsedSitemap =
  | { kind: "urlset"; urls: string[]; overLimit: boolean; badLastmod: string[]; hreflang?: SitemapHreflang }
  | { kind: "index"; sitemaps: string[] }
  | { kind: "invalid"; error: string };

const parser = new XMLParser({
  // Attributes are read for hreflang links only; every other element's are dropped.
  ignoreAttributes: (_name, path) => !/\.url\.(?:[\w-]+:)?link$/.test(String(path)),
  attributeNamePrefix: "",
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) => name === "url" || name === "sitemap" || name === "link",
});

const fieldsOf = (node: unknown): Record<string, unknown> =>
  node && typeof node === "object" ? (node as Record<string, unknown>) : {};

const locs = (items: unknown): string[] =>
  (Array.isArray(items) ? items : []).flatMap((item) => {
    const loc = item && typeof item === "object" ? (item as Record<string, unknown>).loc : undefined;
    return typeof loc === "string" && loc.trim() ? [loc.trim()] : [];
  });

/** W3C Datetime (the profile of ISO 8601 the sitemaps protocol requires for <lastmod>). */
const W3C_DATETIME = /^\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)?)?$/;

/** <lastmod> values that are not W3C Datetime or lie more than a day after `now` (examples, capped). */
function badLastmods(items: unknown, now: number | undefined): string[] {
  const bad: string[] = [];
  for (const item of Array.isArray(items) ? items : []) {
    const value = fieldsOf(item).lastmod;
    if (typeof value !== "string") continue;
    const text = value.trim();
    const future = now !== undefined && Date.parse(text) > now + 86_400_000;
    if ((!W3C_DATETIME.test(text) || future) && bad.length < 5) bad.push(text);
  }
  return bad;
}

const CODES_KEPT = 50;

/** The alternates of each annotated entry, then what the file's entries say of each other. */
function hreflangOf(items: unknown): SitemapHreflang | undefined {
  const alternates = new Map<string, Set<string>>();
  const codes = new Set<string>();
  for (const item of Array.isArray(items) ? items : []) {
    const { loc, link } = fieldsOf(item);
    if (typeof loc !== "string" || !Array.isArray(link)) continue;
    const hrefs = new Set<string>();
    for (const attrs of link.map(fieldsOf)) {
      if (typeof attrs.hreflang !== "string" || typeof attrs.href !== "string") continue;
      if (codes.size < CODES_KEPT) codes.add(attrs.hreflang.trim());
      hrefs.add(attrs.href.trim());
    }
    if (hrefs.size > 0) alternates.set(loc.trim(), hrefs);
  }
  if (alternates.size === 0) return undefined;
  const missingReturn = { count: 0, examples: [] as string[] };
  for (const [loc, hrefs] of alternates) {
    const silent = [...hrefs].find((href) => href !== loc && alternates.get(href)?.has(loc) === false);
    if (silent === undefined) continue;
    missingReturn.count++;
    if (missingReturn.examples.length < 3) missingReturn.examples.push(`${loc} → ${silent}`);
  }
  return { entries: alternates.size, codes: [...codes], missingReturn };
}

/** Parses a sitemap file's bytes (gzip or plain XML); `now` (ms) enables the future-lastmod check. */
export async function parseSitemap(
  bytes: Uint8Array,
  now?: number,
): Promise<ParsedSitemap & { gzip: boolean }> {
  const gzip = isGzip(bytes);
  let plain = bytes;
  if (gzip) {
    try {
      const out = await gunzip(bytes, SITEMAP_BYTE_LIMIT);
      if (out === "too-large") return { kind: "invalid", error: "more than 50 MB uncompressed", gzip };
      plain = out;
    } catch (err) {
      return { kind: "invalid", error: `gzip: ${messageOf(err)}`, gzip };
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
    const hreflang = hreflangOf(fieldsOf(urlset).url);
    return {
      kind: "urlset",
      badLastmod: badLastmods(fieldsOf(urlset).url, now),
      urls: urls.slice(0, SITEMAP_URL_LIMIT),
      overLimit: urls.length > SITEMAP_URL_LIMIT,
      ...(hreflang ? { hreflang } : {}),
      gzip,
    };
  }
  if (doc.sitemapindex !== undefined) {
    return { kind: "index", sitemaps: locs(fieldsOf(doc.sitemapindex).sitemap), gzip };
  }
  return { kind: "invalid", error: "root element is neither <urlset> nor <sitemapindex>", gzip };
}
