/**
 * Category scores and the ranked fix list, both derived from findings.
 *
 * Score of a category = 100 × Π over its findings of (1 − w × (0.5 + 0.5 × share)), where
 * w is the severity weight (critical 0.5, high 0.3, medium 0.15, low 0.05, info 0) and share
 * is the fraction of crawled pages affected (capped at 1). One high finding on every page
 * costs 30 points; on one page of many, about 15. Overall = mean of the category scores.
 * Fixes are ranked by impact: severity first, then the pages that carry the problem (a broken
 * link: the pages linking to it; a finding that stops the crawl itself, robots.txt unreachable
 * or a stopped host: every page crawled); social tags come after the other categories of their
 * severity, as they decide how a shared link looks, not whether or how a page ranks.
 * @module
 */
import { CATEGORIES, type Category, type CheckId, SEVERITY_RANK, type Severity } from "./catalogue.ts";
import type { Finding } from "./finding.ts";

const SCORE_WEIGHT: Record<Severity, number> = { critical: 0.5, high: 0.3, medium: 0.15, low: 0.05, info: 0 };

/** Findings about the whole site rather than the URLs they name. */
const SITE_WIDE = new Set(["robots-txt-unreachable", "host-stopped"]);

/** Pages a finding stands for: the pages carrying it, or every page for a finding that stops the crawl. */
function pagesAffected(f: Finding, pages: number): number {
  return SITE_WIDE.has(f.id) ? Math.max(f.count, pages) : (f.pages ?? f.count);
}

export function categoryScores(findings: Finding[], pages: number): Record<Category, number> {
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, 1])) as Record<Category, number>;
  for (const f of findings) {
    const share = Math.min(1, pagesAffected(f, pages) / Math.max(1, pages));
    scores[f.category] *= 1 - SCORE_WEIGHT[f.severity] * (0.5 + 0.5 * share);
  }
  for (const c of CATEGORIES) scores[c] = Math.round(scores[c] * 100);
  return scores;
}

export function overallScore(scores: Record<Category, number>): number {
  return Math.round(CATEGORIES.reduce((sum, c) => sum + scores[c], 0) / CATEGORIES.length);
}

export interface RankedFix extends Pick<Finding, "title" | "severity" | "category" | "template" | "fix"> {
  rank: number;
  check_id: CheckId;
  urls_affected: number;
  /** Pages that carry the problem: what the fixes are ranked by within a severity. */
  pages: number;
}

const socialLast = (f: Finding) => (f.category === "social" ? 1 : 0);

export function rankFixes(findings: Finding[], pages = 0): RankedFix[] {
  return findings
    .filter((f) => f.severity !== "info")
    .map((f) => ({ f, reach: pagesAffected(f, pages) }))
    .sort(
      (a, b) =>
        SEVERITY_RANK[a.f.severity] - SEVERITY_RANK[b.f.severity] ||
        socialLast(a.f) - socialLast(b.f) ||
        b.reach - a.reach ||
        a.f.id.localeCompare(b.f.id),
    )
    .map(({ f, reach }, i) => ({
      rank: i + 1,
      check_id: f.id,
      title: f.title,
      severity: f.severity,
      category: f.category,
      urls_affected: f.count,
      pages: reach,
      ...(f.template ? { template: f.template } : {}),
      fix: f.template ? `In the template (${f.template.pages.toLocaleString("en")} pages): ${f.fix}` : f.fix,
    }));
}
