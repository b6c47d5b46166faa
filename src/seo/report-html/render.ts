/**
 * The audit report as one self-contained HTML file (`seo-audit-mcp audit <url> --html <file>`):
 * score, what the bounds cut, ranked fixes with every URL they affect, findings by severity,
 * charts (problems by category and severity, status codes, depth, response times, problems per
 * section), a page
 * table with search, filters by problem and status, paging and sorting, and CSV export of any
 * finding and of the page table. URLs on the audited origin show as paths. Style, script, data
 * and charts are inline and a Content-Security-Policy allows nothing else, so opening it makes
 * no request. Markup is built with `html` (html.ts), which escapes every crawled string; the page
 * table and the URL lists are drawn by the script from JSON data with `textContent`.
 * @module
 */
import type { Comparison } from "../audit/compare.ts";
import { CATEGORIES, SEVERITIES } from "../audit/catalogue.ts";
import type { Finding } from "../audit/finding.ts";
import { TWIN_VIA } from "../audit/present.ts";
import type { AuditReport } from "../audit/report.ts";
import { SCRIPT, STYLE } from "./assets.ts";
import { barChart, categoryBars, depthBars, severityBars, statusBars } from "./charts.ts";
import { formatNumber as n, urlLink } from "./escape.ts";
import { type Html, html, jsonData, raw } from "./html.ts";

/** URLs listed under each fix in the markup; the script shows the rest from the data. */
const URLS_INLINE = 10;

function nonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** Shows a URL on the audited origin as its path. */
type Rel = (text: string) => string;

function header(report: AuditReport): Html {
  const s = report.stats;
  return html`<header><h1>SEO audit</h1><p class="target">${urlLink(report.target)}</p>
<p class="muted">${report.finished_at} · ${n(s.pages_crawled)} pages crawled (${n(s.html_pages)} with HTML) in ${(s.duration_ms / 1000).toFixed(1)} s · ${n(s.requests)} requests${report.id ? html` · report <code>${report.id}</code>` : ""} · URLs below are paths on this origin</p></header>`;
}

function scoreCard(report: AuditReport): Html {
  const cats = Object.entries(report.scores.categories).map(
    ([cat, value]) =>
      html`<div class="cat"><span>${cat}</span><span class="meter"><span style="width:${Math.max(0, Math.min(100, value))}%"></span></span><span class="num">${value}</span></div>`,
  );
  return html`<section id="score" class="card"><div class="score-line"><div class="score"><span id="overall-score">${report.scores.overall}</span><small>/100</small></div><div class="cats">${cats}</div></div>
<p class="provenance">Derived: each category is 100 × Π(1 − severity weight × (0.5 + 0.5 × share of pages affected)); the score is their mean.</p></section>`;
}

/** What the rendering mode loaded and refused, and the lab figures of its sample. */
function renderingCard(r: NonNullable<AuditReport["rendering"]>, origin: string): Html {
  const rows = (r.lab?.pages ?? []).map(
    (p) =>
      html`<tr><td>${urlLink(p.url, origin)}</td><td class="num">${p.lcpMs ?? "–"}</td><td class="num">${p.cls}</td><td class="num">${p.tbtMs}</td><td class="num">${n(p.transferBytes)}</td><td class="num">${p.requests}</td><td class="num">${p.renderBlocking.length}</td><td>${p.error ?? ""}</td></tr>`,
  );
  const lab = r.lab && rows.length > 0
    ? html`<table class="lab"><thead><tr><th>page</th><th>LCP ms</th><th>CLS</th><th>TBT ms</th><th>bytes</th><th>requests</th><th>render-blocking</th><th></th></tr></thead><tbody>${rows}</tbody></table>
<p class="provenance">Measured in the local headless browser, one cold load each; throttling: ${r.lab.throttling.name}; sample: ${r.lab.sample}.</p>`
    : "";
  return html`<div class="card" id="rendering">Rendered ${n(r.pages_rendered)} page(s) in a headless browser (${r.tabs} tabs${r.render_failed > 0 ? `, ${r.render_failed} could not be` : ""}); their own requests: ${n(r.requests)} let through, ${n(r.requests_blocked)} refused (off the site, robots.txt or after the crawl stopped).${lab}</div>`;
}

function notes(report: AuditReport, origin: string): Html | "" {
  const out: Html[] = [];
  if (report.twin)
    out.push(
      html`<div class="card" id="twin">Production twin: URLs on ${urlLink(report.twin.production)} are read as this site's own paths (${TWIN_VIA[report.twin.via] ?? report.twin.via}).</div>`,
    );
  if (report.rendering) out.push(renderingCard(report.rendering, origin));
  for (const cut of report.cuts)
    out.push(
      html`<div class="card cut" data-bound="${cut.bound}"><strong>Cut by ${cut.bound}</strong>: ${cut.detail}${cut.examples.length > 0 ? html`<ul class="urls">${cut.examples.map((e) => html`<li>${origin ? e.replaceAll(`${origin}/`, "/") : e}</li>`)}</ul>` : ""}</div>`,
    );
  if (out.length === 0) return "";
  const title = report.truncated ? "A partial audit: what was cut, and why" : "Notes";
  return html`<section id="notes"><h2>${title}</h2>${out}</section>`;
}

/** The first URLs of a finding, a button that lists all of them, and one that exports them. */
function affectedList(finding: Finding | undefined, total: number, origin: string, rel: Rel): Html {
  const examples = finding?.examples ?? [];
  const items = examples
    .slice(0, URLS_INLINE)
    .map((e) => html`<li>${urlLink(e.url, origin)} <span class="muted">${rel(e.evidence)}</span></li>`);
  const kept = examples.length < total ? html` <span class="muted">(the report keeps the first ${n(examples.length)})</span>` : "";
  const id = finding?.id ?? "";
  const all =
    examples.length > URLS_INLINE
      ? html`<button type="button" class="show-all" data-check="${id}">Show all ${n(examples.length)}</button>`
      : "";
  return html`<details${items.length <= 5 ? " open" : ""}><summary>${n(total)} URL(s) affected${kept}</summary><ul class="urls" data-check="${id}">${items}</ul>${all}<button type="button" class="csv" data-check="${id}">CSV</button></details>`;
}

function fixes(report: AuditReport, origin: string, rel: Rel): Html {
  if (report.fixes.length === 0) return html`<section id="fixes"><h2>Ranked fixes</h2><p>No problems found.</p></section>`;
  const byId = new Map(report.findings.map((f) => [f.id, f]));
  const items = report.fixes.map(
    (fix) =>
      html`<li class="fix card" data-check="${fix.check_id}"><h3><span class="rank">${fix.rank}.</span><span class="sev sev-${fix.severity}">${fix.severity}</span> <span class="fix-title">${fix.title}</span> <code>${fix.check_id}</code></h3>
<p class="fix-text">${fix.fix}</p>${fix.template ? html`<p class="template">Shared by ${n(fix.template.pages)} pages: ${rel(fix.template.evidence)}</p>` : ""}<p class="muted">${n(fix.pages)} page(s) carry it · ${fix.category}</p>${affectedList(byId.get(fix.check_id), fix.urls_affected, origin, rel)}</li>`,
  );
  return html`<section id="fixes"><h2>Ranked fixes</h2><p class="provenance">Ranked by severity, then by the pages that carry the problem (a broken link: the pages linking to it); a problem on most pages with the same evidence is one fix in the template.</p><ol class="fixes">${items}</ol></section>`;
}

function findingsBySeverity(report: AuditReport): Html {
  const groups = SEVERITIES.map((severity) => {
    const rows = report.findings.filter((f) => f.severity === severity);
    if (rows.length === 0) return "";
    const body = rows.map(
      (f) =>
        html`<tr><td><code>${f.id}</code></td><td>${f.title}</td><td class="num">${n(f.count)}</td><td class="provenance">${f.provenance.kind}${f.provenance.kind === "rule-of-thumb" && f.provenance.basis ? html`: ${f.provenance.basis}` : ""}</td><td><button type="button" class="filter" data-check="${f.id}">Pages</button> <button type="button" class="csv" data-check="${f.id}">CSV</button></td></tr>`,
    );
    return html`<h3><span class="sev sev-${severity}">${severity}</span> ${rows.length} check(s)</h3><table class="findings" data-severity="${severity}"><thead><tr><th>check</th><th>what</th><th class="num">URLs</th><th>basis</th><th></th></tr></thead><tbody>${body}</tbody></table>`;
  });
  const any = groups.some((g) => g !== "");
  return html`<section id="findings"><h2>Findings by severity</h2>${any ? groups : html`<p>None.</p>`}</section>`;
}

function charts(report: AuditReport): Html {
  const sections = report.charts.sections.map((s) => ({ label: s.section, value: s.issues }));
  return html`<section id="charts"><h2>Charts</h2><div class="charts">${[
    barChart("chart-severity", "URLs affected by severity", severityBars(report.findings, SEVERITIES.slice(0, 4))),
    barChart("chart-category", "URLs affected by category", categoryBars(report.findings, CATEGORIES), "colour: the most severe finding"),
    barChart("chart-status", "Pages by status code", statusBars(report.charts.status)),
    barChart("chart-depth", "Pages by click depth", depthBars(report.charts.depth)),
    barChart(
      "chart-response",
      "Pages by time to first byte",
      Object.entries(report.charts.response ?? {}).map(([label, value]) => ({ label, value, tone: label.startsWith("≥") || label.startsWith("800") ? "s4xx" : "" })),
      "800 ms and over is slow-response",
    ),
    barChart("chart-sections", "Problems per section (first path segment)", sections),
  ]}</div></section>`;
}

const PAGE_COLUMNS = ["Path", "Status", "Depth", "Inlinks", "Problems", "Words", "Sitemap", "Type", "Title"];
const NUMERIC_COLUMNS = new Set(["Status", "Depth", "Inlinks", "Words"]);

function pageTable(report: AuditReport): Html {
  const head = PAGE_COLUMNS.map(
    (label) => html`<th${NUMERIC_COLUMNS.has(label) ? html` class="num"` : ""}><button type="button">${label}</button></th>`,
  );
  const checks = report.findings.map((f) => html`<option value="${f.id}">${f.id} (${n(f.count)})</option>`);
  const statuses = Object.keys(report.charts.status).map((s) => html`<option value="${s}">${s === "0" ? "no response" : s}</option>`);
  const shown = report.pages.length < report.stats.pages_crawled ? ` (the first ${n(report.pages.length)} of ${n(report.stats.pages_crawled)}, in crawl order)` : "";
  return html`<section id="pages"><h2>Pages${shown}</h2>
<div class="controls"><input id="page-search" type="search" placeholder="Search path or title" aria-label="Search path or title">
<select id="page-check" aria-label="Pages with a problem"><option value="">Any problem or none</option><option value="*">With any problem</option>${checks}</select>
<select id="page-status" aria-label="Status"><option value="">Any status</option>${statuses}</select>
<button type="button" id="page-csv">CSV of these pages</button> <span id="page-count" class="muted"></span></div>
<noscript><p>The page table needs JavaScript; the same rows are in the CSV files of <code>audit --csv DIR</code>.</p></noscript>
<table id="page-table"><thead><tr>${head}</tr></thead><tbody></tbody></table>
<div class="pager"><button type="button" id="page-prev">Previous</button> <span id="page-range"></span> <button type="button" id="page-next">Next</button></div></section>`;
}

function comparisonSection(comparison: Comparison | undefined, origin: string): Html | "" {
  if (!comparison) return "";
  const delta = comparison.score_change;
  const list = (name: string, bucket: Comparison["fixed"]) =>
    html`<details><summary>${n(bucket.count)} ${name}</summary><ul class="urls">${bucket.items.map((i) => html`<li><code>${i.check_id}</code> ${urlLink(i.url, origin)}</li>`)}</ul></details>`;
  const byCheck = comparison.by_check.map(
    (row) => html`<tr><td><code>${row.check_id}</code></td><td class="num">${n(row.before)}</td><td class="num">${n(row.after)}</td></tr>`,
  );
  return html`<section id="comparison"><h2>Compared with ${comparison.against}</h2>
<p>Score <span class="${delta >= 0 ? "delta-up" : "delta-down"}" id="score-change">${delta >= 0 ? "+" : ""}${delta}</span>; <span id="fixed-count">${n(comparison.fixed.count)}</span> fixed, ${n(comparison.new.count)} new, ${n(comparison.persisting.count)} persisting.${comparison.against_target ? html` The earlier audit was of ${urlLink(comparison.against_target)}.` : ""}</p>
${list("fixed", comparison.fixed)}${list("new", comparison.new)}${list("persisting", comparison.persisting)}
${byCheck.length > 0 ? html`<table><thead><tr><th>check</th><th class="num">before</th><th class="num">after</th></tr></thead><tbody>${byCheck}</tbody></table>` : ""}</section>`;
}

/**
 * What the script draws from: page rows as arrays (path, status, depth, inlinks, problem ids,
 * words, in sitemap, type, title) and every stored URL of every finding as [path, evidence
 * index]; the evidence texts are listed once (a template problem repeats one text on thousands
 * of pages).
 */
function reportData(report: AuditReport, rel: Rel) {
  // A text's index is its place in insertion order; `evidence`, read after `findings` interned them all, lists them so.
  const index = new Map<string, number>();
  const intern = (text: string) => {
    if (!index.has(text)) index.set(text, index.size);
    return index.get(text) as number;
  };
  return {
    origin: originOf(report.target),
    pages: report.pages.map((p) => [
      rel(p.url),
      p.status,
      p.depth,
      p.inlinks,
      (p.issue_ids ?? []).join(" "),
      p.words ?? null,
      p.in_sitemap ? 1 : 0,
      p.type ?? p.state,
      p.title ?? "",
    ]),
    findings: Object.fromEntries(report.findings.map((f) => [f.id, f.examples.map((e) => [rel(e.url), intern(rel(e.evidence))])])),
    evidence: [...index.keys()],
  };
}

function originOf(url: string): string {
  return URL.parse(url)?.origin ?? "";
}

/** The whole report as one HTML document. */
export function renderReportHtml(report: AuditReport, comparison?: Comparison): string {
  const key = nonce();
  const origin = originOf(report.target);
  const rel: Rel = (text) => (origin ? text.replaceAll(`${origin}/`, "/") : text);
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${key}'; img-src data:; base-uri 'none'; form-action 'none'`;
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>SEO audit of ${report.target}</title>
<style>${raw(STYLE)}</style></head><body>
${header(report)}
${scoreCard(report)}
${notes(report, origin)}
${comparisonSection(comparison, origin)}
${fixes(report, origin, rel)}
${findingsBySeverity(report)}
${charts(report)}
${pageTable(report)}
<footer class="muted"><p>Facts are measured by this crawl; scores and ranks are derived; length, size and time thresholds are rules of thumb. Written by seo-audit-mcp.</p></footer>
<script type="application/json" id="report-data">${jsonData(reportData(report, rel))}</script>
<script nonce="${key}">${raw(SCRIPT)}</script>
</body></html>
`;
  return page.value;
}
