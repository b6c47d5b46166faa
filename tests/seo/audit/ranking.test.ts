/**
 * The ranked fixes on the issue's two site shapes, against what a professional would name first.
 *
 * Gallery (3,335 template-built pages, sitewide navigation):
 * 1. the 12 broken archive links of a sub-navigation, on 444 pages: high, every visitor and
 *    crawler on those pages meets them, and one template edit fixes them all;
 * 2. alt text missing on half the photos (1,650 pages): an image gallery's pages are found
 *    through their images, and screen readers get nothing;
 * 3. near-duplicate captions (three categories): pages competing with each other for one query.
 * Sitewide template nits (no Open Graph tags, a heading skip, short captions) are one fix each
 * and come after these; the "Go" language tab, titled, is not generic link text.
 *
 * Docs (~500 pages, a sidebar on every page, a staging copy):
 * 1. a canonical naming a page that is gone: that page drops out of the index;
 * 2. one meta description shared by every page: one fix in the template;
 * 3. two client-side redirect stubs, which should be 301s from the server.
 */
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { handleAuditRequest } from "../../../src/seo/audit/audit-request.ts";
import { presentReport } from "../../../src/seo/audit/present.ts";
import { reportText } from "../../../src/seo/audit/report-text.ts";
import type { AuditReport } from "../../../src/seo/audit/report.ts";
import { memoryReportStore } from "../../../src/seo/audit/report-store.ts";
import type { TestSite } from "../crawl/site-server.ts";
import { serveDocsSite } from "../fakes/docs-site.ts";
import { BROKEN_ARCHIVES, galleryPageCount, ITEMS_PER_CATEGORY, serveGallerySite } from "../fakes/gallery-site.ts";

let gallery: AuditReport;
let docs: AuditReport;

async function audit(site: TestSite, path: string): Promise<AuditReport> {
  try {
    const { report } = await handleAuditRequest(
      // the tool's highest time budget: the whole site must be crawled on a loaded machine too
      { url: `${site.origin}${path}`, max_pages: 5000, max_seconds: 300 },
      { fetch, now: () => new Date(), reports: memoryReportStore() },
    );
    return report;
  } finally {
    await site.close();
  }
}

before(async () => {
  gallery = await audit(await serveGallerySite(), "/");
  docs = await audit(await serveDocsSite(), "/docs/");
});

const top = (r: AuditReport, n = 3) => r.fixes.slice(0, n).map((f) => f.check_id);
const fixOf = (r: AuditReport, id: string) => r.fixes.find((f) => f.check_id === id);

test("gallery: the first three fixes are the broken navigation links, missing alt text, near-duplicates", () => {
  assert.equal(gallery.stats.html_pages, galleryPageCount());
  assert.deepEqual(top(gallery), ["broken-internal-link", "image-missing-alt", "near-duplicate-content"]);
  const broken = fixOf(gallery, "broken-internal-link");
  // 4 categories' pages and their hubs carry the sub-navigation: ranked by them, not by the 12 targets
  assert.equal(broken?.urls_affected, BROKEN_ARCHIVES);
  assert.equal(broken?.pages, 4 * (ITEMS_PER_CATEGORY + 1));
  assert.match(broken?.template?.evidence ?? "", /^12 link\(s\) that appear together on 444 pages, e\.g\. \/gallery\/archive\//);
  assert.match(broken?.fix ?? "", /^In the template \(444 pages\): /);
});

test("gallery: a broken target is reported once; a described tab is not generic; template nits are one fix each, social last", () => {
  assert.equal(fixOf(gallery, "http-4xx"), undefined, "the 404 archive pages are the broken links, not a second finding");
  assert.equal(fixOf(gallery, "generic-link-text"), undefined, "the Go tab has a descriptive title");
  for (const id of ["open-graph-incomplete", "heading-order", "thin-content"]) {
    const fix = fixOf(gallery, id);
    assert.ok(fix?.template && fix.template.pages * 2 >= galleryPageCount(), `${id} is one template fix`);
    assert.ok(fix.rank > 4, `${id} ranked ${fix.rank}`);
  }
  const social = fixOf(gallery, "open-graph-incomplete");
  const lows = gallery.fixes.filter((f) => f.severity === "low" && f.category !== "social");
  assert.ok(lows.every((f) => f.rank < (social?.rank ?? 0)), "social tags after every other low fix");
});

test("docs: the first three fixes are the gone canonical, the shared description (template), the redirect stubs", () => {
  assert.deepEqual(top(docs), ["canonical-to-non-200", "meta-description-duplicate", "client-side-redirect"]);
  assert.ok(fixOf(docs, "meta-description-duplicate")?.template, "one description on every page is one template fix");
  assert.equal(fixOf(docs, "http-4xx"), undefined, "the gone canonical target and sitemap entries are reported where they are fixed");
});

/** Tokens as chars / 4 over what the tool answers: structured content and text. */
const tokens = (r: AuditReport, format: "concise" | "detailed") =>
  Math.round((JSON.stringify(presentReport(r, format)).length + reportText(r, format).length) / 4);

test("the concise answer stays within 1,500 tokens on both sites; detailed repeats no examples", () => {
  for (const r of [gallery, docs]) {
    assert.ok(tokens(r, "concise") <= 1500, `${r.target}: concise ${tokens(r, "concise")} tokens`);
    const detailed = presentReport(r, "detailed") as {
      top_fixes: Record<string, unknown>[];
      findings: { examples: unknown[] }[];
      pages: { value: { url: string; issue_ids: string[] }[] };
    };
    assert.ok(detailed.top_fixes.every((f) => f.examples === undefined), "fixes refer to findings by check id");
    assert.ok(detailed.findings.every((f) => f.examples.length <= 50));
    assert.ok(detailed.pages.value.every((p) => Array.isArray(p.issue_ids) && p.url.startsWith("/")), "rows: paths and issue ids");
  }
  const bands = Object.values(gallery.charts.response ?? {}).reduce((sum, n) => sum + n, 0);
  assert.equal(bands, gallery.stats.pages_crawled, "every fetched page is in one response-time band");
  const row = gallery.pages.find((p) => p.url.endsWith("/gallery/c1/2"));
  assert.ok((row?.ttfb_ms ?? -1) >= 0);
  assert.ok(row?.issue_ids.includes("image-missing-alt"), "page rows carry the ids of their problems");
});
