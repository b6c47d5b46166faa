/**
 * What the audit keeps while the crawl runs: page summaries and hits per check, with capped
 * examples. This is the crawler's visitor; bodies are analysed and dropped here.
 * @module
 */
import type { PageVisit } from "../crawl/crawler.ts";
import type { FetchedPage } from "../crawl/fetch-page.ts";
import type { UrlEntry } from "../crawl/frontier.ts";
import type { Hit } from "./finding.ts";
import { analysePage, type PageSummary } from "./page.ts";
import { redirectHits } from "./page-checks.ts";

/** URLs remembered per check (for re-audit comparison); examples shown are capped further. */
export const URLS_PER_CHECK = 5000;

export interface CheckHits {
  count: number;
  hits: Hit[];
}

export class Collector {
  readonly summaries = new Map<string, PageSummary>();
  readonly byCheck = new Map<string, CheckHits>();

  add(hit: Hit): void {
    let slot = this.byCheck.get(hit.id);
    if (!slot) {
      slot = { count: 0, hits: [] };
      this.byCheck.set(hit.id, slot);
    }
    slot.count++;
    if (slot.hits.length < URLS_PER_CHECK) slot.hits.push(hit);
  }

  /** The crawler's visitor. */
  visit = (page: FetchedPage, _entry: UrlEntry, analyseAs: string | undefined): PageVisit => {
    for (const hit of redirectHits(page)) this.add(hit);
    if (!analyseAs) return { links: [], resources: [], targets: [] };
    const analysis = analysePage(analyseAs === page.url ? page : { ...page, url: analyseAs });
    for (const hit of analysis.hits) this.add(hit);
    this.summaries.set(analyseAs, analysis.summary);
    const targets = analysis.summary.hreflang.map((h) => h.url);
    if (analysis.summary.canonical) targets.push(analysis.summary.canonical);
    return { links: analysis.links, resources: analysis.resources, targets };
  };
}
