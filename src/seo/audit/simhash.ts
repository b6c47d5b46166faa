/**
 * 64-bit SimHash over word 3-shingles (Charikar; Manku et al., "Detecting Near-Duplicates for
 * Web Crawling", WWW 2007), accumulated word by word so page text is never kept. Near-duplicate
 * grouping uses the pigeonhole trick: two hashes within 3 bits agree on one of four 16-bit blocks.
 * @module
 */

/** Hamming distance at or under which two pages count as near-duplicates (Manku et al.). */
const NEAR_DUPLICATE_BITS = 3;

function fmix(value: number): number {
  let h = value ^ (value >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * What an ASCII character is to a word: its code as hashed (letters folded to lower case) for
 * letters and digits, -1 for an apostrophe or hyphen (part of a word once one has started), 0
 * otherwise. One table read per character in the hottest loop of a crawl.
 */
const ASCII = Int16Array.from({ length: 128 }, (_, c) => {
  if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) return c;
  if (c >= 0x41 && c <= 0x5a) return c + 32;
  return c === 0x27 || c === 0x2d ? -1 : 0;
});

/** Beyond ASCII: anything that is not space or punctuation. */
function isWordCodeHigh(c: number): boolean {
  return c !== 0xa0 && !(c >= 0x2000 && c <= 0x206f) && !(c >= 0x3000 && c <= 0x303f) && c !== 0xfeff;
}

/** For a byte, its 8 bits spread into 8 four-bit fields: adding it counts each bit in its own field. */
const SPREAD = Int32Array.from({ length: 256 }, (_, byte) => {
  let spread = 0;
  for (let bit = 0; bit < 8; bit++) spread |= ((byte >>> bit) & 1) << (4 * bit);
  return spread;
});
/** A four-bit field holds 15: the packed counts are flushed into `#ones` every 15 shingles. */
const FLUSH_EVERY = 15;

export class SimHasher {
  /** Per bit, how many shingles had it set; a bit of the digest is set when most did. */
  readonly #ones = new Int32Array(64);
  /**
   * Counts not yet in `#ones`, eight bits to an int (byte j of the hash in `#packed[j]`): one
   * table add per byte instead of 64 per shingle, the hot loop of every crawl.
   */
  readonly #packed = new Int32Array(8);
  #pending = 0;
  #shingles = 0;
  #w1 = 0;
  #w2 = 0;
  #words = 0;
  /**
   * The word being read, as [hash so far, 1 when inside a word]: text arrives in pieces (stream
   * chunks, entities) and may split one. An Int32Array because a plain field holding the hash
   * boxes it on every store, which cost a third of this hot loop.
   */
  readonly #open = Int32Array.of(0x811c9dc5, 0);

  /** Words fed so far, a word still open included. */
  get words(): number {
    return this.#words + (this.#open[1] as number);
  }

  /**
   * Feeds the words of `text` (case-folded for ASCII); a word open at its end continues into
   * the next call until `endWord`. One pass over char codes, no substrings: this runs on every
   * page of a crawl.
   */
  addText(text: string): void {
    const open = this.#open;
    let hash = open[0] as number;
    let inWord = open[1] === 1;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const kind = c < 0x80 ? (ASCII[c] as number) : isWordCodeHigh(c) ? c : c === 0x2019 ? -1 : 0;
      if (kind > 0 || (kind < 0 && inWord)) {
        hash = Math.imul(hash ^ (kind > 0 ? kind : c), 0x01000193);
        inWord = true;
      } else if (inWord) {
        this.#addWord(hash >>> 0);
        hash = 0x811c9dc5;
        inWord = false;
      }
    }
    open[0] = hash;
    open[1] = inWord ? 1 : 0;
  }

  /** Ends the open word, if any (the text around a tag does not join). */
  endWord(): void {
    const open = this.#open;
    if (open[1] === 0) return;
    this.#addWord((open[0] as number) >>> 0);
    open[0] = 0x811c9dc5;
    open[1] = 0;
  }

  #addWord(w: number): void {
    this.#words++;
    if (this.#words >= 3) {
      const seed = fmix(Math.imul(this.#w1, 31) ^ Math.imul(this.#w2, 17) ^ w);
      this.#addShingle(seed);
    }
    this.#w1 = this.#w2;
    this.#w2 = w;
  }

  #addShingle(seed: number): void {
    const lo = seed;
    const hi = fmix(seed ^ 0x9e3779b9);
    const packed = this.#packed;
    this.#shingles++;
    packed[0] = (packed[0] as number) + (SPREAD[lo & 255] as number);
    packed[1] = (packed[1] as number) + (SPREAD[(lo >>> 8) & 255] as number);
    packed[2] = (packed[2] as number) + (SPREAD[(lo >>> 16) & 255] as number);
    packed[3] = (packed[3] as number) + (SPREAD[lo >>> 24] as number);
    packed[4] = (packed[4] as number) + (SPREAD[hi & 255] as number);
    packed[5] = (packed[5] as number) + (SPREAD[(hi >>> 8) & 255] as number);
    packed[6] = (packed[6] as number) + (SPREAD[(hi >>> 16) & 255] as number);
    packed[7] = (packed[7] as number) + (SPREAD[hi >>> 24] as number);
    if (++this.#pending === FLUSH_EVERY) this.#flush();
  }

  #flush(): void {
    const packed = this.#packed;
    const ones = this.#ones;
    for (let j = 0; j < 8; j++) {
      const fields = packed[j] as number;
      for (let k = 0; k < 8; k++) ones[j * 8 + k] = (ones[j * 8 + k] as number) + ((fields >>> (4 * k)) & 15);
      packed[j] = 0;
    }
    this.#pending = 0;
  }

  /** The hash as two unsigned 32-bit halves, or undefined for texts under 3 words. */
  digest(): [number, number] | undefined {
    this.endWord();
    this.#flush();
    if (this.#words < 3) return undefined;
    let lo = 0;
    let hi = 0;
    for (let bit = 0; bit < 32; bit++) {
      if ((this.#ones[bit] as number) * 2 > this.#shingles) lo |= 1 << bit;
      if ((this.#ones[bit + 32] as number) * 2 > this.#shingles) hi |= 1 << bit;
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

/** SimHashes in the order they were added, 8 bytes each: a million pages' fit in 8 MiB, not in a million arrays. */
export class SimHashList {
  #halves = new Uint32Array(2 * 1024);
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(hash: readonly [number, number]): void {
    if (this.#length * 2 === this.#halves.length) {
      const grown = new Uint32Array(this.#halves.length * 2);
      grown.set(this.#halves);
      this.#halves = grown;
    }
    this.#halves[this.#length * 2] = hash[0];
    this.#halves[this.#length * 2 + 1] = hash[1];
    this.#length++;
  }

  lo(i: number): number {
    return this.#halves[i * 2] as number;
  }

  hi(i: number): number {
    return this.#halves[i * 2 + 1] as number;
  }
}

/** An Int32Array that doubles as it fills. */
class Int32List {
  values = new Int32Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }
}

/** The four 16-bit blocks of hash `i`, each as a bucket key (block * 4 + its place). */
function blockKeys(hashes: SimHashList, i: number, keys: Int32Array): void {
  const lo = hashes.lo(i);
  const hi = hashes.hi(i);
  keys[0] = (lo & 0xffff) * 4;
  keys[1] = (lo >>> 16) * 4 + 1;
  keys[2] = (hi & 0xffff) * 4 + 2;
  keys[3] = (hi >>> 16) * 4 + 3;
}

function distance(hashes: SimHashList, a: number, b: number): number {
  return popcount((hashes.lo(a) ^ hashes.lo(b)) >>> 0) + popcount((hashes.hi(a) ^ hashes.hi(b)) >>> 0);
}

/**
 * Groups the hashes within `NEAR_DUPLICATE_BITS` of each other, as lists of their places in
 * `hashes`; each hash is compared only with group representatives sharing a 16-bit block, so
 * identical sites stay linear. Groups come in the order their first member was added, members
 * in the order they were added. Every list is a typed array (a bucket is a chain through
 * `next`, in the order its representatives came), so a million pages cost tens of MiB, not
 * hundreds.
 */
export function nearDuplicateGroups(hashes: SimHashList): number[][] {
  const head = new Int32Array(4 * 65536).fill(-1);
  const tail = new Int32Array(4 * 65536).fill(-1);
  /** Per representative, its hash's place; per bucket entry (representative * 4 + block), the next entry. */
  const reps = new Int32List();
  const next = new Int32List();
  const groupOf = new Int32Array(hashes.length);
  const keys = new Int32Array(4);
  for (let i = 0; i < hashes.length; i++) {
    blockKeys(hashes, i, keys);
    let found = -1;
    for (let k = 0; k < 4 && found < 0; k++)
      for (let entry = head[keys[k] as number] as number; entry >= 0; entry = next.values[entry] as number)
        if (distance(hashes, reps.values[entry >> 2] as number, i) <= NEAR_DUPLICATE_BITS) {
          found = entry >> 2;
          break;
        }
    if (found >= 0) {
      groupOf[i] = found;
      continue;
    }
    const rep = reps.length;
    reps.push(i);
    groupOf[i] = rep;
    for (let k = 0; k < 4; k++) {
      const key = keys[k] as number;
      const entry = rep * 4 + k;
      next.push(-1);
      if ((tail[key] as number) < 0) head[key] = entry;
      else next.values[tail[key] as number] = entry;
      tail[key] = entry;
    }
  }
  return membersOf(groupOf, reps.length);
}

/** The groups of two or more members, in group order. */
function membersOf(groupOf: Int32Array, groups: number): number[][] {
  const sizes = new Int32Array(groups);
  for (const group of groupOf) sizes[group] = (sizes[group] as number) + 1;
  const lists = new Map<number, number[]>();
  for (let i = 0; i < groupOf.length; i++) {
    const group = groupOf[i] as number;
    if ((sizes[group] as number) < 2) continue;
    const list = lists.get(group);
    if (list) list.push(i);
    else lists.set(group, [i]);
  }
  // A group's first member is its representative, so first-member order is group order.
  return [...lists.values()];
}
