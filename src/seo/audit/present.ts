/**
 * Shapes a report for agents and people: `concise` puts scores, the ranked fixes and any
 * truncation first and drops bulk; `detailed` carries every finding with examples, the crawl
 * facts and per-page rows. Every value is labelled with its provenance; `report_id`,
 * `target` and `generated_at` are identifiers, not values.
 * @module
 */
import { derived, type Labelled, measured } from "../provenance.ts";
import type { ResponseFormat } from "../tool-input.ts";
import type { Comparison } from "./compare.ts";
import { SEVERITIES } from "./catalogue.ts";
import type { Finding } from "./finding.ts";
import type { AuditReport } from "./report.ts";
import type { RankedFix } from "./score.ts";

const SCORE_BASIS = "100 × Π(1 − severity weight × (0.5 + 0.5 × share of pages affected)); see AUDIT.md";
export const TWIN_VIA = {
  option: "given as production_url",
  "start-page": "the start page's canonical",
  canonicals: "most pages' canonicals",
} as const;
const TWIN_BASIS =
  "canonical, hreflang, link and sitemap URLs on the production origin are read as the same paths here (production_url, or the start page's canonical)";
const OVERALL_BASIS = `mean of the category scores (0 when no page answered 200 HTML); categories: ${SCORE_BASIS}`;
const PRIORITY_BASIS =
  "severity first, then the pages carrying the problem (a broken link: the pages linking to it); social tags after other categories of the same severity";
const CONCISE_FIXES = 10;
const CONCISE_EXAMPLES = 3;
/** Page rows in a detailed answer: the stored report and the HTML report keep more. */
const DETAILED_ROWS = 1000;

type Measure = <T>(value: T) => Labelled<T>;

/** The ranked fixes with their findings' examples (the first few in a concise answer). */
function topFixes(report: AuditReport, detailed: boolean) {
  const examples = detailed ? Number.POSITIVE_INFINITY : CONCISE_EXAMPLES;
  const byId = new Map(report.findings.map((f) => [f.id, f]));
  return (detailed ? report.fixes : report.fixes.slice(0, CONCISE_FIXES)).map((fix) => ({
    ...fix,
    examples: (byId.get(fix.check_id)?.examples ?? []).slice(0, examples),
    provenance: { kind: "derived", basis: PRIORITY_BASIS },
  }));
}

function summaryOf(report: AuditReport, m: Measure, detailed: boolean) {
  const s = report.stats;
  return {
    truncated: m(report.truncated),
    truncation_reasons: m(report.truncation_reasons),
    pages_crawled: m(s.pages_crawled),
    html_pages_audited: m(s.html_pages),
    resources_checked: m(s.resources_checked),
    urls_discovered: m(s.urls_discovered),
    blocked_by_robots: m(s.blocked_by_robots),
    not_crawled: m(s.not_crawled),
    duration_ms: m(s.duration_ms),
    findings: derived(report.findings.length),
    cuts: m(report.cuts.map((c) => ({ ...c, examples: c.examples.slice(0, detailed ? 10 : 1) }))),
    ...(report.twin ? { production_twin: derived(report.twin, TWIN_BASIS) } : {}),
  };
}

/** What a detailed answer adds: crawl facts, page rows and charts. */
function detailOf(report: AuditReport, m: Measure) {
  return {
    crawl: {
      bounds: derived(report.bounds, "input within documented caps"),
      requests: m(report.stats.requests),
      robots: m(report.robots),
      sitemaps: m(report.sitemaps),
      sitemap_urls: m(report.stats.sitemap_urls),
    },
    pages: m(report.pages.slice(0, DETAILED_ROWS)),
    charts: m(report.charts),
  };
}

export function presentReport(
  report: AuditReport,
  format: ResponseFormat,
  comparison?: Comparison,
): Record<string, unknown> {
  const at = report.finished_at;
  const m: Measure = (value) => measured(value, at);
  const detailed = format === "detailed";
  const out: Record<string, unknown> = {
    report_id: report.id ?? "",
    target: report.target,
    generated_at: at,
    summary: summaryOf(report, m, detailed),
    scores: {
      overall: derived(report.scores.overall, OVERALL_BASIS),
      categories: Object.fromEntries(
        Object.entries(report.scores.categories).map(([c, v]) => [c, derived(v, SCORE_BASIS)]),
      ),
    },
    top_fixes: topFixes(report, detailed),
    // concise: what each finding is and how many URLs; the ranked fixes above carry the detail
    findings: detailed
      ? report.findings
      : report.findings.map((f) => ({ id: f.id, severity: f.severity, count: f.count, provenance: f.provenance })),
  };
  if (comparison) out.comparison = derived(comparison, "by check id and URL against the earlier report");
  return detailed ? { ...out, ...detailOf(report, m) } : out;
}

const LABELLED = {
  type: "object",
  properties: { value: {}, provenance: { type: "object" } },
  required: ["value", "provenance"],
};

/** JSON Schema of `presentReport`'s output (both formats validate). */
export const REPORT_OUTPUT_SCHEMA = {
  type: "object",
  properties: {
    report_id: { type: "string", description: "pass as compare_to in a later audit" },
    target: { type: "string" },
    generated_at: { type: "string" },
    summary: { type: "object", additionalProperties: LABELLED },
    scores: {
      type: "object",
      properties: { overall: LABELLED, categories: { type: "object", additionalProperties: LABELLED } },
      required: ["overall", "categories"],
    },
    top_fixes: {
      type: "array",
      items: {
        type: "object",
        properties: {
          rank: { type: "integer" },
          check_id: { type: "string" },
          severity: { enum: [...SEVERITIES] },
          urls_affected: { type: "integer" },
          pages: { type: "integer" },
          template: { type: "object" },
          fix: { type: "string" },
          examples: { type: "array" },
          provenance: { type: "object" },
        },
        required: ["rank", "check_id", "severity", "urls_affected", "fix", "provenance"],
      },
    },
    findings: {
      type: "array",
      items: {
        type: "object",
        properties: { id: { type: "string" }, count: { type: "integer" }, provenance: { type: "object" } },
        required: ["id", "severity", "count", "provenance"],
      },
    },
    comparison: LABELLED,
    crawl: { type: "object" },
    pages: LABELLED,
    charts: LABELLED,
  },
  required: ["report_id", "target", "generated_at", "summary", "scores", "top_fixes", "findings"],
} as const;

/** "12 URL(s) on 440 pages", or the shared element of a template problem. */
export function reachText(fix: RankedFix): string {
  if (fix.template) return `${fix.template.evidence} (${fix.urls_affected} URL(s))`;
  return fix.pages !== fix.urls_affected ? `${fix.urls_affected} URL(s) on ${fix.pages} pages` : `${fix.urls_affected} URL(s)`;
}

function example(f: Finding | undefined): string {
  const first = f?.examples[0];
  return first ? `\n     e.g. ${first.url}: ${first.evidence}` : "";
}

/**
 * How the readable report names the settings it suggests: an agent sets the tool's arguments,
 * a terminal user the CLI's flags. A report must not send either to the other's words.
 */
export interface ReportWords {
  /** What lists every fix. */
  allFixes: string;
  /** The settings that let a bounded crawl see more. */
  bounds: string;
  /** The settings that give a slow start page more time. */
  slowStart: string;
  /** How to turn the production twin off. */
  twinOff: string;
}

export const TOOL_WORDS: ReportWords = {
  allFixes: "response_format=detailed",
  bounds: "raise the bounds (max_pages, max_depth, max_seconds)",
  slowStart: "raise max_seconds or timeout_ms",
  twinOff: 'pass production_url="none"',
};

export const CLI_WORDS: ReportWords = {
  allFixes: "--detailed",
  bounds: "raise the bounds (--max-pages, --max-depth, --max-seconds)",
  slowStart: "raise --max-seconds or --timeout-ms",
  twinOff: "pass --production-url none",
};

/** The first line of a partial audit: a cancelled one was stopped on purpose, not by a bound. */
function truncationLine(report: AuditReport, words: ReportWords): string {
  const reasons = report.truncation_reasons.join(", ");
  if (report.truncation_reasons.includes("cancelled"))
    return "CANCELLED: a partial audit of the pages crawled before it was stopped; run it again to finish.";
  return `TRUNCATED (${reasons}): a partial audit; ${words.bounds} to see more.`;
}

/** The readable report: what an agent reads first and what the CLI prints (in `words`). */
export function reportText(
  report: AuditReport,
  format: ResponseFormat,
  comparison?: Comparison,
  words: ReportWords = TOOL_WORDS,
): string {
  const s = report.stats;
  const lines = [
    `SEO audit of ${report.target}: ${s.pages_crawled} pages crawled in ${(s.duration_ms / 1000).toFixed(1)} s${report.id ? ` (report ${report.id})` : ""}`,
  ];
  if (report.truncated) lines.push(truncationLine(report, words));
  const cats = Object.entries(report.scores.categories).map(([c, v]) => `${c} ${v}`);
  lines.push(`Score ${report.scores.overall}/100 [derived]: ${cats.join(", ")}`);
  if (s.html_pages === 0 && s.pages_crawled > 0)
    lines.push(
      "No crawled URL answered 200 with HTML, so no page could be audited (overall score 0): fix the errors below, or start from the site's HTML home page.",
    );
  if (s.pages_crawled === 0 && !report.truncation_reasons.includes("cancelled"))
    lines.push(
      `No page was crawled before the crawl stopped, so nothing was audited (overall score 0): ${words.slowStart}, or check why the start page answers so slowly.`,
    );
  if (s.blocked_by_robots > 0) lines.push(`${s.blocked_by_robots} URL(s) skipped: disallowed by robots.txt.`);
  if (report.twin)
    lines.push(
      `Production twin: URLs on ${report.twin.production} are read as this site's own paths (${TWIN_VIA[report.twin.via]}); ${words.twinOff} to read them literally.`,
    );
  for (const cut of report.cuts)
    lines.push(`Cut (${cut.bound}): ${cut.detail}${cut.examples[0] ? `; commonest: ${cut.examples[0]}` : ""}.`);
  const byId = new Map(report.findings.map((f) => [f.id, f]));
  const fixes = format === "detailed" ? report.fixes : report.fixes.slice(0, CONCISE_FIXES);
  if (fixes.length > 0) lines.push("Fixes, highest priority first:");
  else if (s.html_pages > 0) lines.push("No problems found.");
  for (const fix of fixes) {
    const f = byId.get(fix.check_id);
    const label = f?.provenance.kind === "rule-of-thumb" ? " [rule of thumb]" : "";
    lines.push(`  ${fix.rank}. [${fix.severity}] ${fix.title} (${fix.check_id}): ${reachText(fix)}${label}. ${fix.fix}${example(f)}`);
  }
  if (format !== "detailed" && report.fixes.length > fixes.length)
    lines.push(`  … ${report.fixes.length - fixes.length} more (${words.allFixes} lists all).`);
  const info = report.findings.filter((f) => f.severity === "info");
  if (info.length > 0) lines.push(`Notes: ${info.map((f) => `${f.id} (${f.count})`).join(", ")}`);
  if (comparison) {
    lines.push(
      `Compared with ${comparison.against}${comparison.against_target ? ` (an audit of ${comparison.against_target}, not ${report.target}: URL-level changes compare different start URLs)` : ""}: ${comparison.fixed.count} fixed, ${comparison.new.count} new, ${comparison.persisting.count} persisting; score ${comparison.score_change >= 0 ? "+" : ""}${comparison.score_change}.`,
    );
  }
  lines.push(
    "Provenance: facts are measured by this crawl; scores and priorities are derived; length/size/time thresholds are rules of thumb.",
  );
  return lines.join("\n");
}
