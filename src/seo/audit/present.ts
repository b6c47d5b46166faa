/**
 * Shapes a report for agents and people: `concise` puts scores, the ranked fixes and any
 * truncation first and drops bulk; `detailed` carries every finding with examples, the crawl
 * facts and per-page rows. Every value is labelled with its provenance; `report_id`,
 * `target` and `generated_at` are identifiers, not values.
 * @module
 */
import { derived, type Provenance } from "../provenance.ts";
import type { ResponseFormat } from "../tool-input.ts";
import type { Comparison } from "./compare.ts";
import { SEVERITIES, type Severity } from "./catalogue.ts";
import type { Finding } from "./finding.ts";
import type { AuditReport, PageRow } from "./report.ts";
import type { RankedFix } from "./score.ts";

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
const CONCISE_FIXES = 5;
const CONCISE_EXAMPLES = 3;
const CONCISE_EVIDENCE = 80;
/** Fix ids the concise text names after the shown fixes. */
const MORE_IDS = 8;
/** Examples per finding in a detailed answer: the rest are read by check (report_id + check). */
const DETAILED_EXAMPLES = 50;
/** Page rows in a detailed answer: the stored report and the HTML report keep more. */
const DETAILED_ROWS = 1000;

const MEASURED = { kind: "measured" } as const;
const basis = (name: keyof typeof BASES | "twin") => ({ kind: "derived", basis: `bases.${name}` }) as const;
const label = <T>(value: T, provenance: Provenance) => ({ value, provenance });
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

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
  return {
    rendering: label(counts, MEASURED),
    ...(lab
      ? {
          lab: label(lab.pages, {
            kind: "measured",
            basis: `lab, in the local headless browser; throttling: ${lab.throttling.name}; sample: ${lab.sample}`,
          }),
        }
      : {}),
  };
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
    bases: { type: "object", description: "each basis a value's provenance refers to (see bases.<name>), stated once" },
    summary: { type: "object", additionalProperties: LABELLED },
    scores: LABELLED,
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
      description:
        "detailed: every finding (id, severity, count, examples, fix, provenance); concise: the checks top_fixes leave out, as {value: {<severity>: {<check id>: URLs}}, provenance}",
    },
    comparison: LABELLED,
    check: { type: "object" },
    items: LABELLED,
    range: { type: "object" },
    next_cursor: { type: "string" },
    page: LABELLED,
    issues: LABELLED,
    crawl: { type: "object" },
    pages: LABELLED,
    charts: LABELLED,
  },
  // An audit answers summary, scores, top_fixes and findings; a read by check or URL answers check/items or page/issues.
  required: ["report_id", "target", "generated_at"],
} as const;

/** "12 URL(s) on 440 pages", or the shared element of a template problem. */
export function reachText(fix: RankedFix): string {
  if (fix.template) return `${fix.urls_affected} URL(s), ${fix.template.pages} pages sharing one template element`;
  return fix.pages !== fix.urls_affected ? `${fix.urls_affected} URL(s) on ${fix.pages} pages` : `${fix.urls_affected} URL(s)`;
}

/** The fixes not shown, by id: the first few, then how many more. */
function moreText(ids: string[]): string {
  const shown = ids.slice(0, MORE_IDS).join(", ");
  return ids.length > MORE_IDS ? `${shown} and ${ids.length - MORE_IDS} more` : shown;
}

/** A URL as a path when it is on the audited origin (the text names the origin once). */
export function relativeTo(target: string): (text: string) => string {
  const origin = URL.canParse(target) ? `${new URL(target).origin}/` : "";
  return (text) => (origin ? text.replaceAll(origin, "/") : text);
}

function example(f: Finding | undefined, rel: (url: string) => string): string {
  const first = f?.examples[0];
  const evidence = f?.template?.evidence ?? first?.evidence ?? "";
  return first ? `\n     e.g. ${rel(first.url)}: ${clip(rel(evidence), CONCISE_EVIDENCE)}` : "";
}

/**
 * How the readable report names the settings it suggests: an agent sets the tool's arguments,
 * a terminal user the CLI's flags. A report must not send either to the other's words.
 */
export interface ReportWords {
  /** What lists every fix. */
  allFixes: string;
  /** How to read every URL of one check. */
  byCheck: string;
  /** The settings that let a bounded crawl see more. */
  bounds: string;
  /** The settings that give a slow start page more time. */
  slowStart: string;
  /** How to turn the production twin off. */
  twinOff: string;
  /** A person reads check titles; an agent knows the check ids. */
  titles: boolean;
  /** A person reads an example under each fix; an agent has them in the structured answer. */
  examples: boolean;
}

export const TOOL_WORDS: ReportWords = {
  allFixes: "response_format=detailed",
  byCheck: "seo_audit_site {report_id, check} (paged), or {report_id, url} for one page; no new crawl",
  bounds: "raise the bounds (max_pages, max_depth, max_seconds)",
  slowStart: "raise max_seconds or timeout_ms",
  twinOff: 'pass production_url="none"',
  titles: false,
  examples: false,
};

export const CLI_WORDS: ReportWords = {
  allFixes: "--detailed",
  byCheck: "--csv DIR writes them (pages.csv and one file per check); --html FILE lists them",
  bounds: "raise the bounds (--max-pages, --max-depth, --max-seconds)",
  slowStart: "raise --max-seconds or --timeout-ms",
  twinOff: "pass --production-url none",
  titles: true,
  examples: true,
};

/** The first line of a partial audit: a cancelled one was stopped on purpose, not by a bound. */
function truncationLine(report: AuditReport, words: ReportWords): string {
  const reasons = report.truncation_reasons.join(", ");
  if (report.truncation_reasons.includes("cancelled"))
    return "CANCELLED: a partial audit of the pages crawled before it was stopped; run it again to finish.";
  return `TRUNCATED (${reasons}): a partial audit; ${words.bounds} to see more.`;
}

/** The rendering mode's counts and lab figures, in words. */
function renderingLines(r: NonNullable<AuditReport["rendering"]>, rel: (text: string) => string): string[] {
  const failed = r.render_failed > 0 ? `, ${r.render_failed} could not be` : "";
  const lines = [
    `Rendered ${r.pages_rendered} page(s) in a headless browser (${r.tabs} tabs${failed}); their own requests: ${r.requests} let through, ${r.requests_blocked} refused (off the site, robots.txt or after the crawl stopped) [measured].`,
  ];
  if (r.lab && r.lab.pages.length > 0) {
    const shown = r.lab.pages.slice(0, 3).map((p) => `${rel(p.url)} LCP ${p.lcpMs ?? "none"} ms, CLS ${p.cls}, TBT ${p.tbtMs} ms, ${p.requests} requests`);
    lines.push(`Lab metrics of ${r.lab.pages.length} page(s) [measured, ${r.lab.throttling.name}]: ${shown.join("; ")}${r.lab.pages.length > 3 ? "; …" : ""}.`);
  }
  return lines;
}

/** The external link check's counts, in words. */
function externalLine(e: NonNullable<AuditReport["external_links"]>): string {
  const n = e.not_checked;
  const skipped = [`${n.cap} over the cap`, `${n.robots} disallowed by robots.txt`, `${n.time} out of time`, `${n.private} on private addresses`]
    .filter((text) => !text.startsWith("0 "));
  return `External links: ${e.found} found, ${e.checked} checked (${e.broken} broken, ${e.redirected} redirected)${skipped.length > 0 ? `; not checked: ${skipped.join(", ")}` : ""} [measured].`;
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
  const below = Object.entries(report.scores.categories).filter(([, v]) => v < 100);
  const cats = below.map(([c, v]) => `${c} ${v}`);
  const rest = below.length === 0 ? "every category 100" : below.length < 11 ? "the others 100" : "";
  lines.push(`Score ${report.scores.overall}/100 [derived]: ${[...cats, rest].filter(Boolean).join(", ")}`);
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
      `Production twin: ${report.twin.production} read as this site (${TWIN_VIA[report.twin.via]}); ${words.twinOff} to read it literally.`,
    );
  if (report.rendering) lines.push(...renderingLines(report.rendering, relativeTo(report.target)));
  if (report.external_links) lines.push(externalLine(report.external_links));
  for (const cut of report.cuts)
    lines.push(`Cut (${cut.bound}): ${cut.detail}${cut.examples[0] ? `; commonest: ${cut.examples[0]}` : ""}.`);
  const byId = new Map(report.findings.map((f) => [f.id, f]));
  const fixes = format === "detailed" ? report.fixes : report.fixes.slice(0, CONCISE_FIXES);
  const rel = relativeTo(report.target);
  if (fixes.length > 0) lines.push("Fixes, highest priority first (paths on the audited origin):");
  else if (s.html_pages > 0) lines.push("No problems found.");
  for (const fix of fixes) {
    const f = byId.get(fix.check_id);
    const label = f?.provenance.kind === "rule-of-thumb" ? " [rule of thumb]" : "";
    const name = words.titles ? `${fix.title} (${fix.check_id})` : fix.check_id;
    lines.push(`  ${fix.rank}. [${fix.severity}] ${name}: ${reachText(fix)}${label}. ${fix.fix}${words.examples || format === "detailed" ? example(f, rel) : ""}`);
  }
  if (format !== "detailed" && report.fixes.length > fixes.length)
    lines.push(`  More: ${moreText(report.fixes.slice(fixes.length).map((f) => f.check_id))} (${words.allFixes} lists all).`);
  if (report.fixes.length > 0 && report.id) lines.push(`Every URL of a check: ${words.byCheck}.`);
  const info = report.findings.filter((f) => f.severity === "info");
  if (info.length > 0) lines.push(`Notes: ${info.map((f) => `${f.id} (${f.count})`).join(", ")}`);
  if (comparison) {
    lines.push(
      `Compared with ${comparison.against}${comparison.against_target ? ` (an audit of ${comparison.against_target}, not ${report.target}: URL-level changes compare different start URLs)` : ""}: ${comparison.fixed.count} fixed, ${comparison.new.count} new, ${comparison.persisting.count} persisting; score ${comparison.score_change >= 0 ? "+" : ""}${comparison.score_change}.`,
    );
  }
  lines.push("Provenance: counts measured by this crawl; scores and ranks derived; thresholds rules of thumb.");
  return lines.join("\n");
}
