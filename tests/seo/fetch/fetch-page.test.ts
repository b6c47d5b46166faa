import assert from "node:assert/strict";
import { test } from "node:test";
import { fetchBytes, fetchPage } from "../../../src/seo/fetch/fetch-page.ts";
import { isLoopback, isPrivateAddress, isSameSite, normaliseUrl } from "../../../src/seo/fetch/url.ts";
import { serveSite } from "../crawl/site-server.ts";

test("fetchPage: redirect chain recorded, loops and hop limits stop, vetoes, bad Location", async () => {
  const site = await serveSite((req, res) => {
    const redirects: Record<string, string> = {
      "/a": "/b",
      "/b": "/c#frag",
      "/loop1": "/loop2",
      "/loop2": "/loop1",
      "/bad": "http://[::1",
    };
    const to =
      redirects[req.url ?? ""] ??
      (req.url?.startsWith("/n") ? `/n${Number(req.url.slice(2)) + 1}` : undefined);
    if (to) return void res.writeHead(301, { location: to }).end();
    res.writeHead(200, { "content-type": "text/html" });
    res.end("done");
  });
  try {
    const chain = await fetchPage(`${site.origin}/a`, { fetch });
    assert.equal(chain.status, 200);
    assert.equal(chain.finalUrl, `${site.origin}/c`);
    assert.deepEqual(chain.redirects, [
      { url: `${site.origin}/a`, status: 301 },
      { url: `${site.origin}/b`, status: 301 },
    ]);
    assert.equal(chain.body, "done");
    const loop = await fetchPage(`${site.origin}/loop1`, { fetch });
    assert.equal(loop.error, "redirect loop");
    assert.equal(loop.status, 301);
    const many = await fetchPage(`${site.origin}/n0`, { fetch, maxRedirects: 3 });
    assert.equal(many.error, "more than 3 redirects");
    const vetoed = await fetchPage(`${site.origin}/a`, {
      fetch,
      beforeHop: (url) => (url.pathname === "/b" ? "blocked" : undefined),
    });
    assert.equal(vetoed.error, "blocked");
    assert.equal(site.paths().filter((p) => p === "/b").length, 1, "the vetoed hop was not requested");
    const bad = await fetchPage(`${site.origin}/bad`, { fetch });
    assert.match(bad.error ?? "", /invalid Location/);
  } finally {
    await site.close();
  }
});

test("fetchPage: byte cap, timeout, charset, non-text bodies, network errors", async () => {
  const site = await serveSite((req, res) => {
    if (req.url === "/big") {
      res.writeHead(200, { "content-type": "text/html" });
      res.write("a".repeat(40_000));
      return void setTimeout(() => res.end("b".repeat(40_000)), 10);
    }
    if (req.url === "/slow") return void setTimeout(() => res.end("late"), 2000);
    if (req.url === "/latin1") {
      res.writeHead(200, { "content-type": "text/html; charset=iso-8859-1" });
      return void res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    }
    res.writeHead(200, { "content-type": "image/png" });
    res.end("PNGDATA");
  });
  try {
    const big = await fetchPage(`${site.origin}/big`, { fetch, maxBytes: 50_000 });
    assert.equal(big.truncated, true);
    assert.equal(big.bytes, 50_000);
    assert.equal(big.body.length, 50_000);
    const slow = await fetchPage(`${site.origin}/slow`, { fetch, timeoutMs: 200 });
    assert.equal(slow.status, 0);
    assert.equal(slow.error, "timeout");
    const latin = await fetchPage(`${site.origin}/latin1`, { fetch });
    assert.equal(latin.body, "café");
    const png = await fetchPage(`${site.origin}/img`, { fetch });
    assert.equal(png.status, 200);
    assert.equal(png.body, "");
    const bytes = await fetchBytes(`${site.origin}/img`, { fetch });
    assert.equal(new TextDecoder().decode(bytes.raw), "PNGDATA");
  } finally {
    await site.close();
  }
  const refused = await fetchPage(site.origin, { fetch });
  assert.equal(refused.status, 0);
  assert.match(refused.error ?? "", /ECONNREFUSED|fetch failed/);
  const cancelled = await fetchPage("http://127.0.0.1:9/", { fetch, signal: AbortSignal.abort() });
  assert.equal(cancelled.status, 0);
});

test("fetchPage decodes like a browser: BOM, then Content-Type charset, then <meta charset>, else UTF-8", async () => {
  const latin1 = (html: string) => Buffer.from(html, "latin1");
  const bodies: Record<string, [string, Buffer]> = {
    "/meta": ["text/html", latin1('<html><head><meta charset="iso-8859-1"><title>Caf\xe9</title>')],
    "/http-equiv": [
      "text/html",
      latin1('<meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><title>cr\xe8me</title>'),
    ],
    "/header-wins": ["text/html; charset=utf-8", Buffer.from('<meta charset="iso-8859-1"><title>Café</title>')],
    "/bom": ["text/html; charset=iso-8859-1", Buffer.from("\ufeff<title>Café</title>")],
    "/utf16-meta": ["text/html", Buffer.from('<meta charset="utf-16"><title>Café</title>')],
    "/bad-label": ["text/html", Buffer.from('<meta charset="no-such"><title>Café</title>')],
  };
  const site = await serveSite((req, res) => {
    const [type, body] = bodies[req.url ?? ""] ?? ["text/plain", Buffer.from("")];
    res.writeHead(200, { "content-type": type });
    res.end(body);
  });
  try {
    const title = async (path: string) =>
      /<title>(.*?)<\/title>/.exec((await fetchPage(`${site.origin}${path}`, { fetch })).body)?.[1];
    assert.equal(await title("/meta"), "Café");
    assert.equal(await title("/http-equiv"), "crème");
    assert.equal(await title("/header-wins"), "Café");
    assert.equal(await title("/bom"), "Café");
    assert.equal(await title("/utf16-meta"), "Café");
    assert.equal(await title("/bad-label"), "Café");
  } finally {
    await site.close();
  }
});

test("URL normalisation, same-site scope and address classes", () => {
  assert.equal(
    normaliseUrl("HTTP://Example.COM:80/a/%7euser/%2f?q=1#top"),
    "http://example.com/a/~user/%2F?q=1",
  );
  assert.equal(normaliseUrl("../b", "https://example.com/a/c"), "https://example.com/b");
  assert.equal(normaliseUrl("https://example.com"), "https://example.com/");
  assert.equal(normaliseUrl("mailto:a@b.c"), undefined);
  assert.equal(normaliseUrl("http://"), undefined);
  const root = new URL("https://example.com/");
  assert.equal(isSameSite(new URL("http://www.example.com/x"), root), true);
  assert.equal(isSameSite(new URL("https://blog.example.com/"), root), false);
  assert.equal(isSameSite(new URL("https://example.com:8443/"), root), false);
  assert.equal(isLoopback(new URL("http://localhost:3000/")), true);
  assert.equal(isLoopback(new URL("http://127.0.0.1/")), true);
  assert.equal(isLoopback(new URL("http://[::1]:8080/")), true);
  assert.equal(isLoopback(new URL("http://10.0.0.1/")), false);
  for (const url of [
    "http://10.1.2.3/",
    "http://192.168.1.1/",
    "http://172.16.0.1/",
    "http://169.254.169.254/",
    "http://[fd00::1]/",
    "http://0.0.0.0/",
  ]) {
    assert.equal(isPrivateAddress(new URL(url)), true, url);
  }
  assert.equal(isPrivateAddress(new URL("https://example.com/")), false);
  assert.equal(isPrivateAddress(new URL("http://172.32.0.1/")), false);
});
