/**
 * What the search tests share: seeded site data (cheap to make in the hundreds, so trees have
 * many cells and words) and paging a sync by cursor to its end.
 * @module
 */
import assert from "node:assert/strict";
import type { SiteQuery, Store } from "../../../src/charging/search/store.ts";

/** Few instants (and none), so many sites share one and their sync order is by id alone. */
export const STAMPS = ["2021-03-04T05:06:07Z", "2024-01-01T00:00:00.000Z", "2025-06-01T12:00:00.000Z", "2025-06-01T12:00:00.001Z", null];

/** A seeded random number in [0, 1) and a pick from a list by it (mulberry32-like, repeatable per seed). */
export function seeded(seed: number) {
  let a = seed >>> 0 || 1;
  const rand = () => ((a = Math.imul(a ^ (a >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 4294967296;
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)] as T;
  return { rand, pick };
}

type Page = Awaited<ReturnType<Store["search"]>>;

/**
 * The ids a sync of `q` gives, paged by cursor to its end (at most one page more than
 * `expected` has sites); every page's total is `expected`'s length, and `beforeNext` checks each
 * page a cursor follows.
 */
export async function syncedIds(store: Pick<Store, "search">, q: SiteQuery, expected: readonly string[], beforeNext?: (page: Page) => void): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages <= expected.length + 1; pages++) {
    const page = await store.search(cursor ? { ...q, cursor } : q);
    assert.equal(page.total, expected.length);
    seen.push(...page.data.map((s) => s.id));
    cursor = page.nextCursor;
    if (!cursor) break;
    beforeNext?.(page);
  }
  return seen;
}
