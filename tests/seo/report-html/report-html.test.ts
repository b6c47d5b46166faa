/**
 * The HTML report (`audit <url> --html <file>`) opened in a real headless Chromium (Debian's
 * chromium package, driven by puppeteer-core; no browser is downloaded): it renders with no
 * console error and no network request, the score and the top fix read from the DOM match the
 * JSON report, the page table sorts, and a crawled title holding a script shows as text.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, test } from "node:test";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { nodeHttpRequest } from "../../../shim/node/seo/crawl-request.ts";
import { memoryReportStore } from "../../../src/seo/audit/report-store.ts";
import { auditCommand } from "../../../src/seo/cli/audit.ts";
import { serveSite, type TestSite } from "../crawl/site-server.ts";
import { bigReport } from "../fakes/big-report.ts";

const CHROMIUM = "/usr/bin/chromium";
const EVIL_TITLE = `</title><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">`;
const dir = mkdtempSync(join(tmpdir(), "seo-html-"));
const reports = memoryReportStore();
let site: TestSite;
let browser: Browser;
let missing = true;

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title><meta name="description" content="A page of the report fixture site."></head><body><main><h1>${title.replace(/</g, "&lt;")}</h1>${body}</main></body></html>`;

before(async () => {
  site = await serveSite((req, res) => {
    const path = req.url ?? "/";
    if (path === "/robots.txt") return void res.writeHead(404).end();
    res.writeHead(path.startsWith("/gone") ? 404 : 200, { "content-type": "text/html; charset=utf-8" });
    if (path === "/") return void res.end(page("Home of the fixture site for reports", '<a href="/docs/evil">evil</a><a href="/docs/a">a</a><a href="/blog/b">b</a><a href="/gone">gone</a><a href="/docs/%22%3E%3Cscript%3Ewindow.__pwned=3%3C/script%3E">odd</a>'));
    // entity-encoded in the page, so the title the crawler reads is the markup itself
    const encoded = EVIL_TITLE.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    if (path === "/docs/evil") return void res.end(`<!doctype html><html><head><title>${encoded}</title></head><body>x</body></html>`);
    if (missing && path === "/blog/b") return void res.end(page("Blog", "<p>short</p>"));
    res.end(page(`Page ${path}`, `<p>${"words ".repeat(250)}</p>`));
  });
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${join(dir, "profile")}`,
    ],
  });
});
after(async () => {
  await browser?.close();
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const http = nodeHttpRequest(4);
  try {
    const code = await auditCommand(args, {
      stdout: (s) => void out.push(s),
      stderr: (s) => void err.push(s),
      fetch,
      request: http.request,
      reports,
      now: () => new Date(),
      readText: (path) => readFile(path, "utf8"),
      writeText: (path, text) => writeFile(path, text),
    });
    return { code, out: out.join(""), err: err.join("") };
  } finally {
    http.close();
  }
}

interface Opened {
  page: Page;
  requests: string[];
  errors: string[];
}

async function open(file: string): Promise<Opened> {
  const tab = await browser.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  const documentUrl = pathToFileURL(file).href;
  await tab.setRequestInterception(true);
  tab.on("request", (request) => {
    if (request.url() === documentUrl) return void request.continue();
    requests.push(request.url());
    void request.abort();
  });
  tab.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  tab.on("pageerror", (error) => errors.push(String(error)));
  await tab.goto(documentUrl, { waitUntil: "load" });
  return { page: tab, requests, errors };
}

test("the report renders offline in Chromium: score and top fix match the JSON, nothing requested, no errors", async () => {
  const first = join(dir, "first.json");
  const before = await cli([`${site.origin}/`, "--json", "--detailed"]);
  assert.equal(before.code, 0, before.err);
  writeFileSync(first, before.out);
  missing = false;
  const file = join(dir, "report.html");
  const run = await cli([`${site.origin}/`, "--json", "--compare", first, "--html", file]);
  assert.equal(run.code, 0, run.err);
  assert.match(run.err, /HTML report: .*report\.html \(\d+ KB, self-contained\)/);
  const json = JSON.parse(run.out) as {
    scores: { value: { overall: number } };
    top_fixes: { check_id: string }[];
    comparison: { value: { fixed: { count: number } } };
  };
  const { page, requests, errors } = await open(file);
  try {
    assert.equal(await page.$eval("#overall-score", (e) => e.textContent), String(json.scores.value.overall));
    assert.equal(await page.$eval(".fix", (e) => e.getAttribute("data-check")), json.top_fixes[0]?.check_id);
    assert.equal(await page.$eval("#fixed-count", (e) => e.textContent), String(json.comparison.value.fixed.count));
    assert.equal(await page.$$eval(".chart svg rect", (rects) => rects.length > 0), true);
    assert.deepEqual(await page.$$eval(".chart", (charts) => charts.map((c) => c.id)), [
      "chart-severity",
      "chart-category",
      "chart-status",
      "chart-depth",
      "chart-response",
      "chart-sections",
    ]);
    assert.deepEqual(requests, [], "the report asks the network for nothing");
    assert.deepEqual(errors, [], "no console errors (a script that slipped through would be refused by the CSP, loudly)");
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    const text = await page.$eval("#page-table", (e) => e.textContent ?? "");
    assert.ok(text.includes(EVIL_TITLE), "the crawled title shows as text");
  } finally {
    await page.close();
  }
});

test("the page table sorts by a column when its heading is clicked", async () => {
  const file = join(dir, "sorted.html");
  const run = await cli([`${site.origin}/`, "--html", file]);
  assert.equal(run.code, 0, run.err);
  const { page, errors } = await open(file);
  try {
    const statuses = () => page.$$eval("#page-table tbody tr", (rows) => rows.map((r) => Number(r.children[1]?.textContent)));
    const heading = await page.$("#page-table th:nth-child(2) button");
    await heading?.click();
    const ascending = await statuses();
    assert.deepEqual(ascending, [...ascending].sort((a, b) => a - b));
    await heading?.click();
    const descending = await statuses();
    assert.deepEqual(descending, [...descending].sort((a, b) => b - a));
    assert.equal(descending[0], 404);
    assert.equal(await page.$eval("#page-table th:nth-child(2)", (e) => e.getAttribute("aria-sort")), "descending");
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test("--html to a path that cannot be written: the report still prints, the exit code is 1", async () => {
  const run = await cli([`${site.origin}/`, "--html", join(dir, "no-such-dir", "x.html")]);
  assert.equal(run.code, 1);
  assert.match(run.err, /cannot write .*x\.html: ENOENT/);
  assert.match(run.out, /^SEO audit of /);
});

test("every crawled string is escaped wherever the report shows it (fuzzed, no browser)", async () => {
  const { default: fc } = await import("fast-check");
  const { renderReportHtml } = await import("../../../src/seo/report-html/render.ts");
  const hostile = fc
    .tuple(fc.string({ maxLength: 20 }), fc.constantFrom("<x-evil>", '"><x-evil a="', "'><x-evil>", "</td><x-evil>"), fc.string({ maxLength: 20 }))
    .map(([a, evil, b]) => `${a}${evil}${b}`);
  fc.assert(
    fc.property(hostile, hostile, (text, other) => {
      const url = `http://h/${encodeURIComponent(other)}?q=${other}`;
      const report = {
        version: 1,
        target: url,
        started_at: text,
        finished_at: text,
        bounds: {},
        truncated: true,
        truncation_reasons: ["max_pages"],
        stats: { pages_crawled: 1, resources_checked: 0, urls_discovered: 1, blocked_by_robots: 0, not_crawled: 0, requests: 1, duration_ms: 1, sitemap_urls: 0, html_pages: 1 },
        robots: [],
        sitemaps: [],
        twin: { production: other, via: "canonicals" },
        cuts: [{ bound: text, urls: 1, detail: other, examples: [text] }],
        charts: { status: { [text]: 1 }, depth: { [other]: 2 }, sections: [{ section: text, pages: 1, issues: 3 }] },
        scores: { overall: 50, categories: { [text]: 10 } },
        fixes: [{ rank: 1, check_id: text, title: other, severity: "high", category: text, urls_affected: 2, pages: 3, template: { pages: 3, evidence: other }, fix: other }],
        findings: [{ id: text, category: "content", severity: "high", title: other, count: 2, examples: [{ url: other, evidence: text }], fix: text, provenance: { kind: "rule-of-thumb", basis: other } }],
        affected: { [text]: [url, other] },
        pages: [{ url, status: 200, depth: 0, state: text, in_sitemap: true, inlinks: 1, issues: 2, issue_ids: [text, other], title: text, type: other }],
      } as unknown as import("../../../src/seo/audit/report.ts").AuditReport;
      const comparison = { against: text, against_target: url, fixed: { count: 1, items: [{ check_id: text, url }] }, new: { count: 0, items: [] }, persisting: { count: 0, items: [] }, by_check: [{ check_id: other, before: 1, after: 0 }], score_change: 3 };
      const html = renderReportHtml(report, comparison);
      assert.ok(!html.includes("<x-evil"), "a crawled string became markup");
      assert.equal(html.split("<script").length - 1, 2, "the data block and our script");
      assert.equal(html.split("<script nonce=").length - 1, 1, "one script runs: ours");
      const data = /<script type="application\/json" id="report-data">([^<]*)<\/script>/.exec(html)?.[1];
      assert.ok(data && JSON.parse(data).pages[0][8] === text, "the data block holds the crawled text, whole");
    }),
    { numRuns: 300 },
  );
});

test("at 10,000 pages the file stays under 5 MB; the page table searches, filters, pages, exports CSV; every URL of a finding is reachable", async () => {
  const { renderReportHtml } = await import("../../../src/seo/report-html/render.ts");
  const html = renderReportHtml(bigReport(10_000));
  assert.ok(html.length < 5 * 1024 * 1024, `${(html.length / 1048576).toFixed(2)} MiB`);
  assert.ok(!html.includes(">http://127.0.0.1:9/gallery/"), "URLs on the audited origin show as paths (links keep the full URL)");
  const file = join(dir, "big.html");
  writeFileSync(file, html);
  const { page, requests, errors } = await open(file);
  try {
    const rows = () => page.$$eval("#page-table tbody tr", (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent ?? "")));
    assert.equal((await rows()).length, 100, "100 rows a page");
    assert.equal(await page.$eval("#page-range", (e) => e.textContent), "1–100 of 10000");
    assert.match((await rows())[7]?.[8] ?? "", /^"><img src=x onerror=/, "a hostile title is text");
    await page.click("#page-next");
    assert.equal(await page.$eval("#page-range", (e) => e.textContent), "101–200 of 10000");
    await page.type("#page-search", "/c3/");
    assert.ok((await rows()).every((r) => r[0]?.includes("/c3/")));
    await page.$eval("#page-search", (e) => ((e as HTMLInputElement).value = ""));
    await page.select("#page-check", "image-missing-alt");
    assert.equal(await page.$eval("#page-count", (e) => e.textContent), "5000 of 10000 pages");
    assert.ok((await rows()).every((r) => r[4]?.split(" ").includes("image-missing-alt")));
    await page.select("#page-status", "404");
    assert.ok((await rows()).every((r) => r[1] === "404"));
    // CSV: the download's text, captured where the file would be saved
    await page.evaluate(() => {
      const w = window as unknown as { __csv: Blob[] };
      w.__csv = [];
      URL.createObjectURL = (blob: Blob) => (w.__csv.push(blob), "blob:captured");
      HTMLAnchorElement.prototype.click = () => {};
    });
    await page.click("#page-csv");
    await page.click('.fix[data-check="image-missing-alt"] summary');
    await page.click('.fix[data-check="image-missing-alt"] button.csv');
    const [pagesCsv, findingCsv] = await page.evaluate(() => Promise.all((window as unknown as { __csv: Blob[] }).__csv.map((b) => b.text())));
    const pageLines = (pagesCsv ?? "").trim().split("\r\n");
    assert.equal(pageLines[0], '"path","status","depth","inlinks","problems","words","in_sitemap","type","title"');
    assert.ok(pageLines.length > 1 && pageLines.slice(1).every((l) => l.startsWith('"http://127.0.0.1:9/gallery/') && l.includes('"404"')));
    const findingLines = (findingCsv ?? "").trim().split("\r\n");
    assert.equal(findingLines.length, 1 + 5000, "every stored URL of the finding");
    assert.ok(pageLines.concat(findingLines).every((l) => !/","=/.test(l)));
    // every URL of a fix, in the page
    await page.click('.fix[data-check="image-missing-alt"] button.show-all');
    assert.equal(await page.$$eval('.fix[data-check="image-missing-alt"] ul.urls li', (lis) => lis.length), 5000);
    assert.deepEqual(requests, []);
    assert.deepEqual(errors, []);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  } finally {
    await page.close();
  }
});
