import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { AuditReport } from "../../../src/seo/audit/report.ts";
import { crawlAndAudit } from "../../../src/seo/audit/crawl-and-audit.ts";
import { defaultBounds } from "../../../src/seo/crawl/bounds.ts";
import { serveFixtureSite, type TestSite } from "../crawl/site-server.ts";
import { SEVERITY_RANK } from "../../../src/seo/audit/catalogue.ts";

let site: TestSite;
let report: AuditReport;

before(async () => {
  site = await serveFixtureSite("problems");
  report = await crawlAndAudit(`${site.origin}/`, {
    fetch,
    now: () => new Date(),
    bounds: defaultBounds({ minIntervalMs: 0, concurrency: 4 }),
  });
});
after(() => site.close());

const LONG = `/${"very-long-url-segment-".repeat(6)}end`;

/** Every check planted in fixtures/seo/sites/problems and exactly where it must fire. */
const EXPECTED: Record<string, string[]> = {
  // Each 4xx URL is reported once, where it is fixed: /missing as the broken link to it,
  // /missing-in-sitemap as a sitemap entry, /gone-canonical on the page naming it, /gone (reached
  // only through /redirect-broken) as the redirect to an error; so no http-4xx is left. A linked
  // 5xx is http-5xx, a linked loop redirect-loop, a linked redirect to an error redirect-to-error.
  "http-5xx": ["/error"],
  "broken-internal-link": ["/missing"],
  "broken-resource": ["/img/missing.png"],
  "redirect-loop": ["/loop-a"],
  "redirect-to-error": ["/redirect-broken"],
  "redirect-chain": ["/redirect-chain"],
  "link-to-redirect": ["/redirect-chain", "/private-redirect"],
  "robots-blocked-linked": ["/private/secret", "/private/listed"],
  "noindex-meta": ["/noindex"],
  "noindex-header": ["/noindex-header"],
  "nofollow-page": ["/noindex"],
  "canonical-missing": ["/no-title"],
  "canonical-conflicting": ["/canon-conflict"],
  "canonical-invalid": ["/canon-invalid"],
  "canonical-relative": ["/canon-relative"],
  "canonical-non-self": [
    "/canon-404",
    "/canon-redirect",
    "/canon-chain",
    "/canon-cross",
    "/huge",
    "/canon-other",
  ],
  "canonical-to-non-200": ["/canon-404"],
  "canonical-to-redirect": ["/canon-redirect"],
  "canonical-chain": ["/canon-chain"],
  "canonical-cross-site": ["/canon-cross"],
  "title-missing": ["/no-title"],
  "title-multiple": ["/long-title"],
  "title-too-long": ["/long-title"],
  "title-too-short": ["/short"],
  "title-duplicate": ["/dup-a", "/dup-b"],
  "meta-description-missing": ["/no-title"],
  "meta-description-too-short": ["/short"],
  "meta-description-duplicate": ["/dup-a", "/dup-b"],
  "h1-missing": ["/no-title"],
  "h1-multiple": ["/long-title"],
  "heading-order": ["/long-title"],
  "thin-content": ["/no-title"],
  "near-duplicate-content": ["/dup-a", "/dup-b"],
  "url-too-long": [LONG],
  "uncrawlable-link": ["/no-title"],
  "generic-link-text": ["/no-title"],
  "deep-page": ["/deep/4", "/deep/5"],
  "hreflang-invalid": ["/hreflang-bad"],
  "hreflang-missing-return": ["/hreflang-en", "/hreflang-bad"],
  "hreflang-missing-self": ["/hreflang-bad"],
  "hreflang-missing-x-default": ["/hreflang-de"],
  "sitemap-invalid": ["/sitemap-broken.xml"],
  "sitemap-lastmod-invalid": ["/sitemap-pages.xml.gz"],
  "sitemap-url-mismatch": ["/sitemap-pages.xml.gz"],
  "sitemap-non-200": ["/missing-in-sitemap", "/redirect-chain"],
  "sitemap-noindex": ["/noindex"],
  "sitemap-non-canonical": ["/canon-other"],
  "orphan-page": ["/orphan"],
  "structured-data-invalid": ["/jsonld-bad"],
  "structured-data-missing-type": ["/jsonld-notype"],
  "open-graph-incomplete": ["/no-title"],
  "twitter-card-missing": ["/no-title"],
  "image-missing-alt": ["/no-title"],
  "html-lang-missing": ["/no-title"],
  "viewport-missing": ["/no-title"],
  "slow-response": ["/slow"],
  "heavy-page": ["/heavy"],
  "page-truncated": ["/huge"],
  "meta-description-too-long": ["/long-title"],
};

const pathsOf = (id: string) => (report.affected[id] ?? []).map((u) => u.replace(site.origin, "")).sort();

test("every planted problem fires exactly where planted, and nothing else fires", () => {
  const fired = new Set(report.findings.map((f) => f.id));
  const expected = new Set([...Object.keys(EXPECTED), "sitemap-missing-page"]);
  assert.deepEqual([...fired].sort(), [...expected].sort());
  for (const [id, paths] of Object.entries(EXPECTED)) {
    if (id === "slow-response") {
      // timing: other pages may also turn slow on a loaded machine, /slow always is
      assert.ok(pathsOf(id).includes("/slow"));
      continue;
    }
    assert.deepEqual(pathsOf(id), [...paths].sort(), `check ${id}`);
    assert.equal(report.findings.find((f) => f.id === id)?.count, paths.length, `count of ${id}`);
  }
});

test("clean pages get no page-level findings", () => {
  // slow-response depends on machine load, not on the page
  const siteLevel = new Set(["sitemap-missing-page", "deep-page", "orphan-page", "slow-response"]);
  for (const clean of ["/clean", "/target", "/orphan", "/deep/1", "/"]) {
    const hits = Object.entries(report.affected).filter(
      ([id, urls]) => !siteLevel.has(id) && urls.includes(site.origin + clean),
    );
    assert.deepEqual(
      hits.map(([id]) => id),
      [],
      clean,
    );
  }
});

test("robots.txt is honoured for every URL, including redirect targets and sitemap entries", () => {
  const paths = site.paths();
  assert.equal(paths[0], "/robots.txt");
  assert.equal(paths.filter((p) => p === "/robots.txt").length, 1, "robots.txt fetched once per origin");
  assert.deepEqual(
    paths.filter((p) => p.startsWith("/private/") || p === "/nofollowed-target"),
    [],
  );
  assert.ok(paths.includes("/private-redirect"), "allowed by the longer Allow rule");
  assert.ok(site.requests.every((r) => r.userAgent.startsWith("SeoAuditMcp/")));
  assert.equal(report.stats.blocked_by_robots, 2);
});

test("sitemaps: robots Sitemap: line, conventional paths, index, gzip, invalid file, off-site URLs reported", () => {
  const kinds = Object.fromEntries(report.sitemaps.map((f) => [f.url.replace(site.origin, ""), f.kind]));
  assert.deepEqual(kinds, {
    "/sitemap-index.xml": "index",
    "/sitemap.xml": "absent",
    "/sitemap_index.xml": "absent",
    "/sitemap-pages.xml.gz": "urlset",
    "/sitemap-broken.xml": "invalid",
  });
  assert.equal(report.sitemaps.find((f) => f.url.endsWith(".gz"))?.gzip, true);
  assert.equal(report.stats.sitemap_urls, 8);
  const listing = report.sitemaps.find((f) => f.url.endsWith(".gz"));
  assert.deepEqual(listing?.foreign, { count: 1, examples: ["https://elsewhere.example/x"] });
  assert.equal(report.truncated, false);
});

test("each URL is fetched once, except retries of the 5xx page", () => {
  const paths = site
    .paths()
    .filter((p) => p !== "/error" && p !== "/clean" && p !== "/loop-a" && p !== "/target");
  assert.equal(new Set(paths).size, paths.length, paths.join(" "));
  assert.equal(site.paths().filter((p) => p === "/error").length, 2, "one retry after a 5xx");
});

test("scores and fixes are derived from findings", () => {
  assert.ok(report.scores.overall > 0 && report.scores.overall < 100);
  assert.equal(report.scores.categories.international < 100, true);
  const order = report.fixes.map((f) => [SEVERITY_RANK[f.severity], f.category === "social" ? 1 : 0, -f.pages]);
  const sorted = [...order].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!);
  assert.deepEqual(order, sorted, "severity first, social last, then pages carrying the problem");
  assert.equal(report.fixes[0]?.check_id, "http-5xx", "critical first");
  assert.ok(!report.fixes.some((f) => f.severity === "info"));
  const thin = report.findings.find((f) => f.id === "thin-content");
  assert.equal(thin?.provenance.kind, "rule-of-thumb");
  assert.equal(thin?.threshold?.value, 200);
  assert.equal(report.findings.find((f) => f.id === "http-5xx")?.provenance.kind, "measured");
});
