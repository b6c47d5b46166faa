/**
 * What the audit keeps while the crawl runs: page summaries and hits per check, with capped
 * examples. This is the crawler's visitor; bodies are analysed and dropped here.
 * @module
 */
import type { PageVisit } from "../crawl/crawler.ts";
import type { FetchedPage } from "../fetch/fetch-page.ts";
import type { UrlEntry } from "../crawl/frontier.ts";
import { type CheckId, SEVERITY_RANK } from "./catalogue.ts";
import { type Example, type Finding, findingOf, type Hit } from "./finding.ts";
import { IssueLists } from "./issue-lists.ts";
import { LinkPool } from "./link-pool.ts";
import { analysePage } from "./page.ts";
import type { PageSummary } from "./page-summary.ts";
import type { PageFacts } from "./page-facts.ts";
import { pathOfUrl } from "../fetch/url.ts";
import { redirectHits } from "./page-checks.ts";
import { securityHeaderHit } from "./security-checks.ts";

/** URLs remembered per check (for re-audit comparison); examples shown are capped further. */
export const URLS_PER_CHECK = 10_000;

/**
 * A copy of `text` that shares no memory with the page it was cut from. V8 keeps substrings
 * as slices of their parent, so one kept title would otherwise pin a whole page body; the
 * concatenation is flattened into a fresh string before slicing.
 */
function detach(text: string): string {
  return ` ${text}`.slice(1);
}

export interface CheckHits {
  count: number;
  /** The URLs hit, each with its evidence; the stored report's examples are these same objects. */
  hits: Example[];
}

/** The first path segment, the unit of "issues per section": /docs/ for /docs/intro, / for /about. */
export function sectionOf(url: string): string {
  const path = pathOfUrl(url) ?? "/";
  const second = path.indexOf("/", 1);
  return second < 0 ? "/" : path.slice(0, second + 1);
}

export class Collector {
  /** Each analysed page's summary: in memory unless the audit was given a store on disk. */
  readonly summaries: PageFacts;
  readonly byCheck = new Map<CheckId, CheckHits>();
  /** The checks that hit each URL, for the page table (each distinct list of ids kept once). */
  readonly issuesByUrl = new IssueLists();
  /** Time to first byte per fetched page, for the page table and the response-time chart. */
  readonly ttfbByUrl = new Map<string, number>();
  /** Which pages link to (or load) which URLs, for the pages a link finding is carried by. */
  readonly links = new LinkPool();
  /**
   * Each distinct evidence text once: a sitewide problem ("no meta description") is the same
   * words on every page, and 10,000 kept URLs per check would otherwise hold 10,000 copies.
   */
  readonly #texts = new Map<string, string>();
  #headersJudged = false;

  constructor(summaries: PageFacts = new Map<string, PageSummary>()) {
    this.summaries = summaries;
  }

  /** The kept copy of `evidence`, detached from its page (see `detach`) and shared by every hit that says the same. */
  #text(evidence: string): string {
    let kept = this.#texts.get(evidence);
    if (kept === undefined) {
      kept = detach(evidence);
      this.#texts.set(kept, kept);
    }
    return kept;
  }

  add(hit: Hit): void {
    this.issuesByUrl.add(hit.url, hit.id);
    let slot = this.byCheck.get(hit.id);
    if (!slot) {
      slot = { count: 0, hits: [] };
      this.byCheck.set(hit.id, slot);
    }
    slot.count++;
    if (slot.hits.length < URLS_PER_CHECK)
      slot.hits.push({ url: hit.url, evidence: this.#text(hit.evidence) });
  }

  /** Takes `urls` out of check `id`: a problem another check reports already is reported once. */
  remove(id: CheckId, urls: ReadonlySet<string>): void {
    const slot = this.byCheck.get(id);
    if (!slot) return;
    const kept = slot.hits.filter((h) => !urls.has(h.url));
    const removed = slot.hits.length - kept.length;
    for (const hit of slot.hits) if (urls.has(hit.url)) this.issuesByUrl.remove(hit.url, id);
    slot.hits = kept;
    slot.count -= removed;
    if (slot.count <= 0) this.byCheck.delete(id);
  }

  /**
   * One finding per check hit, most severe first, then most URLs, then by id. An id outside
   * the catalogue throws INTERNAL here exactly as in the page report (both go through `findingOf`).
   */
  findings(cap: number): Finding[] {
    const findings: Finding[] = [];
    for (const [id, slot] of this.byCheck) findings.push(findingOf(id, slot.hits, slot.count, cap));
    return findings.sort(
      (a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || b.count - a.count || a.id.localeCompare(b.id),
    );
  }

  /** The crawler's visitor. */
  visit = (page: FetchedPage, _entry: UrlEntry, analyseAs: string | undefined): PageVisit => {
    for (const hit of redirectHits(page)) this.add(hit);
    if (page.ttfbMs !== undefined) this.ttfbByUrl.set(page.url, Math.round(page.ttfbMs));
    if (!analyseAs) return { links: [], resources: [], targets: [] };
    const analysis = analysePage(analyseAs === page.url ? page : { ...page, url: analyseAs });
    for (const hit of analysis.hits) this.add(hit);
    const summary = analysis.summary;
    if (summary.clientRedirect) summary.clientRedirect.target = detach(summary.clientRedirect.target);
    if (summary.title) summary.title = detach(summary.title);
    if (summary.description) summary.description = detach(summary.description);
    if (summary.h1) summary.h1 = detach(summary.h1);
    if (!this.#headersJudged && summary.isHtml) {
      // Security headers are the server's: judged once, on the first HTML page (the start page).
      this.#headersJudged = true;
      const headers = securityHeaderHit(page.finalUrl, page.headers);
      if (headers) this.add({ ...headers, url: analyseAs });
    }
    this.summaries.set(analyseAs, summary);
    this.links.addPage(analysis.links.concat(analysis.resources));
    const targets = summary.hreflang.map((h) => h.url);
    if (summary.canonical) targets.push(summary.canonical);
    return {
      links: analysis.links,
      resources: analysis.resources,
      targets,
      ...(summary.canonical ? { canonical: summary.canonical } : {}),
      sitemaps: analysis.sitemapLinks,
    };
  };
}
