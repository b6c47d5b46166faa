/**
 * Category scores and the ranked fix list, both derived from findings.
 *
 * Score of a category = 100 × Π over its findings of (1 − w × (0.5 + 0.5 × share)), where
 * w is the severity weight (critical 0.5, high 0.3, medium 0.15, low 0.05, info 0) and share
 * is the fraction of crawled pages affected (capped at 1). One high finding on every page
 * costs 30 points; on one page of many, about 15. Overall = mean of the category scores.
 * Fix priority = impact weight (critical 16, high 8, medium 4, low 1: doubling per level) × pages
 * affected, where a finding that stops the crawl itself (robots.txt unreachable, a stopped host)
 * affects every page crawled.
 * @module
 */
import { CATEGORIES, type Category, type CheckId, SEVERITIES, type Severity } from "./catalogue.ts";
import type { Finding } from "./finding.ts";

const SCORE_WEIGHT: Record<Severity, number> = { critical: 0.5, high: 0.3, medium: 0.15, low: 0.05, info: 0 };
export const IMPACT: Record<Severity, number> = { critical: 16, high: 8, medium: 4, low: 1, info: 0 };

/** "critical 16, high 8, medium 4, low 1": the impact weights in severity order, for provenance text. */
export const IMPACT_TEXT = SEVERITIES.filter((s) => IMPACT[s] > 0)
  .map((s) => `${s} ${IMPACT[s]}`)
  .join(", ");

/** Findings about the whole site rather than the URLs they name. */
const SITE_WIDE = new Set(["robots-txt-unreachable", "host-stopped"]);

/** Pages a finding stands for: its URLs, or every page for a finding that stops the crawl. */
export function pagesAffected(f: Finding, pages: number): number {
  return SITE_WIDE.has(f.id) ? Math.max(f.count, pages) : f.count;
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

export interface RankedFix {
  rank: number;
  check_id: CheckId;
  title: string;
  severity: Severity;
  category: Category;
  urls_affected: number;
  priority: number;
  fix: string;
}

export function rankFixes(findings: Finding[], pages = 0): RankedFix[] {
  return findings
    .filter((f) => IMPACT[f.severity] > 0)
    .map((f) => ({ f, priority: IMPACT[f.severity] * pagesAffected(f, pages) }))
    .sort((a, b) => b.priority - a.priority || a.f.id.localeCompare(b.f.id))
    .map(({ f, priority }, i) => ({
      rank: i + 1,
      check_id: f.id,
      title: f.title,
      severity: f.severity,
      category: f.category,
      urls_affected: f.count,
      priority,
      fix: f.fix,
    }));
}
