/** The link pool: which pages carry which targets, however many links the pages hold. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { LinkPool } from "../../../src/seo/audit/link-pool.ts";

const url = (i: number) => `https://example.test/p/${i}`;

test("link pool: pages carrying a target are counted once each, across many storage chunks", () => {
  const pool = new LinkPool();
  // 3,000 pages of 25 links: 75,000 hashes, several chunks, pages straddling their edges.
  for (let page = 0; page < 3000; page++) {
    const links = Array.from({ length: 25 }, (_, k) => url(page * 7 + k));
    if (page % 3 === 0) links.push(url(-1), url(-1)); // a link twice on a page counts once
    pool.addPage(links);
  }
  assert.equal(pool.pages, 3000);
  const reach = pool.reach([url(-1), url(-2), url(24)]);
  assert.equal(reach.perTarget.get(url(-1)), 1000);
  assert.equal(reach.perTarget.get(url(-2)), 0, "a target no page links to");
  // url(24) is link k of page p where 7p + k = 24, 0 <= k < 25: pages 0 to 3.
  assert.equal(reach.perTarget.get(url(24)), 4);
  // Pages 0 and 3 carry both url(-1) and url(24); pages 1 and 2 only url(24).
  assert.equal(reach.pages, 1002);
});

test("link pool: a page without links carries nothing", () => {
  const pool = new LinkPool();
  pool.addPage([]);
  pool.addPage([url(1)]);
  assert.deepEqual(pool.reach([url(1)]), { pages: 1, perTarget: new Map([[url(1), 1]]) });
});
