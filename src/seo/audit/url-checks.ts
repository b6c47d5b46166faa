/**
 * The shape of a URL, as Screaming Frog's URL tab judges it (uppercase, underscores, parameters,
 * non-ASCII characters, multiple slashes), and the key that URL variants of one page share
 * (`/x/`, `/x/index.html`, `/X`, `/x?sort=a`, `http://www.…/x`), so duplicates can name their
 * root cause.
 * @module
 */
import type { CheckId } from "./catalogue.ts";

type HitFn = (id: CheckId, evidence: string) => void;

/** URL-structure findings of a crawled page's URL. */
export function urlHits(url: string, hit: HitFn): void {
  const parsed = new URL(url);
  const path = parsed.pathname;
  // Percent-escapes are upper-case by convention (RFC 3986): only the letters written count.
  if (/[A-Z]/.test(path.replace(/%[0-9A-F]{2}/gi, ""))) hit("url-uppercase", `path ${path}`);
  if (path.includes("_")) hit("url-underscores", `path ${path}`);
  if (parsed.search !== "") hit("url-parameters", `query ${parsed.search.slice(0, 80)}`);
  // Non-ASCII characters arrive percent-encoded as UTF-8 bytes of 0x80 and above.
  if (/%[89A-F][0-9A-F]/i.test(path)) hit("url-non-ascii", `path ${decodeSafely(path)}`);
  if (/\/\//.test(path)) hit("url-multiple-slashes", `path ${path}`);
}

function decodeSafely(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

const INDEX_FILE = /\/(?:index|default)\.(?:html?|php|aspx?)$/i;

/**
 * What makes `url` a variant of its plain form: http rather than https, a www. host, an index
 * file, case, a trailing slash, parameters. Variants of one page share the key.
 */
export function variantOf(url: string): { key: string; how: string[] } {
  const parsed = new URL(url);
  const how: string[] = [];
  if (parsed.protocol === "http:") how.push("http");
  if (parsed.hostname.startsWith("www.")) how.push("www");
  let path = parsed.pathname;
  if (INDEX_FILE.test(path)) {
    how.push("index file");
    path = path.replace(INDEX_FILE, "/");
  }
  if (path !== path.toLowerCase()) how.push("case");
  if (path.length > 1 && path.endsWith("/")) how.push("trailing slash");
  if (parsed.search !== "") how.push("parameters");
  const key = `${parsed.host.replace(/^www\./, "")}${path.toLowerCase().replace(/\/+$/, "") || "/"}`;
  return { key, how };
}
