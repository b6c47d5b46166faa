/**
 * A small in-memory cache with a time-to-live per entry and a bound on entries, so repeated
 * tool calls do not spend provider quota and memory stays bounded however long the server runs.
 * @module
 */

export class TtlCache<T> {
  readonly #entries = new Map<string, { value: T; expires: number }>();
  readonly #max: number;
  readonly #clock: () => number;

  constructor(max = 500, clock: () => number = Date.now) {
    this.#max = max;
    this.#clock = clock;
  }

  get(key: string): T | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.#clock()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: T, ttlMs: number): void {
    this.#entries.delete(key);
    // Map keeps insertion order: the first key is the oldest entry.
    if (this.#entries.size >= this.#max) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, { value, expires: this.#clock() + ttlMs });
  }

  get size(): number {
    return this.#entries.size;
  }
}
