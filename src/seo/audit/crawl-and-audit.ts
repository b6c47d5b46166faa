/**
 * A site audit: crawl with the collector as visitor, run the site-level checks, and build the
 * report (findings, scores, ranked fixes, crawl facts).
 * @module
 */
import type { CrawlBounds } from "../crawl/bounds.ts";
import { type CrawlDeps, type CrawlResult, crawlSite, type Visitor } from "../crawl/crawler.ts";
import { LAB_SAMPLE, LabSampler } from "../render/lab-sample.ts";
import type { Renderer, SubRequestGate } from "../render/renderer.ts";
import { type RenderStats, renderingVisitor } from "../render/rendering-visitor.ts";
import { describeTwin, toLocal, type Twin } from "../crawl/twin.ts";
import { Collector, URLS_PER_CHECK } from "./collector.ts";
import { ExternalLinks } from "./external-links.ts";
import { cutsOf } from "./cuts.ts";
import type { PageFacts } from "./page-facts.ts";
import { addReach } from "./impact.ts";
import type { PageParser } from "./extract.ts";
import { htmlSinks } from "./page.ts";
import type { Hit } from "./finding.ts";
import { isOwnMachine } from "../fetch/url.ts";
import { type AuditReport, chartsOf, PAGE_ROWS, pageRows } from "./report.ts";
import { categoryScores, overallScore, rankFixes } from "./score.ts";
import { siteHits, twinOf } from "./site-checks.ts";

export const USER_AGENT = "SeoAuditMcp/0.1 (+https://www.npmjs.com/package/seo-audit-mcp; robots.txt token SeoAuditMcp)";
const PRODUCT_TOKEN = "SeoAuditMcp";

/** The crawl's own options (documented on `CrawlDeps`), and what the audit adds. */
export interface AuditOptions
  extends Pick<CrawlDeps, "fetch" | "request" | "signal" | "onProgress" | "politenessOff" | "twin" | "journal"> {
  /** Where page HTML is parsed, started per audit: the Node shim's parses on a worker thread (default: this thread). */
  pageParser?: PageParser;
  now(): Date;
  bounds: CrawlBounds;
  userAgent?: string;
  /** Rendering mode: every HTML page is also loaded in this browser session (see src/seo/render/). */
  renderer?: Renderer;
  /** Pages given lab metrics in rendering mode (default 20; 0 for none). */
  labSample?: number;
  /** External link targets checked at most after the crawl (absent or 0: none; see external-links.ts). */
  externalLinks?: number;
  /** Where page summaries are kept (default: a Map in memory; see page-facts.ts). */
  pageFacts?: PageFacts;
}

/** The rendering visitor, its counters and the lab sample, when the audit renders. */
function renderingOf(collector: Collector, options: AuditOptions) {
  const renderer = options.renderer;
  if (!renderer) return undefined;
  const stats: RenderStats = { pages: 0, failed: 0, requests: 0, blocked: 0, blockedExamples: [] };
  const size = options.labSample ?? LAB_SAMPLE;
  const lab = new LabSampler(renderer, options.bounds.timeoutMs, size);
  const render = renderingVisitor(collector, renderer, options.bounds.timeoutMs, stats);
  const visit: Visitor = async (page, entry, analyseAs, gate) => {
    const visited = await render(page, entry, analyseAs, gate);
    if (size > 0 && gate && analyseAs && collector.summaries.get(analyseAs)?.isHtml) lab.offer(analyseAs, gate);
    return visited;
  };
  const afterPages = async (gate: SubRequestGate) => lab.fill(gate);
  /** The report's rendering block, once the lab measurements are in (`stopped`: the crawl ran out of time). */
  const summary = async (stopped: boolean): Promise<NonNullable<AuditReport["rendering"]>> => {
    const measured = await lab.report(stopped);
    return {
      tabs: renderer.tabs,
      pages_rendered: stats.pages,
      render_failed: stats.failed,
      requests: stats.requests,
      requests_blocked: stats.blocked,
      blocked_examples: stats.blockedExamples,
      ...(size > 0 ? { lab: measured } : {}),
    };
  };
  return { visit, afterPages, summary };
}

function stats(crawl: CrawlResult) {
  let blocked = 0;
  let notCrawled = 0;
  for (const e of crawl.entries.values()) {
    if (e.state === "blocked") blocked++;
    else if (e.kind === "page" && e.state !== "done") notCrawled++;
  }
  const undrawn = (crawl.sitemaps?.urls ?? []).filter((url) => !crawl.entries.has(url)).length;
  return {
    pages_crawled: crawl.pages,
    resources_checked: crawl.resources,
    urls_discovered: crawl.entries.size + crawl.cuts.notKept + undrawn,
    blocked_by_robots: blocked,
    not_crawled: notCrawled + crawl.cuts.notKept + undrawn,
    requests: crawl.requests,
    duration_ms: Math.round(crawl.durationMs),
    sitemap_urls: crawl.sitemaps?.urls.length ?? 0,
  };
}

/**
 * A URL that answers 4xx is one problem, reported where it is fixed: a linked one as the broken
 * link (ranked by the pages linking to it), a sitemap entry as `sitemap-non-200`, a canonical
 * target as `canonical-to-non-200` on the page naming it; `http-4xx` keeps the rest.
 */
function reportMissingPagesOnce(collector: Collector, crawl: CrawlResult): void {
  const covered = new Set<string>();
  for (const id of ["broken-internal-link", "sitemap-non-200"] as const)
    for (const hit of collector.byCheck.get(id)?.hits ?? []) covered.add(hit.url);
  for (const hit of collector.byCheck.get("http-4xx")?.hits ?? []) {
    const e = crawl.entries.get(hit.url);
    if (e && e.inlinks === 0 && !e.inSitemap && hit.url !== crawl.start) covered.add(hit.url);
  }
  collector.remove("http-4xx", covered);
}

/** The crawler's dependencies from the audit's options. */
function crawlDepsOf(options: AuditOptions, textSink: CrawlDeps["textSink"], afterPages: CrawlDeps["afterPages"]): CrawlDeps {
  const { userAgent = USER_AGENT } = options;
  const hooks = { ...(textSink ? { textSink } : {}), ...(afterPages ? { afterPages } : {}) };
  return { ...options, userAgent, productToken: PRODUCT_TOKEN, ...hooks };
}

/** The external link check, when the audit asked for one (see external-links.ts). */
function checkExternal(external: ExternalLinks | undefined, start: string, twin: Twin | undefined, options: AuditOptions, add: (hit: Hit) => void) {
  if (!external || !options.externalLinks) return Promise.resolve(undefined);
  return external.check(
    {
      ...options,
      userAgent: options.userAgent ?? USER_AGENT,
      productToken: PRODUCT_TOKEN,
      max: options.externalLinks,
      ownMachine: isOwnMachine(new URL(start)),
      // A link to the production twin is a link to this site, read as the same path here.
      isInternal: (target: string) => toLocal(target, twin, new URL(start).origin) !== target,
    },
    add,
  );
}

/** Crawls `url` within `bounds` and audits what it finds. Throws `ApiError` (UNREACHABLE, ROBOTS_DISALLOWED) when it cannot start. */
export async function crawlAndAudit(url: string, options: AuditOptions): Promise<AuditReport> {
  const startedAt = options.now().toISOString();
  const collector = new Collector(options.pageFacts);
  const { crawl, rendered, external } = await crawlCollecting(url, options, collector);
  const twin = twinOf(crawl, collector.summaries, options.twin !== null);
  const externalLinks = await checkExternal(external, crawl.start, twin, options, (hit) => collector.add(hit));
  siteHits(crawl, collector.summaries, twin, (hit) => collector.add(hit));
  reportMissingPagesOnce(collector, crawl);
  return reportOf(crawl, collector, options, startedAt, {
    ...(twin ? { twin: { production: describeTwin(twin), via: twin.via } } : {}),
    ...(rendered ? { rendering: rendered } : {}),
    ...(externalLinks ? { external_links: externalLinks } : {}),
  });
}

/**
 * The crawl with the collector as visitor (behind the browser in rendering mode, and noting
 * external links when they are to be checked), and the rendering block once it is over.
 */
async function crawlCollecting(url: string, options: AuditOptions, collector: Collector) {
  const parsing = options.pageParser?.();
  const rendering = renderingOf(collector, options);
  const external = options.externalLinks ? new ExternalLinks(url) : undefined;
  const visit = rendering?.visit ?? collector.visit;
  const crawl = await crawlSite(
    url,
    options.bounds,
    crawlDepsOf(options, htmlSinks(parsing?.sink), rendering?.afterPages),
    external ? external.wrap(visit) : visit,
  ).finally(() => parsing?.close());
  const rendered = await rendering?.summary(crawl.truncated.some((r) => r.startsWith("max_seconds") || r === "cancelled"));
  return { crawl, rendered, external };
}

function robotsRow(r: CrawlResult["robots"][number]): AuditReport["robots"][number] {
  return {
    url: r.url,
    status: r.status,
    outcome: r.outcome,
    reason: r.reason,
    ...(r.crawlDelaySeconds !== undefined ? { crawl_delay_s: r.crawlDelaySeconds } : {}),
    sitemaps: r.sitemaps,
  };
}

/** The findings with their reach, the category scores and the URLs each check affects. */
function judged(collector: Collector, crawl: CrawlResult) {
  let htmlPages = 0;
  for (const summary of collector.summaries.values()) if (summary.isHtml) htmlPages++;
  const findings = collector.findings(URLS_PER_CHECK);
  addReach(findings, { byCheck: collector.byCheck, links: collector.links, entries: crawl.entries, htmlPages });
  const categories = categoryScores(findings, Math.max(1, crawl.pages));
  const affected: Record<string, string[]> = {};
  for (const [id, slot] of collector.byCheck) affected[id] = slot.hits.map((h) => h.url);
  return { htmlPages, findings, categories, affected };
}

/** The report of a finished crawl; `optional` holds the blocks only some audits have. */
function reportOf(
  crawl: CrawlResult,
  collector: Collector,
  options: AuditOptions,
  startedAt: string,
  optional: Pick<AuditReport, "twin" | "rendering" | "external_links">,
): AuditReport {
  const { htmlPages, findings, categories, affected } = judged(collector, crawl);
  return {
    version: 1,
    target: crawl.start,
    started_at: startedAt,
    finished_at: options.now().toISOString(),
    bounds: options.bounds,
    truncated: crawl.truncated.length > 0,
    truncation_reasons: crawl.truncated,
    stats: { ...stats(crawl), html_pages: htmlPages },
    robots: crawl.robots.map(robotsRow),
    sitemaps: crawl.sitemaps?.files ?? [],
    ...optional,
    cuts: cutsOf(crawl, options.bounds, collector.byCheck, collector.summaries),
    charts: chartsOf(crawl, collector.issuesByUrl, collector.ttfbByUrl),
    // Categories judged from page markup stay at 100 when no page had markup to judge.
    scores: { overall: htmlPages === 0 ? 0 : overallScore(categories), categories },
    fixes: rankFixes(findings, crawl.pages),
    findings,
    affected,
    pages: pageRows(crawl, PAGE_ROWS, collector.summaries, collector.issuesByUrl, collector.ttfbByUrl),
  };
}
