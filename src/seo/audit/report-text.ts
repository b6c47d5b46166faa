/**
 * The readable report: what an agent reads first and what the CLI prints, in the words of the
 * one reading it (the tool's arguments or the CLI's flags).
 * @module
 */
import type { ResponseFormat } from "../tool-input.ts";
import type { Comparison } from "./compare.ts";
import type { Finding } from "./finding.ts";
import { clip } from "./finding.ts";
import { CONCISE_EVIDENCE, CONCISE_FIXES, relativeTo, TWIN_VIA } from "./present.ts";
import type { AuditReport } from "./report.ts";
import type { RankedFix } from "./score.ts";

/** Fix ids the concise text names after the shown fixes. */
const MORE_IDS = 8;

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

function example(f: Finding | undefined, rel: (url: string) => string): string {
  const first = f?.examples[0];
  const evidence = f?.template?.evidence ?? first?.evidence ?? "";
  return first ? `\n     e.g. ${rel(first.url)}: ${clip(rel(evidence), CONCISE_EVIDENCE)}` : "";
}

/**
 * How the readable report names the settings it suggests: an agent sets the tool's arguments,
 * a terminal user the CLI's flags. A report must not send either to the other's words.
 */
interface ReportWords {
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

const TOOL_WORDS: ReportWords = {
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
  lines.push(scoreLine(report), ...crawlLines(report, words), ...fixLines(report, format, words));
  const info = report.findings.filter((f) => f.severity === "info");
  if (info.length > 0) lines.push(`Notes: ${info.map((f) => `${f.id} (${f.count})`).join(", ")}`);
  if (comparison) lines.push(comparisonLine(report, comparison));
  lines.push("Provenance: counts measured by this crawl; scores and ranks derived; thresholds rules of thumb.");
  return lines.join("\n");
}

/** The overall score and the categories below 100; the rest are 100 (when all eleven are below, there is no rest). */
function scoreLine(report: AuditReport): string {
  const below = Object.entries(report.scores.categories).filter(([, v]) => v < 100);
  const cats = below.map(([c, v]) => `${c} ${v}`);
  const rest = below.length === 0 ? "every category 100" : below.length < 11 ? "the others 100" : "";
  return `Score ${report.scores.overall}/100 [derived]: ${[...cats, rest].filter(Boolean).join(", ")}`;
}

/** What the crawl could not audit, skipped, read differently or cut, and what it measured besides pages. */
function crawlLines(report: AuditReport, words: ReportWords): string[] {
  const s = report.stats;
  const lines: string[] = [];
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
  return lines;
}

/** The ranked fixes (the first few when concise, naming the rest by id) and where every URL of a check is. */
function fixLines(report: AuditReport, format: ResponseFormat, words: ReportWords): string[] {
  const byId = new Map(report.findings.map((f) => [f.id, f]));
  const fixes = format === "detailed" ? report.fixes : report.fixes.slice(0, CONCISE_FIXES);
  const rel = relativeTo(report.target);
  const lines: string[] = [];
  if (fixes.length > 0) lines.push("Fixes, highest priority first (paths on the audited origin):");
  else if (report.stats.html_pages > 0) lines.push("No problems found.");
  for (const fix of fixes) {
    const f = byId.get(fix.check_id);
    const label = f?.provenance.kind === "rule-of-thumb" ? " [rule of thumb]" : "";
    const name = words.titles ? `${fix.title} (${fix.check_id})` : fix.check_id;
    lines.push(`  ${fix.rank}. [${fix.severity}] ${name}: ${reachText(fix)}${label}. ${fix.fix}${words.examples || format === "detailed" ? example(f, rel) : ""}`);
  }
  if (format !== "detailed" && report.fixes.length > fixes.length)
    lines.push(`  More: ${moreText(report.fixes.slice(fixes.length).map((f) => f.check_id))} (${words.allFixes} lists all).`);
  if (report.fixes.length > 0 && report.id) lines.push(`Every URL of a check: ${words.byCheck}.`);
  return lines;
}

/** The change since the baseline; a baseline of another start URL says so, since its URLs differ. */
function comparisonLine(report: AuditReport, comparison: Comparison): string {
  return `Compared with ${comparison.against}${comparison.against_target ? ` (an audit of ${comparison.against_target}, not ${report.target}: URL-level changes compare different start URLs)` : ""}: ${comparison.fixed.count} fixed, ${comparison.new.count} new, ${comparison.persisting.count} persisting; score ${comparison.score_change >= 0 ? "+" : ""}${comparison.score_change}.`;
}
