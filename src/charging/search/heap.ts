/**
 * A binary min-heap of (distance, key) pairs in two growable typed arrays: no object per
 * entry, and storage the garbage collector does not scan (a deep offset holds 100,000 entries).
 * Equal distances order by key, so KD cells (negative keys) come out before points at the
 * same distance, and points at the same distance in id order: nearest-first pages are
 * deterministic and consistent from one offset to the next.
 * @module
 */

const less = (d1: number, k1: number, d2: number, k2: number) => d1 < d2 || (d1 === d2 && k1 < k2);

export class DistanceHeap {
  #dist = new Float64Array(256);
  #key = new Float64Array(256);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Entries it holds room for without growing. */
  get capacity(): number {
    return this.#key.length;
  }

  /** Empties it, keeping its room (a heap is reused from walk to walk). */
  clear(): void {
    this.#size = 0;
  }

  /** The smallest distance held (call only when not empty). */
  peekDistance(): number {
    return this.#dist[0] as number;
  }

  push(dist: number, key: number): void {
    if (this.#size === this.#key.length) this.#grow();
    const d = this.#dist;
    const k = this.#key;
    let at = this.#size++;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const pd = d[parent] as number;
      const pk = k[parent] as number;
      if (pd < dist || (pd === dist && pk <= key)) break;
      d[at] = pd;
      k[at] = pk;
      at = parent;
    }
    d[at] = dist;
    k[at] = key;
  }

  /** Removes the smallest entry and answers its key (its distance is `peekDistance()` before the call). */
  pop(): number {
    const d = this.#dist;
    const k = this.#key;
    const top = k[0] as number;
    const n = --this.#size;
    if (n === 0) return top;
    const lastD = d[n] as number;
    const lastK = k[n] as number;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= n) break;
      const right = child + 1;
      if (right < n && less(d[right] as number, k[right] as number, d[child] as number, k[child] as number)) child = right;
      if (!less(d[child] as number, k[child] as number, lastD, lastK)) break;
      d[at] = d[child] as number;
      k[at] = k[child] as number;
      at = child;
    }
    d[at] = lastD;
    k[at] = lastK;
    return top;
  }

  #grow(): void {
    const dist = new Float64Array(this.#dist.length * 2);
    const key = new Float64Array(this.#key.length * 2);
    dist.set(this.#dist);
    key.set(this.#key);
    this.#dist = dist;
    this.#key = key;
  }
}
