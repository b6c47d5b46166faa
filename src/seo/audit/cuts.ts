/**
 * What the crawl's bounds cut, and why, in words a report can show: pages not crawled (with
 * the URL patterns that kept growing), pages cut at the byte cap, requests that timed out,
 * redirect chains given up, links not followed, sitemap files and bytes not read.
 * @module
 */
import type { CrawlBounds } from "../crawl/bounds.ts";
import type { CrawlResult } from "../crawl/crawler.ts";
import type { CheckHits } from "./collector.ts";
import type { CheckId } from "./catalogue.ts";
import type { PageFacts } from "./page-facts.ts";

export interface Cut {
  /** The bound that cut: max_pages, max_depth, max_seconds, cancelled, frontier_full, max_bytes, timeout_ms, max_redirects, links_per_page, sitemap_files, sitemap_bytes, robots_bytes, host_stopped. */
  bound: string;
  /** URLs (or pages, files) affected. */
  urls: number;
  detail: string;
  examples: string[];
}

const n = (value: number) => value.toLocaleString("en");

/** A pattern is worth naming when it holds this many of the URLs cut, and at least 5 % of them. */
const PATTERN_MIN_URLS = 10;

/**
 * The commonest patterns, as "pattern: N URLs, e.g. URL": only patterns that account for a real
 * share of what was cut (an endless calendar, a faceted search), not two URLs that happen to match.
 */
function patternList(crawl: CrawlResult, cut: number): string[] {
  const floor = Math.max(PATTERN_MIN_URLS, cut * 0.05);
  return crawl.cuts.patterns
    .filter((p) => p.pattern !== p.example && p.count >= floor)
    .map((p) => `${p.pattern}: ${n(p.count)} URLs, e.g. ${p.example}`);
}

function crawlCuts(crawl: CrawlResult, bounds: CrawlBounds, out: Cut[]): void {
  let queued = 0;
  for (const e of crawl.entries.values()) if (e.kind === "page" && e.state === "queued") queued++;
  queued += Math.max(0, (crawl.sitemaps?.urls.length ?? 0) - countSitemapDrawn(crawl));
  const { byReason } = crawl.cuts;
  const reasons = crawl.truncated;
  if (reasons.includes("max_pages"))
    out.push({
      bound: "max_pages",
      urls: queued + byReason.max_pages,
      detail: `${n(crawl.pages)} pages fetched, the page budget (max_pages ${n(bounds.maxPages)}); ${n(queued + byReason.max_pages)} more URLs found were not crawled`,
      examples: patternList(crawl, queued + byReason.max_pages),
    });
  if (reasons.includes("max_seconds") || reasons.includes("max_seconds_resources_unchecked"))
    out.push({
      bound: "max_seconds",
      urls: queued,
      detail: `the time budget (max_seconds ${n(bounds.maxSeconds)}) ran out with ${n(queued)} URLs still queued`,
      examples: [],
    });
  if (reasons.includes("cancelled"))
    out.push({ bound: "cancelled", urls: queued, detail: `stopped by the user with ${n(queued)} URLs queued`, examples: [] });
  if (byReason.max_depth > 0)
    out.push({
      bound: "max_depth",
      urls: byReason.max_depth,
      detail: `${n(byReason.max_depth)} URLs more than ${bounds.maxDepth} clicks from the start URL were not followed`,
      examples: reasons.includes("max_pages") ? [] : patternList(crawl, byReason.max_depth),
    });
  if (reasons.includes("frontier_full"))
    out.push({
      bound: "frontier_full",
      urls: 0,
      detail: "more URLs were found than the crawl counts (an endless URL space): the counts above are lower bounds",
      examples: [],
    });
}

function countSitemapDrawn(crawl: CrawlResult): number {
  let drawn = 0;
  for (const url of crawl.sitemaps?.urls ?? []) if (crawl.entries.has(url)) drawn++;
  return drawn;
}

function hitCut(byCheck: ReadonlyMap<CheckId, CheckHits>, id: CheckId, match: RegExp | undefined, cut: Omit<Cut, "urls" | "examples">, out: Cut[]): void {
  const hits = (byCheck.get(id)?.hits ?? []).filter((h) => !match || match.test(h.evidence));
  if (hits.length === 0) return;
  const count = match ? hits.length : (byCheck.get(id)?.count ?? hits.length);
  out.push({ ...cut, urls: count, examples: hits.slice(0, 3).map((h) => `${h.url}: ${h.evidence}`) });
}

function pageCuts(byCheck: ReadonlyMap<CheckId, CheckHits>, bounds: CrawlBounds, out: Cut[]): void {
  const mib = (bounds.maxBytes / 1048576).toFixed(0);
  hitCut(byCheck, "page-truncated", undefined, { bound: "max_bytes", detail: `pages larger than ${mib} MiB: reading stopped at the cap, the rest was not audited` }, out);
  hitCut(byCheck, "fetch-failed", /timeout/, { bound: "timeout_ms", detail: `requests that took longer than ${n(bounds.timeoutMs)} ms (slow or dripping servers) were given up` }, out);
  hitCut(byCheck, "redirect-loop", /more than/, { bound: "max_redirects", detail: `redirect chains longer than ${bounds.maxRedirects} hops were given up` }, out);
  hitCut(byCheck, "host-stopped", undefined, { bound: "host_stopped", detail: "a host answering 5xx/429 five times in a row was left alone" }, out);
}

function linkCuts(summaries: PageFacts, out: Cut[]): void {
  let urls = 0;
  const examples: string[] = [];
  for (const s of summaries.values()) {
    if (s.linksFound === undefined) continue;
    if (urls++ < 3) examples.push(`${s.url}: ${n(s.linksFound)} links`);
  }
  if (urls === 0) return;
  out.push({ bound: "links_per_page", urls, detail: "pages with more than 1,000 links: the first 1,000 were followed", examples });
}

function fileCuts(crawl: CrawlResult, bounds: CrawlBounds, out: Cut[]): void {
  const sitemaps = crawl.sitemaps;
  if (sitemaps?.capped)
    out.push({
      bound: "sitemap_files",
      urls: 0,
      detail: `sitemap files or URLs beyond the caps (10 files, ${n(Math.min(50_000, bounds.maxPages * 10))} URLs) were not read`,
      examples: [],
    });
  const big = (sitemaps?.files ?? []).filter((f) => /50 MB/.test(f.error ?? ""));
  if (big.length > 0)
    out.push({
      bound: "sitemap_bytes",
      urls: big.length,
      detail: "sitemap files over 50 MB (uncompressed; gzip bombs included) were not read past the cap",
      examples: big.slice(0, 3).map((f) => f.url),
    });
  const robots = crawl.robots.filter((r) => /500 KiB/.test(r.reason));
  if (robots.length > 0)
    out.push({
      bound: "robots_bytes",
      urls: robots.length,
      detail: "robots.txt files over 500 KiB: only the first 500 KiB were parsed (RFC 9309 §2.5)",
      examples: robots.map((r) => r.url),
    });
}

/** Every cut of this crawl, most consequential first. */
export function cutsOf(
  crawl: CrawlResult,
  bounds: CrawlBounds,
  byCheck: ReadonlyMap<CheckId, CheckHits>,
  summaries: PageFacts,
): Cut[] {
  const out: Cut[] = [];
  crawlCuts(crawl, bounds, out);
  pageCuts(byCheck, bounds, out);
  linkCuts(summaries, out);
  fileCuts(crawl, bounds, out);
  return out;
}
