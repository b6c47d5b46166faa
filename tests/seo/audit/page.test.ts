import assert from "node:assert/strict";
import { test } from "node:test";
import {
  canonicalsFromLinkHeader,
  isValidHreflang,
  isValidLang,
  robotsDirectives,
} from "../../../src/seo/audit/directives.ts";
import { extractHtml } from "../../../src/seo/audit/extract.ts";
import { auditPage } from "../../../src/seo/audit/page.ts";
import { hammingDistance, nearDuplicateGroups, SimHasher } from "../../../src/seo/audit/simhash.ts";
import type { FetchedPage } from "../../../src/seo/fetch/fetch-page.ts";

function page(
  url: string,
  body: string,
  headers: Record<string, string> = {},
  extra: Partial<FetchedPage> = {},
): FetchedPage {
  return {
    url,
    finalUrl: url,
    status: 200,
    headers: new Headers({ "content-type": "text/html", ...headers }),
    redirects: [],
    body,
    truncated: false,
    bytes: body.length,
    timingMs: 5,
    ttfbMs: 5,
    ...extra,
  };
}

const ids = (p: FetchedPage) =>
  auditPage(p, "2026-01-01T00:00:00Z")
    .findings.map((f) => f.id)
    .sort();

test("https page loading http resources is mixed content; plain http off loopback is not-https", () => {
  const html =
    '<html lang="en"><img src="http://cdn.example.com/a.png" alt="a"><script src="https://ok.example.com/x.js"></script></html>';
  assert.ok(ids(page("https://example.com/", html)).includes("mixed-content"));
  assert.ok(!ids(page("https://example.com/", html)).includes("not-https"));
  assert.ok(ids(page("http://example.com/", html)).includes("not-https"));
  assert.ok(
    !ids(page("http://localhost:3000/", html)).includes("not-https"),
    "loopback targets are dev servers",
  );
});

test("robots directives: meta, X-Robots-Tag with agent prefix, none; Link header canonical", () => {
  assert.deepEqual([...robotsDirectives(["googlebot: noindex, nofollow"])].sort(), ["nofollow", "noindex"]);
  assert.deepEqual([...robotsDirectives(["none"])].sort(), ["nofollow", "noindex"]);
  assert.deepEqual([...robotsDirectives(["max-snippet:50, noarchive"])].sort(), ["max-snippet", "noarchive"]);
  const viaHeader = ids(
    page("https://example.com/x", "<html><title>t</title></html>", {
      "x-robots-tag": "googlebot: noindex",
      link: '<https://example.com/y>; rel="canonical"',
    }),
  );
  assert.ok(viaHeader.includes("noindex-header"));
  assert.ok(viaHeader.includes("canonical-non-self"));
  assert.deepEqual(canonicalsFromLinkHeader('<https://a/x>; rel="preload", <https://a/c>; rel=canonical'), [
    "https://a/c",
  ]);
  assert.deepEqual(canonicalsFromLinkHeader(null), []);
});

test("language codes: hreflang and html lang", () => {
  for (const ok of ["en", "en-GB", "zh-Hant-TW", "x-default", "es-419"])
    assert.equal(isValidHreflang(ok), true, ok);
  for (const bad of ["english", "en-UK", "xx", "en_GB", ""]) assert.equal(isValidHreflang(bad), false, bad);
  assert.equal(isValidLang("en-US"), true);
  assert.equal(isValidLang("fil"), true);
  assert.equal(isValidLang("english"), false);
  assert.ok(
    ids(page("https://example.com/", '<html lang="english"><title>t</title></html>')).includes(
      "html-lang-invalid",
    ),
  );
});

test("extraction: JSON-LD @graph types, words outside nav/footer, base href, links", () => {
  const facts = extractHtml(
    `<html><head><base href="/sub/"><script type="application/ld+json">{"@graph":[{"@type":"Organization"},{"@type":["WebSite","Thing"]}]}</script></head>
     <body><nav>menu words here</nav><p>one two three</p><a href="a">read more</a><a href="javascript:void(0)">x</a><a name="anchor-target"></a><footer>foot</footer></body></html>`,
  );
  assert.deepEqual(facts.jsonLd, [{ types: ["Organization", "WebSite", "Thing"], line: 1, recommended: ["Organization: name", "Organization: url", "Organization: logo", "Organization: sameAs"] }]);
  assert.equal(facts.wordCount, 6, "one two three + read more + x");
  assert.equal(facts.base, "/sub/");
  assert.deepEqual(facts.links, [{ href: "a", nofollow: false }]);
  assert.deepEqual(facts.genericLinkTexts, ["read more"]);
  assert.deepEqual(facts.uncrawlableLinks, ['<a href="javascript:void(0)">']);
  assert.deepEqual(extractHtml('<h1>Shop <a href="/s">shoes</a> now</h1>').h1, ["Shop shoes now"]);
  const audited = auditPage(
    page("https://example.com/", "<html><title>x</title><body>hello</body></html>"),
    "2026-01-01T00:00:00Z",
  );
  assert.deepEqual(audited.facts.title, {
    value: "x",
    provenance: { kind: "measured", at: "2026-01-01T00:00:00Z" },
  });
  assert.equal(audited.facts.wordCount.value, 1);
  assert.ok(audited.findings.every((f) => f.count === 1 && f.examples[0]?.url === "https://example.com/"));
});

test("status-level findings: 4xx, 5xx, fetch failure, truncation, slow and heavy pages", () => {
  assert.deepEqual(ids(page("https://example.com/", "", {}, { status: 404 })), ["http-4xx"]);
  assert.deepEqual(ids(page("https://example.com/", "", {}, { status: 503 })), ["http-5xx"]);
  assert.deepEqual(ids(page("https://example.com/", "", {}, { status: 429 })), ["http-4xx", "rate-limited"]);
  assert.deepEqual(ids(page("https://example.com/", "", {}, { status: 0, error: "timeout" })), [
    "fetch-failed",
  ]);
  const slow = ids(page("https://example.com/", "<title>t</title>", {}, { ttfbMs: 2000, bytes: 2_000_000 }));
  assert.ok(slow.includes("slow-response") && slow.includes("heavy-page"));
  assert.ok(
    ids(page("https://example.com/", "<title>t</title>", {}, { truncated: true })).includes("page-truncated"),
  );
});

test("an empty 200 HTML page is audited as a blank page, not skipped", () => {
  const blank = ids(page("https://example.com/", ""));
  for (const id of ["title-missing", "h1-missing", "thin-content", "meta-description-missing"] as const)
    assert.ok(blank.includes(id), `${id} in ${blank.join(",")}`);
  assert.deepEqual(ids(page("https://example.com/", "", {}, { error: "timeout" })), ["fetch-failed"]);
  assert.deepEqual(ids(page("https://example.com/f.pdf", "", { "content-type": "application/pdf" })), []);
});

test("SimHash: near-identical texts are close, different texts far; groups stay linear", () => {
  const hash = (text: string) => {
    const h = new SimHasher();
    h.addText(text);
    return h.digest() as [number, number];
  };
  const base = Array.from({ length: 400 }, (_, i) => `word${(i * 7919) % 1000}`).join(" ");
  const near = hash(`${base} extra`);
  const other = hash(Array.from({ length: 400 }, (_, i) => `token${(i * 104729) % 997}`).join(" "));
  assert.ok(hammingDistance(hash(base), near) <= 3);
  assert.ok(hammingDistance(hash(base), other) > 10);
  assert.equal(new SimHasher().digest(), undefined);
  const groups = nearDuplicateGroups([
    { hash: hash(base), item: "a" },
    { hash: near, item: "b" },
    { hash: other, item: "c" },
  ]);
  assert.deepEqual(groups, [["a", "b"]]);
});

test("generic link text: a link whose title, aria-label or aria-labelledby describes it is not generic", () => {
  const texts = (links: string) => extractHtml(`<html><body>${links}</body></html>`).genericLinkTexts;
  assert.deepEqual(texts('<a href="/lang/go" title="Go language: photos of programs written in it">Go</a>'), []);
  assert.deepEqual(texts('<a href="/a" aria-label="Pricing of the team plan">Learn more</a>'), []);
  assert.deepEqual(texts('<a href="/a" aria-labelledby="plan-heading">more</a>'), []);
  // A title that is itself generic, or empty, says nothing more.
  assert.deepEqual(texts('<a href="/a" title="click here">here</a><a href="/b" title=" ">Go</a>'), ["here", "go"]);
});
