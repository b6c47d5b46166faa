import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { handleAuditRequest } from "../../../src/seo/audit/audit-request.ts";
import { crawlAndAudit } from "../../../src/seo/audit/crawl-and-audit.ts";
import type { CrawlState, PageFacts } from "../../../src/seo/audit/page-facts.ts";
import type { PageSummary } from "../../../src/seo/audit/page-summary.ts";
import { memoryReportStore } from "../../../src/seo/audit/report-store.ts";
import type { AuditReport } from "../../../src/seo/audit/report.ts";
import { defaultBounds } from "../../../src/seo/crawl/bounds.ts";
import { ApiError } from "../../../src/shared/errors.ts";
import { loadSqlite, sqliteCrawlStates } from "../../../shim/node/seo/page-facts-sqlite.ts";
import { newReportId } from "../../../src/seo/audit/report-store.ts";
import { SHOP, shopFetch } from "../fakes/checks-site.ts";
import { serveDocsSite } from "../fakes/docs-site.ts";
import { serveFixtureSite } from "../crawl/site-server.ts";

const dir = mkdtempSync(join(tmpdir(), "seo-page-facts-"));
const openSqlitePageFacts = (folder: string) => sqliteCrawlStates(folder).create(newReportId(new Date()), {});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The report without what differs between two runs of the same crawl (times, response times). */
function comparable(report: AuditReport): unknown {
  const pages = report.pages.map(({ ttfb_ms: _, ...row }) => row);
  const charts = { ...report.charts, response: {} };
  return { ...report, started_at: "", finished_at: "", stats: { ...report.stats, duration_ms: 0 }, pages, charts };
}

const audit = (pageFacts?: PageFacts) =>
  crawlAndAudit(`${SHOP}/`, {
    fetch: shopFetch(),
    now: () => new Date(0),
    // One at a time: the crawl order, and so every list in the report, is the same on each run.
    bounds: defaultBounds({ minIntervalMs: 0, concurrency: 1, maxPages: 500 }),
    ...(pageFacts ? { pageFacts } : {}),
  });

test("with its page summaries in a SQLite file, the audit reports exactly what it reports from memory", async () => {
  const memory = await audit();
  const store = await openSqlitePageFacts(dir);
  const disk = await audit(store).finally(() => store.close());
  assert.ok(["h1-duplicate", "duplicate-content-exact", "duplicate-url-variant"].every((id) => memory.findings.some((f) => f.id === id)));
  assert.deepEqual(comparable(disk), comparable(memory));
  assert.deepEqual(readdirSync(dir), [], "closing the store removes its file");
});

test("the duplicate checks find the same near-duplicates and shared titles and descriptions from a SQLite file", async () => {
  // The docs site's first 70 pages: near-duplicates, titles and a description shared, canonicals to a production twin.
  const docs = async (pageFacts?: PageFacts) => {
    const site = await serveDocsSite();
    try {
      return await crawlAndAudit(`${site.origin}/docs/`, {
        fetch,
        now: () => new Date(0),
        bounds: defaultBounds({ minIntervalMs: 0, concurrency: 1, maxPages: 70 }),
        ...(pageFacts ? { pageFacts } : {}),
      });
    } finally {
      await site.close();
    }
  };
  const memory = await docs();
  const store = await openSqlitePageFacts(dir);
  const disk = await docs(store).finally(() => store.close());
  const ids = ["near-duplicate-content", "title-duplicate", "meta-description-duplicate"];
  assert.ok(ids.every((id) => memory.findings.some((f) => f.id === id)), "the site has each kind of duplicate");
  // Only the origin differs: each run serves the site on a port of its own.
  const local = (report: AuditReport) => JSON.parse(JSON.stringify(comparable(report)).replaceAll(new URL(report.target).origin, "ORIGIN"));
  assert.deepEqual(local(disk), local(memory));
});

test("the SQLite store keeps a Map's order, size and last value for a URL stored twice", async () => {
  const store = await openSqlitePageFacts(dir);
  const page = (url: string, words: number) => ({ url, finalUrl: url, status: 200, redirectHops: 0, isHtml: true, noindex: false, hreflang: [], words }) as PageSummary;
  store.set("/a", page("/a", 1));
  store.set("/b", page("/b", 2));
  store.set("/a", page("/a", 3));
  assert.equal(store.size, 2);
  assert.deepEqual([...store.values()].map((s) => [s.url, s.words]), [["/a", 3], ["/b", 2]]);
  assert.equal(store.get("/b")?.words, 2);
  assert.equal(store.get("/c"), undefined);
  const [file] = readdirSync(dir);
  assert.ok(file && existsSync(join(dir, file)));
  store.close();
  assert.deepEqual(readdirSync(dir), []);
});

test("a Node without node:sqlite refuses a large crawl in one line naming the fix", async () => {
  const missing = () => Promise.reject(new Error("No such built-in module: node:sqlite"));
  await assert.rejects(loadSqlite(missing), (err: unknown) => {
    assert.ok(err instanceof ApiError && err.code === "INVALID_ARGUMENTS");
    assert.match(err.message, /node:sqlite, which Node v[\d.]+ does not have; upgrade Node to 22\.13 or later, or audit at most 100,000 pages/);
    assert.ok(!err.message.includes("\n"));
    return true;
  });
});

test("beyond 100,000 pages a runtime without a disk store is refused before any request", async () => {
  let requests = 0;
  const counting: typeof fetch = (input, init) => {
    requests++;
    return shopFetch()(input, init);
  };
  const deps = { fetch: counting, now: () => new Date(), reports: memoryReportStore(), frontEnd: "cli" as const };
  await assert.rejects(handleAuditRequest({ url: `${SHOP}/`, max_pages: 100_001 }, deps), /beyond 100,000 pages keeps its pages on disk/);
  assert.equal(requests, 0);
});

/** A state in memory that says whether it was closed: what the request does with the adapter's state. */
function fakeStore(): CrawlState & { closed: number } {
  const map = new Map<string, PageSummary>();
  const journal = { id: "audit-20260101T000000-a", request: {}, recorded: 0, replay: () => undefined, record: () => undefined };
  return Object.assign(map, journal, { closed: 0, close() { this.closed++; } });
}

test("beyond 100,000 pages the audit opens the adapter's store, keeps the pages in it, and closes it; also when it fails", async () => {
  const site = await serveFixtureSite("problems");
  after(() => site.close());
  const store = fakeStore();
  const deps = { fetch, now: () => new Date(), reports: memoryReportStore(), frontEnd: "cli" as const, crawlStates: { create: async () => store, resume: async () => store } };
  const { report } = await handleAuditRequest({ url: `${site.origin}/`, max_pages: 100_001 }, deps);
  assert.ok(store.size >= report.stats.html_pages && report.stats.html_pages > 10, "every analysed page is in the store");
  assert.equal(store.closed, 1);
  const failing = fakeStore();
  await assert.rejects(
    handleAuditRequest({ url: `${site.origin}/`, max_pages: 100_001, render: true }, { ...deps, crawlStates: { create: async () => failing, resume: async () => failing } }),
    /rendering needs a local browser/,
  );
  assert.equal(failing.closed, 1);
});
