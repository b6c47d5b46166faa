/**
 * Prints what the issue's before/after figures are made of, for the gallery (3,335 and ~10,000
 * pages) and the docs fixture: the ranked top fixes, the concise and detailed answers' sizes in
 * tokens (characters / 4) and the HTML report's size. Run by hand:
 * `node --import tsx tests/seo/fakes/measure-audit.ts [--quick] [--screenshot FILE]` (a PNG of
 * the 3,000-page gallery's HTML report, taken in Debian's Chromium).
 * @module
 */
import { handleAuditRequest } from "../../../src/seo/audit/audit-request.ts";
import { presentReport } from "../../../src/seo/audit/present.ts";
import { reportText } from "../../../src/seo/audit/report-text.ts";
import { memoryReportStore } from "../../../src/seo/audit/report-store.ts";
import { renderReportHtml } from "../../../src/seo/report-html/render.ts";
import type { TestSite } from "../crawl/site-server.ts";
import { serveDocsSite } from "./docs-site.ts";
import { serveGallerySite } from "./gallery-site.ts";

const tokens = (value: unknown) => Math.round((typeof value === "string" ? value : JSON.stringify(value)).length / 4);

const shotAt = process.argv.indexOf("--screenshot");
const shot = shotAt > 0 ? process.argv[shotAt + 1] : undefined;

async function screenshot(html: string, file: string): Promise<void> {
  const { default: puppeteer } = await import("puppeteer-core");
  const { writeFileSync } = await import("node:fs");
  const page = `${file}.html`;
  writeFileSync(page, html);
  const browser = await puppeteer.launch({ executablePath: "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const tab = await browser.newPage();
    await tab.setViewport({ width: 1200, height: 1800 });
    await tab.goto(`file://${page}`, { waitUntil: "load" });
    await tab.screenshot({ path: file as `${string}.png` });
  } finally {
    await browser.close();
  }
}

async function measure(name: string, site: TestSite, start: string): Promise<void> {
  try {
    const { report } = await handleAuditRequest(
      { url: `${site.origin}${start}`, max_pages: 20000 },
      { fetch, now: () => new Date(), reports: memoryReportStore(), frontEnd: "cli" },
    );
    const answer = (format: "concise" | "detailed") =>
      tokens(presentReport(report, format)) + tokens(reportText(report, format));
    console.log(`\n${name}: ${report.stats.pages_crawled} pages crawled, ${report.stats.html_pages} HTML`);
    for (const fix of report.fixes.slice(0, 8))
      console.log(`  ${fix.rank}. [${fix.severity}] ${fix.check_id}: ${JSON.stringify({ ...fix, rank: undefined, title: undefined, fix: undefined, check_id: undefined, severity: undefined, category: undefined })}`);
    console.log(`  concise ${answer("concise")} tokens, detailed ${answer("detailed")} tokens (chars/4, structured + text)`);
    const html = renderReportHtml(report);
    console.log(`  html ${(html.length / 1e6).toFixed(2)} MB`);
    if (shot && name === "gallery 3k") await screenshot(html, shot);
  } finally {
    await site.close();
  }
}

await measure("gallery 3k", await serveGallerySite(), "/");
if (!process.argv.includes("--quick")) await measure("gallery 10k", await serveGallerySite({ categories: 90 }), "/");
await measure("docs", await serveDocsSite(), "/docs/");
