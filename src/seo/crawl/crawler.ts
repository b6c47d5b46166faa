/**
 * The bounded, polite crawler. Every URL is checked against its origin's robots.txt before it
 * is requested (redirect hops included); requests per host are spaced and limited; a crawl
 * that hits a bound stops cleanly and says which bound. Page bodies go to `visit` and are
 * dropped: only the frontier's compact entries outlive a page.
 *
 * Order: robots.txt, then the start page alone (its canonical may reveal a production twin,
 * its `<link rel=sitemap>` a sitemap), then sitemap discovery, then the workers.
 * @module
 */
import { ApiError } from "../../shared/errors.ts";
import type { CrawlBounds } from "./bounds.ts";
import { CrawlRun } from "./crawl-run.ts";
import type { CrawlDeps, CrawlResult, Visitor } from "./crawl-types.ts";
import { isOwnMachine, normaliseUrl } from "../fetch/url.ts";

export type { CrawlDeps, CrawlProgress, CrawlResult, PageVisit, Visitor } from "./crawl-types.ts";

export async function crawlSite(
  startUrl: string,
  bounds: CrawlBounds,
  deps: CrawlDeps,
  visit: Visitor,
): Promise<CrawlResult> {
  const began = performance.now();
  const start = normaliseUrl(startUrl);
  if (!start) throw new ApiError("INVALID_URL", `not an http(s) URL: ${startUrl.slice(0, 200)}`);
  const root = new URL(start);
  if (deps.politenessOff && !isOwnMachine(root)) {
    throw new ApiError(
      "INVALID_ARGUMENTS",
      "politeness can be switched off for sites on your own machine or network only",
    );
  }
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), bounds.maxSeconds * 1000);
  try {
    const crawl = new CrawlRun(start, bounds, deps, visit, deadline.signal);
    await crawl.checkStart();
    await crawl.crawlStart();
    if (bounds.sitemaps) await crawl.readSitemaps();
    await Promise.all(Array.from({ length: bounds.concurrency }, () => crawl.work()));
    await crawl.afterPages();
    return await crawl.finish(deadline.signal.aborted, performance.now() - began);
  } finally {
    clearTimeout(timer);
  }
}
