/**
 * The reach of each finding, which is what the fixes are ranked by: the pages that carry the
 * problem (a broken link counts the pages linking to it, not the one target), and whether it
 * comes from a shared template (the same element on most pages: one fix, not thousands).
 * @module
 */
import type { UrlEntry } from "../crawl/frontier.ts";
import { pathOfUrl } from "../fetch/url.ts";
import type { CheckId } from "./catalogue.ts";
import type { CheckHits } from "./collector.ts";
import type { Finding } from "./finding.ts";
import type { LinkPool } from "./link-pool.ts";

/** Checks whose URLs are link or resource targets: the pages carrying them are the referrers. */
const TARGET_CHECKS = new Set<CheckId>([
  "broken-internal-link",
  "broken-resource",
  "link-to-redirect",
  "robots-blocked-linked",
  "resource-blocked-by-robots",
  "external-link-broken",
  "external-link-redirect",
]);
/** Categories judged from a page's own markup, where the same evidence on most pages means one template. */
const MARKUP = new Set(["indexability", "content", "links", "international", "structured-data", "social", "accessibility"]);
/** A template problem is on at least half the HTML pages, and on at least this many. */
const TEMPLATE_MIN_PAGES = 10;

interface Template {
  /** HTML pages carrying the shared element. */
  pages: number;
  /** What the pages share, in words. */
  evidence: string;
}

interface Sources {
  byCheck: ReadonlyMap<CheckId, CheckHits>;
  links: LinkPool;
  entries: ReadonlyMap<string, UrlEntry>;
  htmlPages: number;
}

const pathOf = (url: string) => pathOfUrl(url) ?? url;

/** Evidence with its numbers blanked, so "2 link(s)" and "3 link(s)" read as one element. */
const shape = (evidence: string) => evidence.replace(/\d+/g, "#");

/** The commonest evidence of a markup check, when most HTML pages share it. */
function markupTemplate(slot: CheckHits, count: number, htmlPages: number): Template | undefined {
  const tally = new Map<string, { n: number; evidence: string }>();
  for (const hit of slot.hits) {
    const key = shape(hit.evidence);
    const row = tally.get(key);
    if (row) row.n++;
    else tally.set(key, { n: 1, evidence: hit.evidence });
  }
  let best: { n: number; evidence: string } | undefined;
  for (const row of tally.values()) if (!best || row.n > best.n) best = row;
  if (!best || slot.hits.length === 0) return undefined;
  const pages = Math.round((best.n / slot.hits.length) * count);
  return pages >= TEMPLATE_MIN_PAGES && pages * 2 >= htmlPages ? { pages, evidence: best.evidence } : undefined;
}

/**
 * Targets linked together from the same pages (a navigation block), or each from most pages,
 * are one template problem; scattered links are not.
 */
function linkTemplate(perTarget: Map<string, number>, pages: number, htmlPages: number): Template | undefined {
  const targets = [...perTarget].filter(([, n]) => n >= TEMPLATE_MIN_PAGES).sort((a, b) => b[1] - a[1]);
  const top = targets[0];
  if (!top) return undefined;
  const sitewide = top[1] * 2 >= htmlPages;
  const block = targets.length > 1 && pages <= top[1] * 1.1;
  if (!sitewide && !block) return undefined;
  const more = targets.length > 1 ? ` (+${targets.length - 1} more)` : "";
  return {
    pages,
    evidence: `${targets.length} link(s) that appear together on ${pages} pages, e.g. ${pathOf(top[0])}${more}`,
  };
}

/** Sets each finding's `pages` (when not its URL count) and `template`. */
export function addReach(findings: Finding[], sources: Sources): void {
  for (const f of findings) {
    const slot = sources.byCheck.get(f.id);
    if (!slot) continue;
    if (TARGET_CHECKS.has(f.id)) {
      const reach = sources.links.reach(slot.hits.map((h) => h.url));
      // Sitemap-only targets have no referring page: they still count as one page each.
      const unlinked = slot.hits.filter((h) => (reach.perTarget.get(h.url) ?? 0) === 0).length;
      f.pages = Math.max(reach.pages + unlinked, 1);
      const template = linkTemplate(reach.perTarget, reach.pages, sources.htmlPages);
      if (template) f.template = template;
    } else if (MARKUP.has(f.category)) {
      const template = markupTemplate(slot, f.count, sources.htmlPages);
      if (template) f.template = template;
    }
  }
}
