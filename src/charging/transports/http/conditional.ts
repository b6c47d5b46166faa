/**
 * Conditional GET (RFC 9110 13.1.2): `if-none-match` against an entity tag, compared weakly
 * (a `W/` prefix is ignored, as the RFC asks for this header); `*` matches any tag. Without
 * `if-none-match`, `if-modified-since` (13.1.3) against the data cut's import time: an answer
 * not modified since answers 304; a date that does not parse is ignored.
 * @module
 */

/** Whether the answer must be sent in full: false when the request's validators say the client holds it. */
export function modified(request: Request, etag: string, lastModified: number | undefined): boolean {
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch !== null || lastModified === undefined) return noneMatch(ifNoneMatch, etag);
  const since = Date.parse(request.headers.get("if-modified-since") ?? "");
  return Number.isNaN(since) || lastModified > since;
}

/** An HTTP date (IMF-fixdate) of an ISO instant, and the instant in whole seconds, as HTTP dates have. */
export function httpDate(iso: string): { text: string; seconds: number } | undefined {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return undefined;
  const seconds = Math.floor(ms / 1000) * 1000;
  return { text: new Date(seconds).toUTCString(), seconds };
}

function noneMatch(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  if (ifNoneMatch.trim() === "*") return false;
  const wanted = bare(etag);
  return !ifNoneMatch.split(",").some((tag) => bare(tag) === wanted);
}

/** FNV-1a (32 bit) of a string's UTF-16 code units, as an unsigned number. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** FNV-1a (32 bit) of a string, as 8 hex digits: a short, stable name for a cache key. */
export function fnv1a(text: string): string {
  return fnv1a32(text).toString(16).padStart(8, "0");
}
