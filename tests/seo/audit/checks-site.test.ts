/**
 * The checks professionals expect, on a shop that plants each one next to a clean twin
 * (tests/seo/fakes/checks-site.ts): every check fires exactly where planted, and the clean
 * twins get nothing.
 */
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { crawlAndAudit } from "../../../src/seo/audit/crawl-and-audit.ts";
import { presentReport } from "../../../src/seo/audit/present.ts";
import { reportText } from "../../../src/seo/audit/report-text.ts";
import type { AuditReport } from "../../../src/seo/audit/report.ts";
import { defaultBounds } from "../../../src/seo/crawl/bounds.ts";
import { bareSiteFetch, SHOP, shopFetch, WWW } from "../fakes/checks-site.ts";

let report: AuditReport;
let bare: AuditReport;

const audit = (url: string, fetch: typeof globalThis.fetch) =>
  crawlAndAudit(url, { fetch, now: () => new Date(), bounds: defaultBounds({ minIntervalMs: 0, concurrency: 4 }) });

before(async () => {
  report = await audit(`${SHOP}/`, shopFetch());
  bare = await audit("https://bare.example/", bareSiteFetch());
});

const VARIANTS = [
  "/dup/shoes/",
  "/dup/shoes/index.html",
  "/dup/Hats",
  "/dup/hats",
  "/dup/bags",
  "/dup/bags?sort=price",
  "/dup/socks",
  "/dup/socks/",
  "/dup/scarf",
  `${WWW}/dup/scarf`,
];

/** Every check that fires on the shop and exactly where. */
const EXPECTED: Record<string, string[]> = {
  // structured data
  "structured-data-missing-required": ["/sd/product-missing", "/sd/offer-missing", "/sd/event-missing", "/sd/microdata-missing"],
  "structured-data-missing-recommended": ["/sd/recipe-partial"],
  "structured-data-invalid": ["/sd/jsonld-broken"],
  // canonicals
  "canonical-to-noindex": ["/canon/to-noindex"],
  "canonical-to-home": ["/canon/deep/page"],
  "canonical-multiple": ["/canon/multiple"],
  "canonical-outside-head": ["/canon/in-body"],
  "canonical-non-self": ["/canon/to-noindex", "/canon/deep/page", "/intl/it", "/list/page/2"],
  "noindex-meta": ["/canon/noindex-target", "/intl/pt"],
  // hreflang
  "hreflang-to-non-200": ["/intl/fr", "/intl/it", "/intl/pt"],
  "hreflang-to-non-canonical": ["/intl/fr", "/intl/pt"],
  "hreflang-to-noindex": ["/intl/fr", "/intl/it"],
  "hreflang-invalid": ["/intl/nl"],
  "sitemap-hreflang-invalid": ["/sitemap-intl.xml"],
  // duplicates: URL variants named as such, the unrelated copies as exact duplicates
  "duplicate-url-variant": VARIANTS,
  "duplicate-content-exact": ["/dup/copy-a", "/dup/copy-b"],
  "canonical-missing": [...VARIANTS, "/dup/copy-a", "/dup/copy-b"],
  // hygiene
  "meta-description-multiple": ["/misc/two-descriptions"],
  "h1-duplicate": ["/misc/h1-a", "/misc/h1-b"],
  "h1-same-as-title": ["/misc/h1-title"],
  "soft-404": ["/misc/soft-404"],
  "thin-content": ["/misc/soft-404"],
  "form-insecure": ["/misc/form-http"],
  "protocol-relative-resource": ["/misc/protocol-relative"],
  "target-blank-unsafe": ["/misc/blank"],
  "internal-nofollow-link": ["/misc/nofollow"],
  "resource-blocked-by-robots": ["/assets/private/app.js"],
  // the www. copy of the scarf page is indexable and in no sitemap, as the check says
  "sitemap-missing-page": [`${WWW}/dup/scarf`],
  "url-uppercase": ["/misc/Upper-Case", "/dup/Hats"],
  "url-underscores": ["/misc/under_score"],
  "url-parameters": ["/dup/bags?sort=price"],
  "url-non-ascii": ["/misc/caf%C3%A9"],
  "url-multiple-slashes": ["/misc/double//slash"],
  // pagination
  "pagination-canonical-to-first": ["/list/page/2"],
  "pagination-sequence-error": ["/list/page/2"],
};

const pathsOf = (r: AuditReport, id: string) => (r.affected[id] ?? []).map((u) => u.replace(SHOP, "")).sort();

test("every planted check fires exactly where planted, and nothing else fires", () => {
  const fired = report.findings.map((f) => f.id).sort();
  assert.deepEqual(fired, Object.keys(EXPECTED).sort());
  for (const [id, paths] of Object.entries(EXPECTED)) {
    assert.deepEqual(pathsOf(report, id), [...paths].sort(), `check ${id}`);
    assert.equal(report.findings.find((f) => f.id === id)?.count, paths.length, `count of ${id}`);
  }
});

test("clean twins get no finding at all", () => {
  const twins = [
    "/",
    "/sd/product-good",
    "/sd/event-good",
    "/sd/recipe-good",
    "/sd/article-good",
    "/sd/breadcrumb-good",
    "/sd/faq-good",
    "/sd/howto-good",
    "/sd/org-good",
    "/sd/local-good",
    "/sd/video-good",
    "/sd/job-good",
    "/sd/review-good",
    "/sd/rdfa-good",
    "/canon/clean",
    "/intl/en",
    "/intl/de",
    "/intl/it-main",
    "/misc/clean",
    "/blog/page/1",
    "/blog/page/2",
    "/blog/page/3",
    "/list/page/1",
    "/list/page/3",
  ];
  for (const path of twins) {
    const hits = Object.entries(report.affected).filter(([, urls]) => urls.includes(`${SHOP}${path}`));
    assert.deepEqual(hits.map(([id]) => id), [], path);
  }
});

test("evidence names the line of broken JSON-LD, the missing properties and the variants' root cause", async () => {
  const evidence = (id: string, path: string) =>
    report.findings.find((f) => f.id === id)?.examples.find((e) => e.url === `${SHOP}${path}`)?.evidence ?? "";
  const source = await (await shopFetch()(`${SHOP}/sd/jsonld-broken`)).text();
  const line = source.split("\n").findIndex((text) => text.includes('"sku"')) + 1;
  assert.match(evidence("structured-data-invalid", "/sd/jsonld-broken"), new RegExp(`^line ${line}: Expected ',' or '}' after property value`));
  assert.match(evidence("structured-data-missing-required", "/sd/product-missing"), /Product: offers\|review\|aggregateRating/);
  assert.match(evidence("structured-data-missing-required", "/sd/offer-missing"), /Offer: price\|priceSpecification/);
  assert.match(evidence("structured-data-missing-required", "/sd/event-missing"), /Event: startDate, Event: location/);
  assert.match(evidence("structured-data-missing-required", "/sd/microdata-missing"), /^missing Product: offers\|review\|aggregateRating$/);
  assert.match(evidence("duplicate-url-variant", "/dup/shoes/index.html"), /same page as .*\/dup\/shoes\/: URL variants by index file/);
  assert.match(evidence("duplicate-url-variant", "/dup/Hats"), /by case/);
  assert.match(evidence("duplicate-url-variant", "/dup/bags"), /by parameters/);
  assert.match(evidence("duplicate-url-variant", "/dup/socks/"), /by trailing slash/);
  assert.match(evidence("duplicate-url-variant", "/dup/scarf"), /same page as https:\/\/www\.shop\.example\/dup\/scarf: URL variants by www$/);
  assert.match(evidence("hreflang-to-non-200", "/intl/fr"), /\/intl\/es \(es\) status 404/);
  assert.match(evidence("pagination-sequence-error", "/list/page/2"), /names .*\/list\/page\/1 as its prev/);
  assert.equal(
    evidence("sitemap-hreflang-invalid", "/sitemap-intl.xml"),
    `2 annotated entries: invalid codes nl-XX; 1 entry(ies) whose alternate does not list it back, e.g. ${SHOP}/intl/nl → ${SHOP}/intl/en`,
  );
});

test("security headers: reported once for a site that sends none, silent for one that sends them all", () => {
  assert.equal(report.findings.find((f) => f.id === "security-headers-missing"), undefined);
  const finding = bare.findings.find((f) => f.id === "security-headers-missing");
  assert.equal(finding?.count, 1);
  assert.match(
    finding?.examples[0]?.evidence ?? "",
    /^missing Strict-Transport-Security, Content-Security-Policy, X-Content-Type-Options: nosniff, X-Frame-Options, Referrer-Policy$/,
  );
});

test("the concise answer stays within 1,500 tokens with every planted check firing; real problems rank first", () => {
  const tokens = Math.round((JSON.stringify(presentReport(report, "concise")).length + reportText(report, "concise").length) / 4);
  assert.ok(tokens <= 1500, `concise ${tokens} tokens`);
  // The high-severity problems (a noindex page, canonicals ignored or contradicted, an invalid hreflang, broken JSON-LD)
  // come before every medium and low check planted beside them.
  const highs = report.fixes.filter((f) => f.severity === "high").map((f) => f.check_id);
  assert.deepEqual(highs.sort(), ["canonical-outside-head", "canonical-to-noindex", "hreflang-invalid", "noindex-meta", "structured-data-invalid"]);
  assert.deepEqual(report.fixes.slice(0, 4).map((f) => f.severity), ["high", "high", "high", "high"]);
  assert.ok(!report.fixes.some((f) => f.severity === "info"), "info checks (H1 = title, URL parameters, ...) are notes, not fixes");
});
