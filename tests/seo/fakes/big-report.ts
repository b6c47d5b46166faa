/**
 * A stored report of a template-built site of any size, made without a crawl: page rows (the
 * first 10,000, as the stored report keeps them) carrying issue ids, one hostile title, and two
 * findings listing up to 10,000 URLs each. For the HTML report's size and page-table tests.
 * @module
 */
import type { AuditReport } from "../../../src/seo/audit/report.ts";

/** A report of `pages` rows (as the stored report keeps them) with findings listing up to 10,000 URLs each. */
export function bigReport(pages: number): AuditReport {
  const origin = "http://127.0.0.1:9";
  const rows = Array.from({ length: Math.min(pages, 10_000) }, (_, i) => ({
    url: `${origin}/gallery/c${Math.floor(i / 110)}/${i}`,
    status: i % 97 === 0 ? 404 : 200,
    depth: 2,
    state: "done",
    in_sitemap: true,
    inlinks: 3,
    issues: i % 2 === 0 ? 2 : 1,
    issue_ids: i % 2 === 0 ? ["image-missing-alt", "open-graph-incomplete"] : ["open-graph-incomplete"],
    title: i === 7 ? `"><img src=x onerror="window.__pwned=4"><script>window.__pwned=5</script>` : `Photo ${i} of the gallery: a place`,
    words: 170,
    type: "article",
  }));
  const finding = (id: string, severity: string, category: string, every: number) => {
    const examples = rows.filter((_, i) => i % every === 0).map((r) => ({ url: r.url, evidence: `${id} on ${r.url.slice(origin.length)}` }));
    return { id, category, severity, title: id, count: Math.round(pages / every), examples, fix: `fix ${id}`, provenance: { kind: "measured" } };
  };
  const findings = [finding("image-missing-alt", "medium", "accessibility", 2), finding("open-graph-incomplete", "low", "social", 1)];
  return {
    version: 1,
    id: "audit-20261127T000000-big",
    target: `${origin}/`,
    started_at: "2026-11-27T00:00:00Z",
    finished_at: "2026-11-27T00:01:00Z",
    bounds: {},
    truncated: false,
    truncation_reasons: [],
    stats: { pages_crawled: pages, resources_checked: 0, urls_discovered: pages, blocked_by_robots: 0, not_crawled: 0, requests: pages, duration_ms: 1000, sitemap_urls: pages, html_pages: pages },
    robots: [],
    sitemaps: [],
    cuts: [],
    charts: { status: { "200": pages - 50, "404": 50 }, depth: { "2": pages }, sections: [{ section: "/gallery/", pages, issues: pages }] },
    scores: { overall: 80, categories: { accessibility: 70, social: 90 } },
    fixes: findings.map((f, i) => ({ rank: i + 1, check_id: f.id, title: f.title, severity: f.severity, category: f.category, urls_affected: f.count, pages: f.count, fix: f.fix })),
    findings,
    affected: Object.fromEntries(findings.map((f) => [f.id, f.examples.map((e) => e.url)])),
    pages: rows,
  } as unknown as AuditReport;
}

