/**
 * Which pages reference which URLs, kept as 53-bit hashes (8 bytes a link) rather than URL
 * strings, so that a finding about link targets (a broken link, a link to a redirect) can say
 * how many pages carry it: the pages a professional edits, not the targets they point at.
 * A page's links are deduplicated per page; a hash collision (odds about n²/2⁵⁴) can only make
 * a page count as carrying a link it does not have.
 * @module
 */

/** FNV-1a over UTF-16 code units with a given offset basis. */
function fnv(text: string, basis: number): number {
  let h = basis;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A URL's 53-bit hash: two 32-bit FNV-1a hashes, one cut to 21 bits. */
function urlHash(url: string): number {
  return fnv(url, 0x811c9dc5) * 2 ** 21 + (fnv(url, 0x9747b28c) >>> 11);
}

/** How the pages reference a set of target URLs. */
interface Reach {
  /** Pages referencing at least one of the targets. */
  pages: number;
  /** Per target URL, the pages referencing it. */
  perTarget: Map<string, number>;
}

/** Hashes per chunk (128 KiB). */
const CHUNK_BITS = 14;
const CHUNK = 2 ** CHUNK_BITS;

/**
 * The hashes sit in fixed-size chunks that are appended, never copied: an array doubled as it
 * grew held up to twice what it stored, and three times while it was copied.
 */
export class LinkPool {
  #chunks: Float64Array[] = [];
  #length = 0;
  /** Where each page's hashes end. */
  #ends: number[] = [];

  /** Records one page's link and resource URLs. */
  addPage(urls: readonly string[]): void {
    const seen = new Set<number>();
    for (const url of urls) {
      const hash = urlHash(url);
      if (seen.has(hash)) continue;
      seen.add(hash);
      this.#push(hash);
    }
    this.#ends.push(this.#length);
  }

  #push(hash: number): void {
    const offset = this.#length & (CHUNK - 1);
    if (offset === 0) this.#chunks.push(new Float64Array(CHUNK));
    (this.#chunks[this.#chunks.length - 1] as Float64Array)[offset] = hash;
    this.#length++;
  }

  #hashAt(i: number): number {
    return (this.#chunks[i >>> CHUNK_BITS] as Float64Array)[i & (CHUNK - 1)] as number;
  }

  get pages(): number {
    return this.#ends.length;
  }

  /** The pages that reference any of `targets`, in all and per target. */
  reach(targets: Iterable<string>): Reach {
    const byHash = new Map<number, string>();
    for (const url of targets) byHash.set(urlHash(url), url);
    const perHash = new Map<number, number>();
    let pages = 0;
    let start = 0;
    for (const end of this.#ends) {
      let carries = false;
      for (let i = start; i < end; i++) {
        const hash = this.#hashAt(i);
        if (!byHash.has(hash)) continue;
        carries = true;
        perHash.set(hash, (perHash.get(hash) ?? 0) + 1);
      }
      if (carries) pages++;
      start = end;
    }
    const perTarget = new Map<string, number>();
    for (const [hash, url] of byHash) perTarget.set(url, perHash.get(hash) ?? 0);
    return { pages, perTarget };
  }
}
