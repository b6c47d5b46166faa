/**
 * The site-level audit of a staging documentation site, as a new user runs it: shipped
 * defaults, loopback, canonicals naming production. Each assertion is a class of problem the
 * issue saw going silent or wrong on a real 500-page site.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { nodeHttpRequest } from "../../../shim/node/seo/crawl-request.ts";
import { handleAuditRequest } from "../../../src/seo/audit/audit-request.ts";
import type { AuditReport } from "../../../src/seo/audit/report.ts";
import { memoryReportStore } from "../../../src/seo/audit/report-store.ts";
import type { TestSite } from "../crawl/site-server.ts";
import { DOCS_PLANTED, type DocsOptions, docsPages, PRODUCTION, serveDocsSite } from "../fakes/docs-site.ts";
import { SEVERITY_RANK } from "../../../src/seo/audit/catalogue.ts";

const http = nodeHttpRequest(16);
let site: TestSite;
let report: AuditReport;

async function audit(target: TestSite, extra: Record<string, unknown> = {}): Promise<AuditReport> {
  const { report } = await handleAuditRequest(
    { url: `${target.origin}/docs/`, ...extra },
    { fetch, request: http.request, now: () => new Date(), reports: memoryReportStore() },
  );
  return report;
}

async function auditOf(options: DocsOptions, extra: Record<string, unknown> = {}): Promise<AuditReport> {
  const other = await serveDocsSite(options);
  try {
    return await audit(other, extra);
  } finally {
    await other.close();
  }
}

before(async () => {
  site = await serveDocsSite();
  report = await audit(site);
});
after(async () => {
  await site.close();
  http.close();
});

const pathsOf = (r: AuditReport, id: string) =>
  (r.affected[id] ?? []).map((u) => new URL(u).pathname).sort();
const countOf = (r: AuditReport, id: string) => r.findings.find((f) => f.id === id)?.count ?? 0;
const PAGES = docsPages().length;

test("shipped defaults on loopback crawl the whole site: no politeness gap, nothing truncated", () => {
  assert.equal(report.truncated, false, report.truncation_reasons.join(","));
  assert.deepEqual(
    { pages: report.bounds.maxPages, gap: report.bounds.minIntervalMs, parallel: report.bounds.concurrency },
    { pages: 1000, gap: 0, parallel: 8 },
  );
  // every page, the two redirect stubs, the orphan, the sitemap's two unprefixed URLs, the gone canonical
  assert.equal(report.stats.pages_crawled, PAGES + 2 + 1 + 2 + 1);
});

test("canonicals on the production host are read as this site's twin; duplicate checks keep working", () => {
  assert.deepEqual(report.twin, { production: PRODUCTION, via: "start-page" });
  assert.equal(countOf(report, "canonical-cross-site"), 0);
  assert.deepEqual(pathsOf(report, "canonical-non-self"), [DOCS_PLANTED.goneCanonical]);
  assert.deepEqual(pathsOf(report, "canonical-to-non-200"), [DOCS_PLANTED.goneCanonical]);
  // every indexable page shares the description: all but the gone-canonical page and the stubs
  assert.equal(countOf(report, "meta-description-duplicate"), PAGES - 1 + 1);
  assert.deepEqual(pathsOf(report, "title-duplicate"), DOCS_PLANTED.duplicateTitle);
  assert.deepEqual(pathsOf(report, "near-duplicate-content"), DOCS_PLANTED.nearDuplicate);
});

test("the sitemap in the start directory is found; its orphan is crawled; mismatched entries are reported", () => {
  const files = report.sitemaps.map((f) => [new URL(f.url).pathname, f.kind, f.via]);
  assert.deepEqual(files, [
    ["/sitemap.xml", "absent", "default"],
    ["/sitemap_index.xml", "absent", "default"],
    ["/docs/sitemap.xml", "urlset", "default"],
  ]);
  assert.deepEqual(pathsOf(report, "orphan-page"), [DOCS_PLANTED.orphan]);
  const mismatch = report.findings.find((f) => f.id === "sitemap-url-mismatch");
  assert.equal(mismatch?.count, 1, "one sitemap file");
  assert.match(
    mismatch?.examples[0]?.evidence ?? "",
    /^2 of \d+ entries on another host, e\.g\. https:\/\/old\.example\.org\/docs\/legacy-1; 2 of \d+ entries outside \/docs\/, where the crawled pages are/,
  );
  assert.deepEqual(pathsOf(report, "sitemap-non-200"), ["/intro", "/setup"]);
  assert.equal(countOf(report, "sitemap-missing"), 0);
});

test("a missing robots.txt is a finding with its fix", () => {
  const finding = report.findings.find((f) => f.id === "robots-txt-missing");
  assert.equal(finding?.severity, "low");
  assert.equal(finding?.count, 1);
  assert.match(finding?.fix ?? "", /Publish \/robots\.txt.*Sitemap:/);
});

test("meta-refresh and script redirects are followed as redirects, not audited as thin pages", () => {
  assert.deepEqual(pathsOf(report, "client-side-redirect"), [DOCS_PLANTED.scriptRedirect, DOCS_PLANTED.metaRefresh].sort());
  const stubs = [DOCS_PLANTED.scriptRedirect, DOCS_PLANTED.metaRefresh];
  for (const id of ["thin-content", "h1-missing", "meta-description-missing", "canonical-missing"])
    for (const stub of stubs) assert.ok(!pathsOf(report, id).includes(stub), `${id} on ${stub}`);
  assert.ok(pathsOf(report, "link-to-redirect").includes(DOCS_PLANTED.metaRefresh));
  const rows = new Map(report.pages.map((p) => [new URL(p.url).pathname, p]));
  assert.equal(rows.get(DOCS_PLANTED.metaRefresh)?.type, "redirect");
});

test("thin content is judged on main content by page type; fixes rank by severity, then pages", () => {
  assert.deepEqual(pathsOf(report, "thin-content"), ["/docs/guides/stub-1", "/docs/guides/stub-2", "/docs/guides/stub-3"]);
  const types = new Set(report.pages.map((p) => p.type));
  for (const type of ["hub", "reference", "article", "redirect"]) assert.ok(types.has(type as never), type);
  assert.equal(report.fixes[0]?.check_id, "canonical-to-non-200");
  const thin = report.fixes.find((f) => f.check_id === "thin-content");
  assert.ok(thin && thin.rank > 2, `thin-content ranked ${thin?.rank}`);
  const order = report.fixes.map((f) => [SEVERITY_RANK[f.severity], f.category === "social" ? 1 : 0, -f.pages]);
  const sorted = [...order].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!);
  assert.deepEqual(order, sorted, "severity first, social last, then pages carrying the problem");
});

test("the twin is found from most pages' canonicals when the start page has none, and can be turned off", async () => {
  const late = await auditOf({ startCanonical: "none" });
  assert.deepEqual(late.twin, { production: PRODUCTION, via: "canonicals" });
  assert.equal(countOf(late, "canonical-cross-site"), 0);
  assert.ok(countOf(late, "meta-description-duplicate") > 400);
  const literal = await auditOf({}, { production_url: "none", use_sitemaps: false });
  assert.equal(literal.twin, undefined);
  assert.ok(countOf(literal, "canonical-cross-site") > 400, "read literally, every canonical is cross-site");
  assert.equal(countOf(literal, "meta-description-duplicate"), 0, "and nothing is indexable");
});

test("sitemaps announced in robots.txt (production URL), /sitemap_index.xml and <link rel=sitemap> are found", async () => {
  for (const [at, path, via] of [
    ["robots", "/maps/docs.xml", "robots"],
    ["sitemap-index", "/sitemap_index.xml", "default"],
    ["link", "/docs/site-map.xml", "link"],
  ] as const) {
    const other = await auditOf({ sitemapAt: at }, { max_depth: 2 });
    const used = other.sitemaps.filter((f) => f.kind === "urlset").map((f) => [new URL(f.url).pathname, f.via]);
    assert.deepEqual(used, [[path, via]], at);
    assert.deepEqual(pathsOf(other, "orphan-page"), [DOCS_PLANTED.orphan], at);
  }
});
