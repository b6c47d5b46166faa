/**
 * Sets of small non-negative integers without a `Set`'s per-entry cost.
 * @module
 */

/**
 * A set of 30-bit keys in one open-addressing Int32Array kept at most half full: 8 to 16 bytes
 * a key where a `Set` of numbers takes about 25, which at a million distinct titles, descriptions
 * and H1s was three sets of 25 MiB each, held at once (the duplicate checks' first passes).
 */
export class KeySet {
  #slots = new Int32Array(1024).fill(-1);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  #slot(key: number): number {
    const mask = this.#slots.length - 1;
    let at = Math.imul(key, 0x9e3779b1) & mask;
    while (this.#slots[at] !== -1 && this.#slots[at] !== key) at = (at + 1) & mask;
    return at;
  }

  has(key: number): boolean {
    return this.#slots[this.#slot(key)] === key;
  }

  /** Adds a key (30 bits, not negative); false when it was there already. */
  add(key: number): boolean {
    const at = this.#slot(key);
    if (this.#slots[at] === key) return false;
    this.#slots[at] = key;
    if (++this.#size * 2 > this.#slots.length) this.#grow();
    return true;
  }

  #grow(): void {
    const old = this.#slots;
    this.#slots = new Int32Array(old.length * 2).fill(-1);
    for (const key of old) if (key !== -1) this.#slots[this.#slot(key)] = key;
  }
}
