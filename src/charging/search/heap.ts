/**
 * A binary min-heap of (distance, key) pairs in two parallel arrays (no object per entry).
 * Equal distances order by key, so KD cells (negative keys) come out before points at the
 * same distance, and points at the same distance in id order: nearest-first pages are
 * deterministic and consistent from one offset to the next.
 * @module
 */

export class DistanceHeap {
  readonly #dist: number[] = [];
  readonly #key: number[] = [];

  get size(): number {
    return this.#key.length;
  }

  /** The smallest distance held (call only when not empty). */
  peekDistance(): number {
    return this.#dist[0] as number;
  }

  push(dist: number, key: number): void {
    const d = this.#dist;
    const k = this.#key;
    let at = k.length;
    d.push(dist);
    k.push(key);
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
    const lastD = d.pop() as number;
    const lastK = k.pop() as number;
    const n = k.length;
    if (n === 0) return top;
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
}

const less = (d1: number, k1: number, d2: number, k2: number) => d1 < d2 || (d1 === d2 && k1 < k2);
