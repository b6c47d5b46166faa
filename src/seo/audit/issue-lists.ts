/**
 * The checks that hit each URL, for the page table and the charts. Most pages of a site share
 * their problems (a template's missing tags are every page's), so each distinct list of check
 * ids is kept once and a URL holds only its list's number: at a million pages that is a small
 * integer in a `Map` per page instead of an array per page (about 40 bytes a page, not 100).
 * @module
 */
import type { CheckId } from "./catalogue.ts";

/** What the page table and the charts read: a `Map` of arrays is one. */
export interface IssueReader {
  get(url: string): readonly CheckId[] | undefined;
  /** URLs with their lists, in the order each URL was first hit. */
  [Symbol.iterator](): Iterator<[string, readonly CheckId[]]>;
}

export class IssueLists implements IssueReader {
  /** Per URL, the number of its list. */
  readonly #byUrl = new Map<string, number>();
  /** Each distinct list once, never changed once made (URLs share them). */
  readonly #lists: (readonly CheckId[])[] = [];
  /** Per list, the list it becomes with one more id: one lookup per hit once a site's lists are known. */
  readonly #then: Map<CheckId, number>[] = [];
  /** Lists by their ids joined, so the same ids reached in two ways are one list. */
  readonly #byKey = new Map<string, number>();

  get size(): number {
    return this.#byUrl.size;
  }

  get(url: string): readonly CheckId[] | undefined {
    const at = this.#byUrl.get(url);
    return at === undefined ? undefined : this.#lists[at];
  }

  /** Adds `id` to the URL's list (an id may repeat: each hit counts). */
  add(url: string, id: CheckId): void {
    const at = this.#byUrl.get(url);
    if (at === undefined) {
      this.#byUrl.set(url, this.#listOf([id]));
      return;
    }
    const then = this.#then[at] as Map<CheckId, number>;
    let next = then.get(id);
    if (next === undefined) {
      next = this.#listOf((this.#lists[at] as readonly CheckId[]).concat(id));
      then.set(id, next);
    }
    this.#byUrl.set(url, next);
  }

  /** Takes every `id` out of the URL's list; a URL left with none is dropped. */
  remove(url: string, id: CheckId): void {
    const ids = this.get(url);
    if (!ids) return;
    const left = ids.filter((other) => other !== id);
    if (left.length > 0) this.#byUrl.set(url, this.#listOf(left));
    else this.#byUrl.delete(url);
  }

  *[Symbol.iterator](): Iterator<[string, readonly CheckId[]]> {
    for (const [url, at] of this.#byUrl) yield [url, this.#lists[at] as readonly CheckId[]];
  }

  #listOf(ids: readonly CheckId[]): number {
    const key = ids.join(" ");
    let at = this.#byKey.get(key);
    if (at === undefined) {
      at = this.#lists.length;
      this.#lists.push(ids);
      this.#then.push(new Map());
      this.#byKey.set(key, at);
    }
    return at;
  }
}
