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
import { hammingDistance, nearDuplicateGroups, SimHasher, SimHashList } from "../../../src/seo/audit/simhash.ts";
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
  assert.deepEqual(nearDuplicateGroups(listOf([hash(base), near, other])), [[0, 1]]);
});

const listOf = (hashes: [number, number][]) => {
  const list = new SimHashList();
  for (const h of hashes) list.push(h);
  return list;
};

/** The grouping as first written, on arrays of objects: the typed one must group exactly as it did. */
function referenceGroups(hashes: [number, number][]): number[][] {
  const reps: { hash: [number, number]; members: number[] }[] = [];
  const buckets = new Map<number, number[]>();
  hashes.forEach((hash, item) => {
    const keys = [hash[0] & 0xffff, hash[0] >>> 16, hash[1] & 0xffff, hash[1] >>> 16].map((block, i) => block * 4 + i);
    const found = keys
      .flatMap((key) => buckets.get(key) ?? [])
      .find((index) => hammingDistance((reps[index] as { hash: [number, number] }).hash, hash) <= 3);
    if (found !== undefined) return void reps[found]?.members.push(item);
    reps.push({ hash, members: [item] });
    for (const key of keys) buckets.set(key, [...(buckets.get(key) ?? []), reps.length - 1]);
  });
  return reps.map((rep) => rep.members).filter((members) => members.length > 1);
}

test("near-duplicate groups on typed arrays: the same groups, in the same order, as the object-based grouping", () => {
  let seed = 7;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  const flip = (h: [number, number], bits: number): [number, number] => {
    const out: [number, number] = [h[0], h[1]];
    for (let b = 0; b < bits; b++) {
      const bit = random() % 64;
      if (bit < 32) out[0] = (out[0] ^ (1 << bit)) >>> 0;
      else out[1] = (out[1] ^ (1 << (bit - 32))) >>> 0;
    }
    return out;
  };
  // Clusters of hashes a few bits apart (some within 3 bits of a representative, some chained beyond it), and loners.
  const centres = Array.from({ length: 40 }, (): [number, number] => [random(), random()]);
  const hashes = Array.from({ length: 3000 }, (_, i) => {
    const centre = centres[random() % centres.length] as [number, number];
    return i % 5 === 0 ? ([random(), random()] as [number, number]) : flip(centre, random() % 6);
  });
  const groups = nearDuplicateGroups(listOf(hashes));
  assert.ok(groups.length > 40);
  assert.deepEqual(groups, referenceGroups(hashes));
  // Growing past the first typed arrays' size keeps every hash.
  assert.equal(listOf(hashes).length, 3000);
  assert.deepEqual(nearDuplicateGroups(listOf([])), []);
});

test("generic link text: a link whose title, aria-label or aria-labelledby describes it is not generic", () => {
  const texts = (links: string) => extractHtml(`<html><body>${links}</body></html>`).genericLinkTexts;
  assert.deepEqual(texts('<a href="/lang/go" title="Go language: photos of programs written in it">Go</a>'), []);
  assert.deepEqual(texts('<a href="/a" aria-label="Pricing of the team plan">Learn more</a>'), []);
  assert.deepEqual(texts('<a href="/a" aria-labelledby="plan-heading">more</a>'), []);
  // A title that is itself generic, or empty, says nothing more.
  assert.deepEqual(texts('<a href="/a" title="click here">here</a><a href="/b" title=" ">Go</a>'), ["here", "go"]);
});
