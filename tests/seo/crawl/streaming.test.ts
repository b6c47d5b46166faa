import assert from "node:assert/strict";
import { test } from "node:test";
import { extractHtml, HtmlExtractor } from "../../../src/seo/audit/extract.ts";
import { analysePage, htmlSinks } from "../../../src/seo/audit/page.ts";
import { StreamDecoder } from "../../../src/seo/fetch/charset.ts";
import { type FetchedPage, fetchPage } from "../../../src/seo/fetch/fetch-page.ts";
import type { HttpRequest } from "../../../src/seo/fetch/http-request.ts";
import { nodeHttpRequest } from "../../../shim/node/seo/crawl-request.ts";
import { serveSite } from "./site-server.ts";

/** Cuts `length` into pieces of 1 to 7, varying with `seed`, so cuts land inside tags and characters. */
function cuts(length: number, seed: number): number[] {
  const out: number[] = [];
  let at = 0;
  let state = seed;
  while (at < length) {
    state = (state * 1103515245 + 12345) >>> 0;
    at = Math.min(length, at + 1 + (state % 7));
    out.push(at);
  }
  return out;
}

function pieces<T extends { slice(start: number, end: number): T; length: number }>(
  whole: T,
  seed: number,
): T[] {
  let from = 0;
  return cuts(whole.length, seed).map((to) => {
    const piece = whole.slice(from, to);
    from = to;
    return piece;
  });
}

/** Odd seeds hand the last piece to `end`, as fetchPage does; even seeds write every piece. */
function decodeInPieces(bytes: Uint8Array, type: string | null, seed: number): string {
  const decoder = new StreamDecoder(type);
  const all = pieces(bytes, seed);
  const last = seed % 2 === 1 ? all.pop() : undefined;
  let text = "";
  for (const piece of all) text += decoder.write(piece);
  return text + decoder.end(last);
}

/** One call, and one write then `end`: both must agree. */
function decodeWhole(bytes: Uint8Array, type: string | null): string {
  const written = new StreamDecoder(type);
  const text = new StreamDecoder(type).end(bytes);
  assert.equal(written.write(bytes) + written.end(), text);
  return text;
}

const latin1 = (text: string) => new Uint8Array(Buffer.from(text, "latin1"));
const utf8 = (text: string) => new TextEncoder().encode(text);

const PAGE = `<!doctype html><html lang="fr"><head><meta charset="utf-8">
<title>Café &amp; crème — ünïcödé 😀 漢字</title>
<meta name="description" content="Un café &eacute;tonnant à Zürich">
<meta name="robots" content="index, FOLLOW"><meta property="og:title" content="Café">
<link rel="canonical" href="/café"><link rel="alternate" hreflang="de" href="/de/">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Organization"},{"@type":["WebPage","Thing"]}]}</script>
<style>p { color: red }</style></head>
<body><nav><a href="/menu">Menu words not counted</a></nav>
<h1>Le  café
 d'été</h1><p>Mots du caf&eacute; don&rsquo;t split: naïve façade, 漢字 テスト, emoji 😀 end.<!-- comment -->after</p>
<a href="/a?x=1&amp;y=2" rel="nofollow">read more</a><a href="javascript:void(0)">js</a><a>no href</a>
<img src="/i.png"><img src="/j.png" alt=""><script src="/app.js"></script><iframe src="/frame"></iframe>
<footer>footer words not counted</footer></body></html>`;

test("StreamDecoder: UTF-8 cut inside multi-byte characters decodes as in one piece", () => {
  const bytes = utf8(PAGE);
  const whole = decodeWhole(bytes, "text/html");
  assert.equal(whole, PAGE);
  for (let seed = 1; seed <= 20; seed++) assert.equal(decodeInPieces(bytes, "text/html", seed), whole);
  for (let seed = 1; seed <= 5; seed++) assert.equal(decodeInPieces(bytes, null, seed), whole);
});

test("StreamDecoder: a <meta charset=windows-1252> cut into pieces during the prescan still decides", () => {
  const html =
    "<html><head><meta charset=windows-1252><title>Caf\u00e9 \u20ac</title></head>" +
    "<body>na\u00efve \u00fcber</body></html>";
  const bytes = new Uint8Array(Buffer.from(html.replace("\u20ac", "\u0080"), "latin1"));
  const expected = html;
  for (let seed = 1; seed <= 20; seed++) assert.equal(decodeInPieces(bytes, "text/html", seed), expected);
  const equiv =
    '<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"><p>\u00e9t\u00e9</p>';
  assert.equal(decodeInPieces(latin1(equiv), "text/html", 3), equiv);
  // The Content-Type charset wins over the markup; a BOM wins over both.
  assert.equal(decodeInPieces(bytes, "text/html; charset=utf-8", 4).includes("Caf\ufffd"), true);
  const marked = "<meta charset=windows-1252>\u00e9";
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(marked)]);
  for (let seed = 1; seed <= 5; seed++)
    assert.equal(decodeInPieces(bom, "text/html; charset=iso-8859-1", seed), marked);
  const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from("<p>\u00e9\u6f22</p>", "utf16le")]);
  assert.equal(decodeInPieces(utf16, null, 2), "<p>\u00e9\u6f22</p>");
});

test("StreamDecoder holds back only the prescan window, and only without a declared charset", () => {
  const undeclared = new StreamDecoder("text/html");
  assert.equal(undeclared.write(utf8("<p>")), "");
  assert.equal(undeclared.write(utf8("x".repeat(1020))), "");
  assert.equal(undeclared.write(utf8("x")), `<p>${"x".repeat(1021)}`);
  assert.equal(undeclared.write(utf8("y")), "y");
  const declared = new StreamDecoder("text/html; charset=utf-8");
  assert.equal(declared.write(utf8("<")), "");
  assert.equal(declared.write(utf8("p>")), "<p>");
  // A meta past the first 1024 bytes is not looked for: UTF-8.
  const late = latin1(`${" ".repeat(1024)}<meta charset=windows-1252>\u00e9`);
  assert.equal(decodeInPieces(late, null, 7).endsWith("\ufffd"), true);
  // A body cut inside a character ends in U+FFFD, as a one-piece decode of the same bytes.
  const cut = utf8("ab\u6f22").subarray(0, 4);
  assert.equal(decodeInPieces(cut, "text/html", 1), "ab\ufffd");
  assert.equal(decodeWhole(new Uint8Array(0), null), "");
  for (const bytes of [late, cut, latin1("<meta charset=windows-1252>\u00e9")])
    assert.equal(decodeWhole(bytes, "text/html"), decodeInPieces(bytes, "text/html", 2));
});

test("HtmlExtractor: text written in 1-7 character pieces gives the facts of one write", () => {
  const whole = extractHtml(PAGE);
  assert.equal(whole.titles[0], "Café & crème — ünïcödé 😀 漢字");
  assert.deepEqual(whole.jsonLd, [{ types: ["Organization", "WebPage", "Thing"], line: 6, recommended: ["Organization: name", "Organization: url", "Organization: logo", "Organization: sameAs"] }]);
  assert.deepEqual(whole.h1, ["Le café d'été"]);
  assert.deepEqual(whole.genericLinkTexts, ["read more"]);
  // "caf&eacute;" and "don&rsquo;t" are one word each; a comment still separates "end." and "after".
  assert.equal(whole.wordCount, 21);
  assert.notEqual(whole.simhash, undefined);
  for (let seed = 1; seed <= 30; seed++) {
    const extractor = new HtmlExtractor();
    for (const piece of pieces(PAGE, seed)) extractor.write(piece);
    extractor.end();
    assert.deepEqual(extractor.facts, whole, `seed ${seed}`);
  }
});

/** An `HttpRequest` that serves `bytes` in 1-7 byte chunks. */
function trickle(bytes: Uint8Array, type: string, seed: number): HttpRequest {
  return async () => ({
    status: 200,
    headers: new Headers({ "content-type": type }),
    body: (async function* () {
      for (const piece of pieces(bytes, seed)) yield piece;
    })(),
    cancel: () => {},
  });
}

test("fetchPage with a text sink: tiny chunks give the facts of a whole body; no body kept", async () => {
  const bytes = latin1(
    "<html><head><meta charset=windows-1252><title>Caf\u00e9 cr\u00e8me</title></head>" +
      `<body><p>${"mot ".repeat(400)}\u00e9t\u00e9</p><a href="/x">x</a></body></html>`,
  );
  const plain = await fetchPage("http://site.test/", { fetch, request: trickle(bytes, "text/html", 1) });
  const expected = analysePage(plain);
  assert.equal(expected.html?.titles[0], "Café crème");
  assert.equal(expected.html?.wordCount, 402);
  for (let seed = 1; seed <= 10; seed++) {
    const page = await fetchPage("http://site.test/", {
      fetch,
      request: trickle(bytes, "text/html", seed),
      textSink: htmlSinks(),
    });
    assert.equal(page.body, "");
    assert.equal(page.bytes, bytes.byteLength);
    assert.ok(page.sink instanceof HtmlExtractor);
    assert.deepEqual(analysePage(page), { ...expected, signals: { ...expected.signals, page } });
  }
  const capped = await fetchPage("http://site.test/", {
    fetch,
    request: trickle(bytes, "text/html", 2),
    textSink: htmlSinks(),
    maxBytes: 200,
  });
  assert.equal(capped.truncated, true);
  assert.equal(capped.bytes, 200);
  const cappedWhole = await fetchPage("http://site.test/", {
    fetch,
    request: trickle(bytes, "text/html", 5),
    maxBytes: 200,
  });
  assert.deepEqual(analysePage(capped).html, analysePage(cappedWhole).html);
  // Not audited as HTML: no sink is asked for, the body is kept as before.
  const json = await fetchPage("http://site.test/", {
    fetch,
    request: trickle(utf8('{"a":1}'), "application/json", 3),
    textSink: htmlSinks(),
  });
  assert.equal(json.sink, undefined);
  assert.equal(json.body, '{"a":1}');
});

test("fetchPage streams a chunked loopback response through node:http into the extractor", async () => {
  const body = utf8(PAGE);
  const site = await serveSite(async (_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    for (const piece of pieces(body, 9)) {
      res.write(piece);
      await new Promise((resolve) => setImmediate(resolve));
    }
    res.end();
  });
  const http = nodeHttpRequest(2);
  try {
    const page: FetchedPage = await fetchPage(`${site.origin}/`, {
      fetch,
      request: http.request,
      textSink: htmlSinks(),
    });
    assert.equal(page.status, 200);
    assert.equal(page.body, "");
    assert.equal(page.bytes, body.byteLength);
    assert.ok(page.sink instanceof HtmlExtractor);
    assert.deepEqual(page.sink.facts, extractHtml(PAGE));
  } finally {
    http.close();
    await site.close();
  }
});

test("the node:http client's headers read as fetch's Headers do: any case, repeated fields joined, absent null", async () => {
  const site = await serveSite((_req, res) => {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("X-Robots-Tag", ["noindex", "nofollow"]);
    res.setHeader("Link", ['<https://example.com/a>; rel="canonical"', "<https://example.com/b>; rel=alternate"]);
    res.end("<title>t</title>");
  });
  const http = nodeHttpRequest(2);
  try {
    const url = `${site.origin}/`;
    const [light, whatwg] = await Promise.all([
      fetchPage(url, { fetch, request: http.request }),
      fetchPage(url, { fetch }),
    ]);
    assert.ok(!(light.headers instanceof Headers), "a light reader, not undici's Headers");
    for (const name of ["content-type", "CONTENT-TYPE", "x-robots-tag", "Link", "retry-after", "location"])
      assert.equal(light.headers.get(name), whatwg.headers.get(name), name);
    assert.equal(light.headers.get("x-robots-tag"), "noindex, nofollow");
  } finally {
    http.close();
    await site.close();
  }
});
