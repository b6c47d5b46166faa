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
export function urlHash(url: string): number {
  return fnv(url, 0x811c9dc5) * 2 ** 21 + (fnv(url, 0x9747b28c) >>> 11);
}

/** How the pages reference a set of target URLs. */
export interface Reach {
  /** Pages referencing at least one of the targets. */
  pages: number;
  /** Per target URL, the pages referencing it. */
  perTarget: Map<string, number>;
}

export class LinkPool {
  #hashes = new Float64Array(4096);
  #length = 0;
  /** Where each page's hashes end in `#hashes`. */
  #ends: number[] = [];

  /** Records one page's link and resource URLs. */
  addPage(urls: readonly string[]): void {
    const seen = new Set<number>();
    for (const url of urls) {
      const hash = urlHash(url);
      if (seen.has(hash)) continue;
      seen.add(hash);
      if (this.#length === this.#hashes.length) {
        const grown = new Float64Array(this.#hashes.length * 2);
        grown.set(this.#hashes);
        this.#hashes = grown;
      }
      this.#hashes[this.#length++] = hash;
    }
    this.#ends.push(this.#length);
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
        const hash = this.#hashes[i] as number;
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
