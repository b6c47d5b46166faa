/**
 * The audit report: what the crawl saw, every finding, category scores and ranked fixes.
 * Stored whole (for re-audits); tools shape it into concise or detailed output.
 * @module
 */
import type { CrawlBounds } from "../crawl/bounds.ts";
import type { CrawlResult } from "../crawl/crawler.ts";
import type { SitemapFile } from "../sitemap/discover.ts";
import type { Category, Finding } from "./finding.ts";
import type { RankedFix } from "./score.ts";

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
  scores: { overall: number; categories: Record<Category, number> };
  fixes: RankedFix[];
  findings: Finding[];
  /** Every affected URL per check (capped), for comparing audits. */
  affected: Record<string, string[]>;
  pages: PageRow[];
}

export function pageRows(crawl: CrawlResult, limit: number): PageRow[] {
  const rows: PageRow[] = [];
  for (const e of crawl.entries.values()) {
    if (e.kind !== "page" || e.state === "unqueued" || e.state === "queued") continue;
    if (rows.length >= limit) break;
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
    });
  }
  return rows;
}
