/**
 * Shapes a report for agents and people: `concise` puts scores, the ranked fixes and any
 * truncation first and drops bulk; `detailed` carries every finding with examples, the crawl
 * facts and per-page rows. Every value is labelled with its provenance; `report_id`,
 * `target` and `generated_at` are identifiers, not values. The readable report is
 * `report-text.ts`, the answer's JSON Schema `report-output-schema.ts`.
 * @module
 */
import { derived, type Provenance } from "../provenance.ts";
import type { ResponseFormat } from "../tool-input.ts";
import type { Comparison } from "./compare.ts";
import type { Severity } from "./catalogue.ts";
import { clip, type Finding } from "./finding.ts";
import type { AuditReport, PageRow } from "./report.ts";

export const TWIN_VIA = {
  option: "given as production_url",
  "start-page": "the start page's canonical",
  canonicals: "most pages' canonicals",
} as const;
const TWIN_BASIS = "canonical, hreflang, link and sitemap URLs on the production origin read as the same paths here";
const RANK_BASIS =
  "severity, then pages carrying it (a broken link: pages linking to it); social last in a severity; one evidence on most pages: one template fix";
/** Stated once per answer; each value's provenance names its kind and, where it is derived, which of these. */
const BASES = {
  measured: "observed by this crawl, at generated_at",
  scores: "per category 100 × Π(1 − severity weight × (0.5 + 0.5 × share of pages affected)); overall: their mean, 0 with no HTML page (AUDIT.md)",
  ranking: RANK_BASIS,
  "rule-of-thumb": "a check's threshold (named in response_format=detailed)",
  urls: "example URLs are paths on the target's origin",
};
/** Fixes a concise answer shows, in the structured answer and the readable report alike. */
export const CONCISE_FIXES = 5;
const CONCISE_EXAMPLES = 3;
export const CONCISE_EVIDENCE = 80;
/** Examples per finding in a detailed answer: the rest are read by check (report_id + check). */
const DETAILED_EXAMPLES = 50;
/** Page rows in a detailed answer: the stored report and the HTML report keep more. */
const DETAILED_ROWS = 1000;

const MEASURED = { kind: "measured" } as const;
const basis = (name: keyof typeof BASES | "twin") => ({ kind: "derived", basis: `bases.${name}` }) as const;
const label = <T>(value: T, provenance: Provenance) => ({ value, provenance });

/** The ranked fixes; a concise answer shows the first few with their first examples, a detailed one refers to `findings`. */
function topFixes(report: AuditReport, detailed: boolean) {
  const rel = relativeTo(report.target);
  const byId = new Map(report.findings.map((f) => [f.id, f]));
  if (detailed) return report.fixes.map((fix) => ({ ...fix, provenance: basis("ranking") }));
  return report.fixes.slice(0, CONCISE_FIXES).map(({ title: _, category: __, template, pages, ...fix }) => ({
    ...fix,
    ...(pages !== fix.urls_affected ? { pages } : {}),
    // A template problem's pages share one evidence: stated once, its examples are URLs only.
    ...(template ? { template: { evidence: clip(rel(template.evidence), CONCISE_EVIDENCE) } } : {}),
    examples: (byId.get(fix.check_id)?.examples ?? [])
      .slice(0, CONCISE_EXAMPLES)
      .map((e) => (template ? { url: rel(e.url) } : { url: rel(e.url), evidence: clip(rel(e.evidence), CONCISE_EVIDENCE) })),
    provenance: basis("ranking"),
  }));
}

/** The crawl's counts, measured; one label for the lot. */
function summaryOf(report: AuditReport, detailed: boolean) {
  const s = report.stats;
  return {
    crawl: label(
      {
        truncated: report.truncated,
        truncation_reasons: report.truncation_reasons,
        pages_crawled: s.pages_crawled,
        html_pages_audited: s.html_pages,
        resources_checked: s.resources_checked,
        urls_discovered: s.urls_discovered,
        blocked_by_robots: s.blocked_by_robots,
        not_crawled: s.not_crawled,
        duration_ms: s.duration_ms,
      },
      MEASURED,
    ),
    cuts: label(
      report.cuts.map((c) => ({ ...c, examples: c.examples.slice(0, detailed ? 10 : 1) })),
      MEASURED,
    ),
    ...(report.twin ? { production_twin: label(report.twin, basis("twin")) } : {}),
    ...(report.rendering ? renderingOf(report.rendering) : {}),
    ...(report.external_links ? { external_links: label(report.external_links, MEASURED) } : {}),
  };
}

/** The rendering counts, measured; the lab figures (a sibling) measured in the browser under the throttling they name. */
function renderingOf({ lab, ...counts }: NonNullable<AuditReport["rendering"]>) {
  if (!lab) return { rendering: label(counts, MEASURED) };
  const basis = `lab, in the local headless browser; throttling: ${lab.throttling.name}; sample: ${lab.sample}`;
  return { rendering: label(counts, MEASURED), lab: label(lab.pages, { kind: "measured", basis }) };
}

/**
 * The checks the shown fixes leave out, as URL counts per check by severity: a few tokens a
 * check, so the answer stays small however many checks fire.
 */
function otherFindings(report: AuditReport) {
  const shown = new Set(report.fixes.slice(0, CONCISE_FIXES).map((f) => f.check_id));
  const bySeverity: Partial<Record<Severity, Record<string, number>>> = {};
  const thresholds: string[] = [];
  for (const f of report.findings) {
    if (shown.has(f.id)) continue;
    (bySeverity[f.severity] ??= {})[f.id] = f.count;
    if (f.provenance.kind === "rule-of-thumb") thresholds.push(f.id);
  }
  const basis = thresholds.length > 0 ? `URLs per check; a rule of thumb decides ${thresholds.join(", ")}` : "URLs per check";
  return label(bySeverity, { kind: "measured", basis });
}

/** A finding in a detailed answer: its examples capped (the rest read by check), URLs as paths. */
function detailedFinding(f: Finding, rel: (text: string) => string) {
  return {
    ...f,
    examples: f.examples.slice(0, DETAILED_EXAMPLES).map((e) => ({ url: rel(e.url), evidence: rel(e.evidence) })),
  };
}

/** A page row in a detailed answer: its path, and only the fields that say something. */
function detailedRow(row: PageRow, rel: (text: string) => string) {
  const { url, final_url, state, in_sitemap, issues: _, ...rest } = row;
  return {
    url: rel(url),
    ...(final_url ? { final_url: rel(final_url) } : {}),
    ...(state !== "done" ? { state } : {}),
    ...(in_sitemap ? { in_sitemap } : {}),
    ...rest,
  };
}

/** What a detailed answer adds: crawl facts, page rows and charts. */
function detailOf(report: AuditReport) {
  const m = <T>(value: T) => label(value, MEASURED);
  return {
    crawl: {
      bounds: derived(report.bounds, "input within documented caps"),
      requests: m(report.stats.requests),
      robots: m(report.robots),
      sitemaps: m(report.sitemaps),
      sitemap_urls: m(report.stats.sitemap_urls),
    },
    pages: m(report.pages.slice(0, DETAILED_ROWS).map((row) => detailedRow(row, relativeTo(report.target)))),
    charts: m(report.charts),
  };
}

export function presentReport(
  report: AuditReport,
  format: ResponseFormat,
  comparison?: Comparison,
): Record<string, unknown> {
  const detailed = format === "detailed";
  const out: Record<string, unknown> = {
    report_id: report.id ?? "",
    target: report.target,
    generated_at: report.finished_at,
    bases: report.twin ? { ...BASES, twin: TWIN_BASIS } : BASES,
    summary: summaryOf(report, detailed),
    scores: label(report.scores, basis("scores")),
    top_fixes: topFixes(report, detailed),
    // concise: the findings the fixes above do not show, as id, severity and count
    findings: detailed
      ? report.findings.map((f) => detailedFinding(f, relativeTo(report.target)))
      : otherFindings(report),
  };
  if (comparison) out.comparison = derived(comparison, "by check id and URL against the earlier report");
  return detailed ? { ...out, ...detailOf(report) } : out;
}

/** A URL as a path when it is on the audited origin (the text names the origin once). */
export function relativeTo(target: string): (text: string) => string {
  const origin = URL.canParse(target) ? `${new URL(target).origin}/` : "";
  return (text) => (origin ? text.replaceAll(origin, "/") : text);
}
