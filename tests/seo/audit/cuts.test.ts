import assert from "node:assert/strict";
import { test } from "node:test";
import { cutsOf } from "../../../src/seo/audit/cuts.ts";
import { defaultBounds } from "../../../src/seo/crawl/bounds.ts";
import type { CrawlResult } from "../../../src/seo/crawl/crawler.ts";

function crawlCutAt(patterns: { pattern: string; count: number; example: string }[], notCrawled: number): CrawlResult {
  return {
    entries: new Map(),
    pages: 100,
    truncated: ["max_pages"],
    robots: [],
    cuts: { notKept: notCrawled, byReason: { max_pages: notCrawled, max_depth: 0 }, patterns },
  } as unknown as CrawlResult;
}

test("the max_pages cut names a URL pattern only when it holds a real share of what was cut", () => {
  const calendar = { pattern: "http://h/calendar?month=*", count: 3400, example: "http://h/calendar?month=7" };
  const pair = { pattern: "http://h/tag/*", count: 2, example: "http://h/tag/a" };
  const single = { pattern: "http://h/about", count: 1, example: "http://h/about" };
  const [cut] = cutsOf(crawlCutAt([calendar, pair, single], 3500), defaultBounds({}), new Map(), new Map());
  assert.deepEqual(cut?.examples, ["http://h/calendar?month=*: 3,400 URLs, e.g. http://h/calendar?month=7"]);
  const [small] = cutsOf(crawlCutAt([pair, single], 3), defaultBounds({}), new Map(), new Map());
  assert.deepEqual(small?.examples, [], "two URLs that share a pattern are not 'the commonest pattern'");
  assert.match(small?.detail ?? "", /3 more URLs found were not crawled/);
});
