/**
 * A set of strings kept as 64-bit hashes (two independent 32-bit FNV-1a variants) in an
 * open-addressing table kept at most half full: 16 to 32 bytes per member, whatever the length
 * of the URL. The crawl uses it for URLs it counts but will never fetch, so an infinite site
 * costs hashes, not strings. Two different URLs collide with odds of about n² / 2⁶⁵ (1 in 10⁷ at a million URLs);
 * a collision only makes one uncrawled URL count once instead of twice.
 * @module
 */

function hashPair(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  // 0 marks an empty slot, so a real hash never is 0 in both halves
  return [a >>> 0 || 1, b >>> 0];
}

export class SeenSet {
  #keys: Uint32Array;
  #size = 0;
  readonly #cap: number;

  /** Holds at most `cap` members; `add` answers "full" beyond that. */
  constructor(cap: number) {
    this.#cap = cap;
    this.#keys = new Uint32Array(2 * 64);
  }

  get size(): number {
    return this.#size;
  }

  #slot(a: number, b: number): number {
    const mask = this.#keys.length / 2 - 1;
    let slot = (a ^ Math.imul(b, 0x9e3779b1)) & mask;
    for (;;) {
      const at = slot * 2;
      const ka = this.#keys[at] as number;
      if (ka === 0 || (ka === a && this.#keys[at + 1] === b)) return slot;
      slot = (slot + 1) & mask;
    }
  }

  has(text: string): boolean {
    const [a, b] = hashPair(text);
    return this.#keys[this.#slot(a, b) * 2] !== 0;
  }

  /** "added", "present", or "full" when the cap is reached (nothing stored). */
  add(text: string): "added" | "present" | "full" {
    const [a, b] = hashPair(text);
    let at = this.#slot(a, b) * 2;
    if (this.#keys[at] !== 0) return "present";
    if (this.#size >= this.#cap) return "full";
    if ((this.#size + 1) * 2 > this.#keys.length / 2) {
      this.#grow();
      at = this.#slot(a, b) * 2;
    }
    this.#keys[at] = a;
    this.#keys[at + 1] = b;
    this.#size++;
    return "added";
  }

  #grow(): void {
    const old = this.#keys;
    this.#keys = new Uint32Array(old.length * 2);
    for (let at = 0; at < old.length; at += 2) {
      const a = old[at] as number;
      if (a === 0) continue;
      const slot = this.#slot(a, old[at + 1] as number) * 2;
      this.#keys[slot] = a;
      this.#keys[slot + 1] = old[at + 1] as number;
    }
  }
}
