/**
 * The audit report as one self-contained HTML file (`seo-audit-mcp audit <url> --html <file>`):
 * score, what the bounds cut, ranked fixes with the URLs they affect, findings by severity,
 * charts (status codes, depth, problems per section), a sortable page table and the re-audit
 * comparison. Style, script and charts are inline and a Content-Security-Policy allows nothing
 * else, so opening it makes no request; every crawled string is escaped.
 * @module
 */
import type { Comparison } from "../audit/compare.ts";
import { SEVERITIES } from "../audit/catalogue.ts";
import { TWIN_VIA } from "../audit/present.ts";
import type { AuditReport } from "../audit/report.ts";
import { SCRIPT, STYLE } from "./assets.ts";
import { barChart, depthBars, statusBars } from "./charts.ts";
import { esc, formatNumber as n, urlLink } from "./escape.ts";

/** URLs listed under each fix in the file (the stored report keeps up to 5,000 per check). */
const URLS_PER_FIX = 100;

function nonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

function header(report: AuditReport): string {
  const s = report.stats;
  return `<header><h1>SEO audit</h1><p class="target">${urlLink(report.target)}</p>
<p class="muted">${esc(report.finished_at)} · ${n(s.pages_crawled)} pages crawled (${n(s.html_pages)} with HTML) in ${(s.duration_ms / 1000).toFixed(1)} s · ${n(s.requests)} requests${report.id ? ` · report <code>${esc(report.id)}</code>` : ""}</p></header>`;
}

function scoreCard(report: AuditReport): string {
  const cats = Object.entries(report.scores.categories)
    .map(
      ([cat, value]) =>
        `<div class="cat"><span>${esc(cat)}</span><span class="meter"><span style="width:${Math.max(0, Math.min(100, value))}%"></span></span><span class="num">${value}</span></div>`,
    )
    .join("");
  return `<section id="score" class="card"><div class="score-line"><div class="score"><span id="overall-score">${report.scores.overall}</span><small>/100</small></div><div class="cats">${cats}</div></div>
<p class="provenance">Derived: each category is 100 × Π(1 − severity weight × (0.5 + 0.5 × share of pages affected)); the score is their mean.</p></section>`;
}

function notes(report: AuditReport): string {
  const out: string[] = [];
  if (report.twin)
    out.push(
      `<div class="card" id="twin">Production twin: URLs on ${urlLink(report.twin.production)} are read as this site's own paths (${esc(TWIN_VIA[report.twin.via] ?? report.twin.via)}).</div>`,
    );
  for (const cut of report.cuts)
    out.push(
      `<div class="card cut" data-bound="${esc(cut.bound)}"><strong>Cut by ${esc(cut.bound)}</strong>: ${esc(cut.detail)}${cut.examples.length > 0 ? `<ul class="urls">${cut.examples.map((e) => `<li>${esc(e)}</li>`).join("")}</ul>` : ""}</div>`,
    );
  if (out.length === 0) return "";
  const title = report.truncated ? "A partial audit: what was cut, and why" : "Notes";
  return `<section id="notes"><h2>${title}</h2>${out.join("")}</section>`;
}

function affectedList(report: AuditReport, checkId: string, total: number): string {
  const finding = report.findings.find((f) => f.id === checkId);
  const evidence = new Map((finding?.examples ?? []).map((e) => [e.url, e.evidence]));
  const urls = report.affected[checkId] ?? [...evidence.keys()];
  const items = urls
    .slice(0, URLS_PER_FIX)
    .map((url) => `<li>${urlLink(url)}${evidence.has(url) ? ` <span class="muted">${esc(evidence.get(url))}</span>` : ""}</li>`);
  const more = total - items.length;
  return `<details${items.length <= 5 ? " open" : ""}><summary>${n(total)} URL(s) affected</summary><ul class="urls">${items.join("")}${more > 0 ? `<li class="muted">… and ${n(more)} more</li>` : ""}</ul></details>`;
}

function fixes(report: AuditReport): string {
  if (report.fixes.length === 0) return `<section id="fixes"><h2>Ranked fixes</h2><p>No problems found.</p></section>`;
  const items = report.fixes.map(
    (fix) =>
      `<li class="fix card" data-check="${esc(fix.check_id)}"><h3><span class="rank">${fix.rank}.</span><span class="sev sev-${esc(fix.severity)}">${esc(fix.severity)}</span> <span class="fix-title">${esc(fix.title)}</span> <code>${esc(fix.check_id)}</code></h3>
<p class="fix-text">${esc(fix.fix)}</p><p class="muted">${n(fix.pages)} page(s) · ${esc(fix.category)}</p>${affectedList(report, fix.check_id, fix.urls_affected)}</li>`,
  );
  return `<section id="fixes"><h2>Ranked fixes</h2><p class="provenance">Ranked by severity, then by the pages that carry the problem.</p><ol class="fixes">${items.join("")}</ol></section>`;
}

function findingsBySeverity(report: AuditReport): string {
  const groups = SEVERITIES.map((severity) => {
    const rows = report.findings.filter((f) => f.severity === severity);
    if (rows.length === 0) return "";
    const body = rows
      .map(
        (f) =>
          `<tr><td><code>${esc(f.id)}</code></td><td>${esc(f.title)}</td><td class="num">${n(f.count)}</td><td class="provenance">${esc(f.provenance.kind)}${f.provenance.kind === "rule-of-thumb" && "basis" in f.provenance ? `: ${esc(f.provenance.basis)}` : ""}</td></tr>`,
      )
      .join("");
    return `<h3><span class="sev sev-${severity}">${severity}</span> ${rows.length} check(s)</h3><table class="findings" data-severity="${severity}"><thead><tr><th>check</th><th>what</th><th class="num">URLs</th><th>basis</th></tr></thead><tbody>${body}</tbody></table>`;
  });
  return `<section id="findings"><h2>Findings by severity</h2>${groups.join("") || "<p>None.</p>"}</section>`;
}

function charts(report: AuditReport): string {
  const sections = report.charts.sections.map((s) => ({ label: s.section, value: s.issues }));
  return `<section id="charts"><h2>Charts</h2><div class="charts">${barChart("chart-status", "Pages by status code", statusBars(report.charts.status))}${barChart("chart-depth", "Pages by click depth", depthBars(report.charts.depth))}${barChart("chart-sections", "Problems per section (first path segment)", sections)}</div></section>`;
}

function pageTable(report: AuditReport): string {
  const rows = report.pages
    .map(
      (p) =>
        `<tr><td class="url">${urlLink(p.url)}</td><td class="num">${p.status}</td><td class="num" data-sort="${p.depth ?? 999999}">${p.depth ?? "–"}</td><td class="num">${p.inlinks}</td><td class="num">${p.issues}</td><td class="num" data-sort="${p.words ?? -1}">${p.words ?? ""}</td><td>${p.in_sitemap ? "yes" : ""}</td><td>${esc(p.type ?? p.state)}</td><td>${esc(p.title ?? "")}</td></tr>`,
    )
    .join("");
  const head = [
    ["URL", ""],
    ["Status", "num"],
    ["Depth", "num"],
    ["Inlinks", "num"],
    ["Problems", "num"],
    ["Words", "num"],
    ["Sitemap", ""],
    ["Type", ""],
    ["Title", ""],
  ]
    .map(([label, cls]) => `<th${cls ? ` class="${cls}"` : ""}><button type="button">${label}</button></th>`)
    .join("");
  const shown = report.pages.length < report.stats.pages_crawled ? ` (the first ${n(report.pages.length)} of ${n(report.stats.pages_crawled)}, in crawl order)` : "";
  return `<section id="pages"><h2>Pages${shown}</h2><p class="muted">Click a column heading to sort.</p><table id="page-table"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></section>`;
}

function comparisonSection(comparison: Comparison | undefined): string {
  if (!comparison) return "";
  const delta = comparison.score_change;
  const list = (name: string, bucket: Comparison["fixed"]) =>
    `<details><summary>${n(bucket.count)} ${name}</summary><ul class="urls">${bucket.items.map((i) => `<li><code>${esc(i.check_id)}</code> ${urlLink(i.url)}</li>`).join("")}</ul></details>`;
  const byCheck = comparison.by_check
    .map((row) => `<tr><td><code>${esc(row.check_id)}</code></td><td class="num">${n(row.before)}</td><td class="num">${n(row.after)}</td></tr>`)
    .join("");
  return `<section id="comparison"><h2>Compared with ${esc(comparison.against)}</h2>
<p>Score <span class="${delta >= 0 ? "delta-up" : "delta-down"}" id="score-change">${delta >= 0 ? "+" : ""}${delta}</span>; <span id="fixed-count">${n(comparison.fixed.count)}</span> fixed, ${n(comparison.new.count)} new, ${n(comparison.persisting.count)} persisting.${comparison.against_target ? ` The earlier audit was of ${urlLink(comparison.against_target)}.` : ""}</p>
${list("fixed", comparison.fixed)}${list("new", comparison.new)}${list("persisting", comparison.persisting)}
${byCheck ? `<table><thead><tr><th>check</th><th class="num">before</th><th class="num">after</th></tr></thead><tbody>${byCheck}</tbody></table>` : ""}</section>`;
}

/** The whole report as one HTML document. */
export function renderReportHtml(report: AuditReport, comparison?: Comparison): string {
  const key = nonce();
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${key}'; img-src data:; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>SEO audit of ${esc(report.target)}</title>
<style>${STYLE}</style></head><body>
${header(report)}
${scoreCard(report)}
${notes(report)}
${comparisonSection(comparison)}
${fixes(report)}
${findingsBySeverity(report)}
${charts(report)}
${pageTable(report)}
<footer class="muted"><p>Facts are measured by this crawl; scores and priorities are derived; length, size and time thresholds are rules of thumb. Written by seo-audit-mcp.</p></footer>
<script nonce="${key}">${SCRIPT}</script>
</body></html>
`;
}
