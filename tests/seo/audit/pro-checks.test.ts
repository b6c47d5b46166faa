/**
 * The parts of the professional checks a site fixture does not reach: rich-result rules on
 * nested and graph items, the line of a block cut across chunks, URL variants, security
 * headers judged header by header.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { jsonLdItem } from "../../../src/seo/audit/element-facts.ts";
import { extractHtml, HtmlExtractor } from "../../../src/seo/audit/extract.ts";
import { DocumentHash, LineCounter } from "../../../src/seo/audit/page-stream.ts";
import { missingSecurityHeaders, securityHeaderHit } from "../../../src/seo/audit/security-checks.ts";
import { richResultGaps } from "../../../src/seo/audit/structured-data.ts";
import { urlHits, variantOf } from "../../../src/seo/audit/url-checks.ts";

test("rich results: required alternatives, nested items, schema.org URLs as types, top-level-only rules", () => {
  assert.deepEqual(richResultGaps({ "@type": "https://schema.org/Product", name: "Hat", review: [] }).required, [
    "Product: offers|review|aggregateRating",
  ]);
  // A Review inside a Product needs no itemReviewed; a standalone one does.
  const nested = { "@type": "Product", name: "Hat", review: { "@type": "Review", author: "Ann", reviewRating: { ratingValue: 5 } } };
  assert.deepEqual(richResultGaps(nested).required, []);
  assert.deepEqual(richResultGaps({ "@type": "Review", author: "Ann", reviewRating: {} }).required, ["Review: itemReviewed"]);
  // @graph members are top-level items; an Organization as a brand is a reference, not judged.
  assert.deepEqual(richResultGaps({ "@graph": [{ "@type": "Organization" }] }).recommended.length, 4);
  const branded = { "@type": "Product", name: "x", offers: { price: 1 }, brand: { "@type": "Organization" } };
  assert.deepEqual(richResultGaps(branded).recommended, ["Product: image", "Product: description", "Product: sku"]);
  // A FAQ question without its answer, kept short: at most five gaps a block.
  assert.deepEqual(richResultGaps({ "@type": "FAQPage", mainEntity: [{ "@type": "Question", name: "Open?" }] }).required, [
    "Question: acceptedAnswer",
  ]);
  const many = Array.from({ length: 9 }, () => ({ "@type": "JobPosting" }));
  assert.equal(richResultGaps(many).required.length, 5);
});

test("JSON-LD: the line of an error counts the block's own lines; a block cut across chunks keeps its line", () => {
  assert.deepEqual(jsonLdItem('{\n"a": 1,\n}', 10), { types: [], error: "Expected double-quoted property name in JSON", line: 12 });
  assert.equal(jsonLdItem("{", 3).line, 3, "an error at the end of the block is on its last line");
  const page = `<html>\n<head>\n<script type="application/ld+json">\n{"@type": "Thing"}\n</script></head></html>`;
  const extractor = new HtmlExtractor();
  for (let i = 0; i < page.length; i += 2) extractor.write(page.slice(i, i + 2));
  extractor.end();
  assert.equal(extractor.facts.jsonLd[0]?.line, 3);
  const lines = new LineCounter();
  lines.begin("a\nb");
  lines.end();
  lines.begin("c\nd");
  assert.equal(lines.lineAt(0), 2, "an offset in an earlier chunk reads as that chunk's last line");
  assert.equal(lines.lineAt(5), 3);
});

test("document hash: equal for the same text however it is cut, different for one character changed", () => {
  const hash = (...parts: string[]) => {
    const h = new DocumentHash();
    for (const part of parts) h.add(part);
    return h.digest();
  };
  assert.equal(hash("<p>one two</p>"), hash("<p>one", " two</p>"));
  assert.notEqual(hash("<p>one two</p>"), hash("<p>one twO</p>"));
  assert.ok(Number.isSafeInteger(hash("x")));
});

test("URL variants and structure", () => {
  assert.deepEqual(variantOf("https://a.example/X/Default.aspx?b=1"), {
    key: "a.example/x",
    how: ["index file", "case", "trailing slash", "parameters"],
  });
  assert.deepEqual(variantOf("http://www.a.example/x"), { key: "a.example/x", how: ["http", "www"] });
  assert.equal(variantOf("https://a.example/").key, "a.example/");
  const ids: string[] = [];
  urlHits("https://a.example/caf%C3%A9/%E0%A4", (id) => ids.push(id));
  assert.deepEqual(ids, ["url-non-ascii"], "escapes are neither uppercase nor undecodable trouble");
});

test("security headers: frame-ancestors stands for X-Frame-Options; an unsafe Referrer-Policy is named; own machine not judged", () => {
  const headers = (values: Record<string, string>) => new Headers(values);
  assert.deepEqual(
    missingSecurityHeaders(
      "http://a.example/",
      headers({ "content-security-policy": "frame-ancestors 'none'", "x-content-type-options": "nosniff", "referrer-policy": "unsafe-url" }),
    ),
    ["a secure Referrer-Policy (not unsafe-url)"],
  );
  assert.equal(securityHeaderHit("http://localhost:3000/", headers({})), undefined);
  assert.equal(securityHeaderHit("https://a.example/", headers({}))?.id, "security-headers-missing");
});

test("Microdata and RDFa: nested items judged inside their holder, independent items apart, however the text is cut", () => {
  const page = `<html><body><div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Hat</span>
<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><meta itemprop="priceCurrency" content="EUR"></div>
<div itemscope itemtype="https://schema.org/Thing"></div></div>
<div vocab="https://schema.org/" typeof="Event"><span property="name">Fair</span><span property="location" typeof="Place"></span></div></body></html>`;
  const whole = extractHtml(page).microdata;
  assert.deepEqual(
    whole.map((item) => [item.format, item.types, item.missing]),
    [
      ["microdata", ["Thing"], undefined],
      ["microdata", ["Product"], ["Offer: price|priceSpecification"]],
      ["rdfa", ["Event"], ["Event: startDate"]],
    ],
  );
  const extractor = new HtmlExtractor();
  for (let i = 0; i < page.length; i += 5) extractor.write(page.slice(i, i + 5));
  extractor.end();
  assert.deepEqual(extractor.facts.microdata, whole);
});
