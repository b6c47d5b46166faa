/**
 * Conditional GET (RFC 9110 13.1.2): `if-none-match` against an entity tag, compared weakly
 * (a `W/` prefix is ignored, as the RFC asks for this header); `*` matches any tag.
 * @module
 */

export function noneMatch(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  if (ifNoneMatch.trim() === "*") return false;
  const wanted = bare(etag);
  return !ifNoneMatch.split(",").some((tag) => bare(tag) === wanted);
}

/** FNV-1a (32 bit) of a string, as 8 hex digits: a short, stable name for a cache key. */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}
