/**
 * The crawler's contract: what it needs, what it calls per page, and what it returns (and that
 * result before the first step).
 * @module
 */
import type { RobotsInfo } from "../robots/robots-cache.ts";
import type { SitemapResult } from "../sitemap/discover.ts";
import type { FetchedPage, FetchPageOptions } from "../fetch/fetch-page.ts";
import type { ResponseHeaders } from "../fetch/http-request.ts";
import type { TextSink } from "../fetch/read-body.ts";
import type { CutPattern, UrlEntry } from "./frontier.ts";
import type { Twin } from "./twin.ts";
import type { CrawlJournal } from "./crawl-journal.ts";
import type { SubRequestGate } from "../render/renderer.ts";

export interface CrawlDeps extends Pick<FetchPageOptions, "fetch" | "request" | "signal"> {
  userAgent: string;
  /** The robots.txt product token (the first word of the user agent). */
  productToken: string;
  onProgress?(progress: CrawlProgress): void;
  /** The clock, for date checks (sitemap lastmod); defaults to the system clock. */
  now?(): Date;
  /** No gap between requests: refused unless the target is on the user's own machine or network. */
  politenessOff?: boolean;
  /** Where a page's text streams as it is read, so no body is kept; the visitor finds it as `page.sink`. */
  textSink?(status: number, headers: ResponseHeaders): TextSink | undefined;
  /** The production twin: given (production_url), null (detection off) or undefined (detect). */
  twin?: Twin | null;
  /** Run after the last page, within the crawl's deadline, with the gate its sub-requests pass (lab metrics). */
  afterPages?(gate: SubRequestGate, signal: AbortSignal): Promise<void>;
  /** A resumable crawl's record of the URLs it fetched: those it has are answered from it, not fetched. */
  journal?: CrawlJournal;
}

export interface CrawlProgress {
  pages: number;
  maxPages: number;
  queued: number;
  url: string;
}

/** What a visited page leads to. */
export interface PageVisit {
  links: string[];
  resources: string[];
  /** Canonical and hreflang targets: fetched (as pages) to verify them, without a depth. */
  targets: string[];
  /** The page's one canonical URL, resolved (the start page's reveals a production twin). */
  canonical?: string;
  /** `<link rel="sitemap">` URLs, resolved (read on the start page). */
  sitemaps?: string[];
}

/**
 * Called once per fetched page; `analyseAs` is the URL the content belongs to, if it should be
 * analysed. `gate` vets further requests made for the page (a rendering browser's): the crawl's
 * scope, robots.txt, per-host gap and deadline hold for them too.
 */
export type Visitor = (
  page: FetchedPage,
  entry: UrlEntry,
  analyseAs: string | undefined,
  gate?: SubRequestGate,
) => PageVisit | Promise<PageVisit>;

/** URLs found but never fetched, and what they looked like. */
export interface CrawlCuts {
  /** Distinct URLs found and not fetched because no page budget was left, or beyond max_depth. */
  notKept: number;
  byReason: { max_pages: number; max_depth: number };
  /** Commonest URL patterns among them (calendars, session ids and other endless spaces show here). */
  patterns: CutPattern[];
}

export interface CrawlResult {
  start: string;
  entries: Map<string, UrlEntry>;
  robots: RobotsInfo[];
  sitemaps: SitemapResult | undefined;
  /** Bounds hit, e.g. "max_pages"; empty when the crawl finished. */
  truncated: string[];
  cuts: CrawlCuts;
  stoppedHosts: string[];
  /** The production twin in use, when there is one. */
  twin?: Twin;
  pages: number;
  resources: number;
  requests: number;
  durationMs: number;
}

/** A crawl's result before its first step: nothing fetched, nothing cut. */
export function emptyCrawlResult(start: string, entries: Map<string, UrlEntry>): CrawlResult {
  const cuts = { notKept: 0, byReason: { max_pages: 0, max_depth: 0 }, patterns: [] };
  const counts = { pages: 0, resources: 0, requests: 0, durationMs: 0 };
  return { start, entries, robots: [], sitemaps: undefined, truncated: [], cuts, stoppedHosts: [], ...counts };
}
