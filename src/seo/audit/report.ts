/**
 * The audit report: what the crawl saw, every finding, category scores and ranked fixes.
 * Stored whole (for re-audits); tools shape it into concise or detailed output.
 * @module
 */
import type { CrawlBounds } from "../crawl/bounds.ts";
import type { CrawlResult } from "../crawl/crawler.ts";
import type { SitemapFile } from "../sitemap/discover.ts";
import { sectionOf } from "./collector.ts";
import type { Cut } from "./cuts.ts";
import type { Category, CheckId } from "./catalogue.ts";
import type { Finding } from "./finding.ts";
import type { PageType } from "./page-summary.ts";
import type { RankedFix } from "./score.ts";
import type { LabReport } from "../render/lab-sample.ts";
import type { ExternalLinksSummary } from "./external-links.ts";
import type { PageFacts } from "./page-facts.ts";
import type { IssueReader } from "./issue-lists.ts";

/** Rows kept in the page table of a report (the crawl's first pages, in crawl order). */
export const PAGE_ROWS = 10_000;

export interface RobotsSummary {
  url: string;
  status: number;
  outcome: string;
  reason: string;
  crawl_delay_s?: number;
  sitemaps: string[];
}

export interface PageRow {
  url: string;
  status: number;
  depth: number | null;
  state: string;
  final_url?: string;
  redirect_hops?: number;
  in_sitemap: boolean;
  inlinks: number;
  reason?: string;
  /** Problems found on this URL (page-level and site-level hits). */
  issues: number;
  /** The checks that found them. */
  issue_ids: CheckId[];
  title?: string;
  words?: number;
  type?: PageType;
  /** Time to first byte, in ms. */
  ttfb_ms?: number;
}

/** Distributions over every crawled page, for charts. */
export interface ReportCharts {
  /** Pages per HTTP status ("0": no response). */
  status: Record<string, number>;
  /** Pages per click depth ("none": reached only from a sitemap or canonical). */
  depth: Record<string, number>;
  /** Pages and problems per first path segment, most problems first (at most 30). */
  sections: { section: string; pages: number; issues: number }[];
  /** Pages per time-to-first-byte band ("< 100 ms", …), in band order. */
  response?: Record<string, number>;
}

/** Time-to-first-byte bands: upper bounds in ms, the last open. 800 ms is the slow-response bar. */
const TTFB_BANDS = [100, 250, 500, 800, 1500];

function ttfbBand(ms: number): string {
  const upper = TTFB_BANDS.find((bound) => ms < bound);
  if (upper === undefined) return `≥ ${TTFB_BANDS.at(-1)} ms`;
  const lower = TTFB_BANDS[TTFB_BANDS.indexOf(upper) - 1];
  return lower === undefined ? `< ${upper} ms` : `${lower}–${upper} ms`;
}

export interface AuditReport {
  id?: string;
  version: 1;
  target: string;
  started_at: string;
  finished_at: string;
  bounds: CrawlBounds;
  truncated: boolean;
  truncation_reasons: string[];
  stats: {
    pages_crawled: number;
    resources_checked: number;
    urls_discovered: number;
    blocked_by_robots: number;
    not_crawled: number;
    requests: number;
    duration_ms: number;
    sitemap_urls: number;
    /** Pages that answered 200 with HTML, so their markup could be audited. */
    html_pages: number;
  };
  robots: RobotsSummary[];
  sitemaps: SitemapFile[];
  /** The production origin a staging copy's canonicals, hreflang and sitemap URLs were read as. */
  twin?: { production: string; via: "option" | "start-page" | "canonicals" };
  /** Rendering mode: what the browser loaded and refused, and the lab metrics of a sample of pages. */
  rendering?: {
    tabs: number;
    pages_rendered: number;
    render_failed: number;
    /** Requests rendered pages made (documents included) that the crawl let through. */
    requests: number;
    /** Requests refused: off the audited site, disallowed by robots.txt, or after the crawl stopped. */
    requests_blocked: number;
    blocked_examples: { url: string; reason: string }[];
    lab?: LabReport;
  };
  /** The external link check, when it ran: targets found, checked, broken, and those not checked by reason. */
  external_links?: ExternalLinksSummary;
  /** What the bounds cut, and why. */
  cuts: Cut[];
  charts: ReportCharts;
  scores: { overall: number; categories: Record<Category, number> };
  fixes: RankedFix[];
  findings: Finding[];
  /** Every affected URL per check (capped), for comparing audits. */
  affected: Record<string, string[]>;
  pages: PageRow[];
}

export function pageRows(
  crawl: CrawlResult,
  limit: number,
  summaries: PageFacts,
  issues: IssueReader,
  ttfb: Map<string, number> = new Map(),
): PageRow[] {
  const rows: PageRow[] = [];
  for (const e of crawl.entries.values()) {
    if (e.kind !== "page" || e.state === "queued") continue;
    if (rows.length >= limit) break;
    const s = summaries.get(e.url);
    rows.push({
      url: e.url,
      status: e.status ?? 0,
      depth: e.depth ?? null,
      state: e.state,
      ...(e.finalUrl && e.finalUrl !== e.url ? { final_url: e.finalUrl } : {}),
      ...(e.hops ? { redirect_hops: e.hops } : {}),
      in_sitemap: e.inSitemap,
      inlinks: e.inlinks,
      ...(e.reason ? { reason: e.reason } : {}),
      issues: issues.get(e.url)?.length ?? 0,
      issue_ids: [...new Set(issues.get(e.url) ?? [])],
      ...(s?.title ? { title: s.title.slice(0, 200) } : {}),
      ...(s?.isHtml ? { words: s.words } : {}),
      ...(s?.pageType ? { type: s.pageType } : {}),
      ...(ttfb.has(e.url) ? { ttfb_ms: ttfb.get(e.url) } : {}),
    });
  }
  return rows;
}

const bump = (record: Record<string, number>, key: string) => {
  record[key] = (record[key] ?? 0) + 1;
};

export function chartsOf(crawl: CrawlResult, issues: IssueReader, ttfb: Map<string, number> = new Map()): ReportCharts {
  const status: Record<string, number> = {};
  const depth: Record<string, number> = {};
  const sections = new Map<string, { section: string; pages: number; issues: number }>();
  const section = (url: string) => {
    const key = sectionOf(url);
    let row = sections.get(key);
    if (!row && sections.size < 500) sections.set(key, (row = { section: key, pages: 0, issues: 0 }));
    return row;
  };
  for (const e of crawl.entries.values()) {
    if (e.kind !== "page" || e.state !== "done") continue;
    bump(status, String(e.status ?? 0));
    bump(depth, e.depth === undefined ? "none" : String(e.depth));
    const row = section(e.url);
    if (row) row.pages++;
  }
  for (const [url, ids] of issues) {
    const row = section(url);
    if (row) row.issues += ids.length;
  }
  const ranked = [...sections.values()].sort((a, b) => b.issues - a.issues || b.pages - a.pages);
  const bands = [...TTFB_BANDS.map((_, i) => ttfbBand(i === 0 ? 0 : (TTFB_BANDS[i - 1] as number))), ttfbBand(Number.POSITIVE_INFINITY)];
  const response: Record<string, number> = Object.fromEntries(bands.map((band) => [band, 0]));
  for (const ms of ttfb.values()) bump(response, ttfbBand(ms));
  for (const band of bands) if (response[band] === 0) delete response[band];
  return { status, depth, sections: ranked.slice(0, 30), response };
}
