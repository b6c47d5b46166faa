/**
 * The rendering mode in a real headless Chromium (Debian's chromium, driven by puppeteer-core;
 * nothing downloaded) against loopback fixture sites: the app's links found after rendering are
 * crawled, raw and rendered HTML are compared, every request a page makes passes robots.txt and
 * the same-site rule, lab metrics are measured, and without a browser the audit says how to get one.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { nodeHttpRequest } from "../../../shim/node/seo/crawl-request.ts";
import { browserRenderer, findBrowser } from "../../../shim/node/seo/render-browser.ts";
import { type AuditRequest, handleAuditRequest } from "../../../src/seo/audit/audit-request.ts";
import type { AuditReport } from "../../../src/seo/audit/report.ts";
import { memoryReportStore } from "../../../src/seo/audit/report-store.ts";
import { auditCommand } from "../../../src/seo/cli/audit.ts";
import { presentReport } from "../../../src/seo/audit/present.ts";
import { reportText } from "../../../src/seo/audit/report-text.ts";
import { loadConfig } from "../../../src/seo/config.ts";
import { buildPageReport } from "../../../src/seo/page-report/report.ts";
import { renderReportHtml } from "../../../src/seo/report-html/render.ts";
import { isApiError } from "../../../src/shared/errors.ts";
import { serveSite, type TestSite } from "../crawl/site-server.ts";
import { serveSpaSite } from "../fakes/spa-site.ts";

const CHROMIUM = { CHROME_PATH: "/usr/bin/chromium" };
const http = nodeHttpRequest(4);
const sites: TestSite[] = [];
let spa: TestSite;
let spaReport: AuditReport;

async function audit(site: TestSite, extra: Partial<AuditRequest> = {}, env = CHROMIUM): Promise<AuditReport> {
  const { report } = await handleAuditRequest(
    { url: `${site.origin}/`, render: true, max_pages: 8, concurrency: 2, lab_sample: 0, ...extra },
    { fetch, request: http.request, now: () => new Date(), reports: memoryReportStore(), renderer: browserRenderer({ env, tabs: 2 }) },
  );
  return report;
}

async function serve(site: Promise<TestSite>): Promise<TestSite> {
  const started = await site;
  sites.push(started);
  return started;
}

const ids = (report: AuditReport) => report.findings.map((f) => f.id);
const evidence = (report: AuditReport, id: string) => report.findings.find((f) => f.id === id)?.examples[0]?.evidence ?? "";

before(async () => {
  spa = await serve(serveSpaSite());
  spaReport = await audit(spa, { lab_sample: 2 });
});
after(async () => {
  for (const site of sites) await site.close();
  http.close();
});

test("links the app builds in the browser are crawled: the one-page crawl becomes a site", () => {
  assert.equal(spaReport.stats.pages_crawled, 8);
  assert.equal(spaReport.truncation_reasons.includes("max_pages"), true);
  assert.ok((spaReport.rendering?.pages_rendered ?? 0) >= 8, JSON.stringify(spaReport.rendering));
  assert.equal(spaReport.rendering?.render_failed, 0);
  assert.ok(spa.paths().includes("/p/1"));
});

test("raw and rendered HTML compared: links, words, meta only in the rendered page, title changed by script", () => {
  const found = ids(spaReport);
  for (const id of ["rendered-only-links", "rendered-only-content", "rendered-only-meta", "rendered-changes-meta"])
    assert.ok(found.includes(id as never), `${id} in ${found.join(", ")}`);
  assert.match(evidence(spaReport, "rendered-only-links"), /^50 link\(s\) only after rendering \(raw HTML: 0\)/);
  assert.match(evidence(spaReport, "rendered-only-content"), /^0 words in the raw HTML, \d+ after rendering/);
  assert.match(evidence(spaReport, "rendered-only-meta"), /meta description "How to find/);
  assert.match(evidence(spaReport, "rendered-changes-meta"), /title "App" → "Charging guide/);
  // the checks read the rendered page: the shell's findings are gone
  for (const id of ["script-built-page", "meta-description-missing", "h1-missing"]) assert.ok(!found.includes(id as never), id);
});

test("lab metrics for the sample, measured in the browser under named throttling", () => {
  const lab = spaReport.rendering?.lab;
  assert.ok(lab);
  assert.equal(lab.pages.length, 2);
  const page = lab.pages[0];
  assert.ok(page);
  assert.equal(page.error, undefined);
  assert.ok(page.lcpMs !== null && page.lcpMs > 0, JSON.stringify(page));
  assert.ok(page.transferBytes > 0 && page.requests >= 3, JSON.stringify(page));
  assert.ok(page.renderBlocking.some((url) => url.endsWith("/app.css")), JSON.stringify(page.renderBlocking));
  assert.equal(lab.throttling.cpuSlowdown, 4);
  const summary = presentReport(spaReport, "concise").summary as Record<string, { provenance: { kind: string; basis?: string } }>;
  assert.equal(summary.rendering?.provenance.kind, "measured");
  assert.equal(summary.lab?.provenance.kind, "measured");
  assert.match(summary.lab?.provenance.basis ?? "", /throttling: Lighthouse mobile/);
});

test("every request a rendered page makes passes robots.txt and stays on the audited host", async () => {
  const other = await serve(serveSite((_req, res) => void res.end("window.tracked = 1")));
  const script = `fetch("/private/secret.json"); fetch("/api/ok.json");
    const s = document.createElement("script"); s.src = "${other.origin.replace("127.0.0.1", "localhost")}/track.js"; document.head.append(s);
    document.getElementById("root").innerHTML = "<main><h1>Hi</h1><p>text</p></main>";`;
  const site = await serve(serveSpaSite({ script }));
  const report = await audit(site, { max_pages: 1 });
  assert.equal(other.requests.length, 0, "the off-host script was requested");
  assert.ok(!site.paths().includes("/private/secret.json"), site.paths().join(" "));
  assert.ok(site.paths().includes("/api/ok.json"), site.paths().join(" "));
  const reasons = (report.rendering?.blocked_examples ?? []).map((b) => `${new URL(b.url).pathname} ${b.reason}`);
  assert.ok(reasons.includes("/private/secret.json robots.txt"), reasons.join("; "));
  assert.ok(reasons.includes("/track.js off the audited site"), reasons.join("; "));
});

test("a noindex and a canonical that script changes are reported; the server-rendered twin is silent", async () => {
  const script = `const m = document.createElement("meta"); m.name = "robots"; m.content = "noindex"; document.head.append(m);
    document.querySelector('link[rel="canonical"]').href = "/elsewhere";
    document.getElementById("root").innerHTML = "<main><h1>Hi</h1></main>";`;
  const site = await serve(serveSpaSite({ script, head: (path) => `<link rel="canonical" href="${path}">` }));
  const report = await audit(site, { max_pages: 1 });
  assert.match(evidence(report, "rendered-noindex-mismatch"), /noindex added by script/);
  assert.match(evidence(report, "rendered-canonical-mismatch"), /raw canonical http:\/\/127\.0\.0\.1:\d+\/; rendered http:\/\/127\.0\.0\.1:\d+\/elsewhere/);
  const twin = await audit(await serve(serveSpaSite({ serverRendered: true })), { max_pages: 3 });
  assert.deepEqual(ids(twin).filter((id) => id.startsWith("render")), []);
});

test("without a browser the audit answers BROWSER_UNAVAILABLE saying how to install one, before any request", async () => {
  const site = await serve(serveSpaSite());
  await assert.rejects(audit(site, {}, { CHROME_PATH: "/nonexistent/chromium" }), (err) => {
    assert.ok(isApiError(err) && err.code === "BROWSER_UNAVAILABLE", String(err));
    assert.match(err.message, /CHROME_PATH is \/nonexistent\/chromium/);
    assert.match(err.message, /apt-get install chromium/);
    return true;
  });
  assert.deepEqual(site.paths(), []);
  assert.equal(await findBrowser(CHROMIUM), "/usr/bin/chromium");
});

test("seo_page_report without a PageSpeed key measures lab metrics in the local browser; without a browser it says why", async () => {
  const config = loadConfig({ env: {} });
  const deps = { provider: { fetch, now: () => new Date(), sleep: async () => {} }, config };
  const url = `${spa.origin}/p/3`;
  const report = await buildPageReport({ ...deps, renderer: browserRenderer({ env: CHROMIUM }) }, { url, strategies: ["mobile"] });
  assert.equal(report.lab?.provenance.kind, "measured");
  assert.match(report.lab?.provenance.basis ?? "", /throttling: Lighthouse mobile/);
  assert.ok((report.lab?.value?.lcpMs ?? 0) > 0, JSON.stringify(report.lab));
  const missing = await buildPageReport(
    { ...deps, renderer: browserRenderer({ env: { CHROME_PATH: "/nonexistent/chrome" } }) },
    { url, strategies: ["mobile"] },
  );
  assert.equal(missing.lab?.value, null);
  assert.match(missing.lab?.provenance.reason ?? "", /apt-get install chromium/);
  const gateway = await buildPageReport(deps, { url, strategies: ["mobile"] });
  assert.equal(gateway.lab, undefined);
});

test("the text report says what was rendered and refused, and the lab figures with their throttling", () => {
  const text = reportText(spaReport, "concise");
  assert.match(text, /Rendered \d+ page\(s\) in a headless browser \(2 tabs\); their own requests: \d+ let through, \d+ refused/);
  assert.match(text, /Lab metrics of 2 page\(s\) \[measured, Lighthouse mobile[^\]]*\]: \/ LCP \d+ ms, CLS [\d.]+, TBT \d+ ms, \d+ requests/);
});

test("a page that does not load within the timeout is render-failed and audited from its raw HTML", async () => {
  const site = await serve(
    serveSite((req, res) => {
      if (req.url === "/robots.txt") return void res.writeHead(404).end();
      if (req.url === "/never") return; // never answers: the load event never fires
      res.writeHead(200, { "content-type": "text/html" }).end(`<html><head><title>Slow</title></head><body><img src="/never" alt=""><p>raw text</p></body></html>`);
    }),
  );
  const report = await audit(site, { max_pages: 1, timeout_ms: 1000, check_resources: false });
  assert.match(evidence(report, "render-failed"), /not loaded within 1000 ms/);
  assert.equal(report.rendering?.render_failed, 1);
  assert.ok(ids(report).includes("title-too-short"), "the raw HTML was audited");
});

test("a browser that fails mid-crawl fails its pages (render-failed), not the audit", async () => {
  const site = await serve(serveSpaSite({ serverRendered: true }));
  const broken = async () => ({
    tabs: 1,
    render: () => Promise.reject(new Error("Target closed")),
    measure: () => Promise.reject(new Error("unused")),
    close: async () => {},
  });
  const { report } = await handleAuditRequest(
    { url: `${site.origin}/`, render: true, max_pages: 2, lab_sample: 1 },
    { fetch, request: http.request, now: () => new Date(), reports: memoryReportStore(), renderer: broken },
  );
  assert.equal(report.stats.pages_crawled, 2);
  assert.match(evidence(report, "render-failed"), /the browser failed: Target closed/);
  assert.match(report.rendering?.lab?.pages[0]?.error ?? "", /the browser failed: unused/);
});

test("the CLI's --render without a browser prints BROWSER_UNAVAILABLE with the install hint and exits 1", async () => {
  const site = await serve(serveSpaSite());
  const err: string[] = [];
  const code = await auditCommand([`${site.origin}/`, "--render", "--lab-sample", "3"], {
    stdout: () => {},
    stderr: (s) => void err.push(s),
    fetch,
    request: http.request,
    reports: memoryReportStore(),
    now: () => new Date(),
    renderer: browserRenderer({ env: { CHROME_PATH: "/nonexistent/chromium" } }),
  });
  assert.equal(code, 1);
  assert.match(err.join(""), /BROWSER_UNAVAILABLE: CHROME_PATH is \/nonexistent\/chromium, which is not an executable file; install a browser \(apt-get install chromium/);
  assert.deepEqual(site.paths(), []);
});

test("the HTML report shows the rendering counts and the lab table with its throttling", () => {
  const page = renderReportHtml(spaReport);
  assert.match(page, /<div class="card" id="rendering">Rendered \d+ page\(s\) in a headless browser \(2 tabs\)/);
  assert.match(page, /<th>LCP ms<\/th>/);
  assert.match(page, /throttling: Lighthouse mobile/);
});
