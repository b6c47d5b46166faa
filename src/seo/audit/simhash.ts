/**
 * 64-bit SimHash over word 3-shingles (Charikar; Manku et al., "Detecting Near-Duplicates for
 * Web Crawling", WWW 2007), accumulated word by word so page text is never kept. Near-duplicate
 * grouping uses the pigeonhole trick: two hashes within 3 bits agree on one of four 16-bit blocks.
 * @module
 */

/** Hamming distance at or under which two pages count as near-duplicates (Manku et al.). */
export const NEAR_DUPLICATE_BITS = 3;

function fnv1a(word: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

function fmix(value: number): number {
  let h = value ^ (value >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export class SimHasher {
  readonly #weights = new Int32Array(64);
  #w1 = 0;
  #w2 = 0;
  #words = 0;

  add(word: string): void {
    const w = fnv1a(word);
    this.#words++;
    if (this.#words >= 3) this.#addShingle(Math.imul(this.#w1, 31) ^ Math.imul(this.#w2, 17) ^ w);
    this.#w1 = this.#w2;
    this.#w2 = w;
  }

  #addShingle(seed: number): void {
    const lo = fmix(seed);
    const hi = fmix(seed ^ 0x9e3779b9);
    const weights = this.#weights;
    for (let bit = 0; bit < 32; bit++) {
      weights[bit] = (weights[bit] as number) + (((lo >>> bit) & 1) === 1 ? 1 : -1);
      weights[bit + 32] = (weights[bit + 32] as number) + (((hi >>> bit) & 1) === 1 ? 1 : -1);
    }
  }

  /** The hash as two unsigned 32-bit halves, or undefined for texts under 3 words. */
  digest(): [number, number] | undefined {
    if (this.#words < 3) return undefined;
    let lo = 0;
    let hi = 0;
    for (let bit = 0; bit < 32; bit++) {
      if ((this.#weights[bit] as number) > 0) lo |= 1 << bit;
      if ((this.#weights[bit + 32] as number) > 0) hi |= 1 << bit;
    }
    return [lo >>> 0, hi >>> 0];
  }
}

function popcount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

export function hammingDistance(a: [number, number], b: [number, number]): number {
  return popcount((a[0] ^ b[0]) >>> 0) + popcount((a[1] ^ b[1]) >>> 0);
}

/**
 * Groups items whose hashes are within `NEAR_DUPLICATE_BITS`; each new item is compared only
 * with group representatives sharing a 16-bit block, so identical sites stay linear.
 */
export function nearDuplicateGroups<T>(items: { hash: [number, number]; item: T }[]): T[][] {
  const reps: { hash: [number, number]; members: T[] }[] = [];
  const buckets = new Map<number, number[]>();
  const blocks = (h: [number, number]) => [h[0] & 0xffff, h[0] >>> 16, h[1] & 0xffff, h[1] >>> 16];
  for (const { hash, item } of items) {
    const keys = blocks(hash).map((block, i) => block * 4 + i);
    let found: number | undefined;
    for (const key of keys) {
      for (const index of buckets.get(key) ?? []) {
        if (hammingDistance((reps[index] as { hash: [number, number] }).hash, hash) <= NEAR_DUPLICATE_BITS) {
          found = index;
          break;
        }
      }
      if (found !== undefined) break;
    }
    if (found !== undefined) {
      reps[found]?.members.push(item);
      continue;
    }
    reps.push({ hash, members: [item] });
    for (const key of keys) {
      const list = buckets.get(key);
      if (list) list.push(reps.length - 1);
      else buckets.set(key, [reps.length - 1]);
    }
  }
  return reps.map((rep) => rep.members).filter((members) => members.length > 1);
}
