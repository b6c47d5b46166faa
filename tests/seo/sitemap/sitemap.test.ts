import assert from "node:assert/strict";
import { test } from "node:test";
import { gzipSync } from "node:zlib";
import type { FetchedBytes } from "../../../src/seo/fetch/fetch-page.ts";
import { discoverSitemaps } from "../../../src/seo/sitemap/discover.ts";
import { gunzip } from "../../../src/shared/stream/bytes.ts";
import { parseSitemap } from "../../../src/seo/sitemap/sitemap.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const candidates = (robots: string[]) => ({ robots, conventional: ["https://a.example/sitemap.xml"], links: [] });
const urlset = (locs: string[]) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc><lastmod>2026-01-01</lastmod></url>`).join("")}</urlset>`;

test("parseSitemap: urlset, index, gzip, a single URL, invalid XML and roots", async () => {
  assert.deepEqual(await parseSitemap(bytes(urlset(["https://a.example/x"]))), {
    kind: "urlset",
    urls: ["https://a.example/x"],
    overLimit: false,
    badLastmod: [],
    gzip: false,
  });
  const dated = `<urlset>${["2026-01-01", "2026-01-31T10:00:00+01:00", "2026-01-31T10:00Z", "01/02/2026", "2026-1-5", "2999-01-01"].map((d, i) => `<url><loc>https://a.example/${i}</loc><lastmod>${d}</lastmod></url>`).join("")}</urlset>`;
  const checked = await parseSitemap(bytes(dated), Date.parse("2026-11-21T00:00:00Z"));
  assert.deepEqual(checked.kind === "urlset" && checked.badLastmod, ["01/02/2026", "2026-1-5", "2999-01-01"]);
  const index = await parseSitemap(
    gzipSync(
      `<sitemapindex><sitemap><loc> https://a.example/s1.xml </loc></sitemap><sitemap><loc>https://a.example/s2.xml</loc></sitemap></sitemapindex>`,
    ),
  );
  assert.deepEqual(index, {
    kind: "index",
    sitemaps: ["https://a.example/s1.xml", "https://a.example/s2.xml"],
    gzip: true,
  });
  assert.equal((await parseSitemap(bytes("<urlset><url><loc>x</url></urlset>"))).kind, "invalid");
  assert.match(
    JSON.stringify(await parseSitemap(bytes("<html><body/></html>"))),
    /neither <urlset> nor <sitemapindex>/,
  );
  assert.match(JSON.stringify(await parseSitemap(Uint8Array.from([0x1f, 0x8b, 1, 2, 3]))), /gzip/);
  assert.deepEqual(await parseSitemap(bytes("<urlset></urlset>")), {
    kind: "urlset",
    urls: [],
    overLimit: false,
    badLastmod: [],
    gzip: false,
  });
});

test("parseSitemap: the 50,000-URL limit and the uncompressed size cap", async () => {
  const many = Array.from({ length: 50_001 }, (_, i) => `https://a.example/p${i}`);
  const parsed = await parseSitemap(bytes(urlset(many)));
  assert.equal(parsed.kind, "urlset");
  assert.equal(parsed.kind === "urlset" && parsed.urls.length, 50_000);
  assert.equal(parsed.kind === "urlset" && parsed.overLimit, true);
  assert.equal(await gunzip(gzipSync(Buffer.alloc(2 * 1024 * 1024)), 1024 * 1024), "too-large");
});

test("discoverSitemaps: robots lines and /sitemap.xml, index children, scope, caps", async () => {
  const files: Record<string, string | number> = {
    "https://a.example/from-robots.xml": `<sitemapindex><sitemap><loc>https://a.example/child.xml</loc></sitemap><sitemap><loc>https://a.example/child.xml</loc></sitemap></sitemapindex>`,
    "https://a.example/child.xml": urlset([
      "https://a.example/1",
      "https://www.a.example/2",
      "https://other.example/3",
      "https://a.example/1#frag",
    ]),
    "https://a.example/sitemap.xml": 404,
  };
  const requested: string[] = [];
  const get = async (url: string): Promise<FetchedBytes> => {
    requested.push(url);
    const file = files[url] ?? 500;
    const status = typeof file === "number" ? file : 200;
    return {
      url,
      finalUrl: url,
      status,
      headers: new Headers(),
      redirects: [],
      body: "",
      truncated: false,
      bytes: 0,
      timingMs: 1,
      ...(typeof file === "string" ? { raw: bytes(file) } : {}),
    };
  };
  const inScope = (u: URL) => u.hostname.replace(/^www\./, "") === "a.example";
  const result = await discoverSitemaps(candidates(["https://a.example/from-robots.xml"]), {
    get,
    inScope,
    maxFiles: 10,
    maxUrls: 100,
  });
  assert.deepEqual(requested, [
    "https://a.example/from-robots.xml",
    "https://a.example/sitemap.xml",
    "https://a.example/child.xml",
  ]);
  assert.deepEqual(result.urls, ["https://a.example/1", "https://www.a.example/2"]);
  assert.equal(result.offSite, 1);
  assert.deepEqual(
    result.files.map((f) => [f.kind, f.via]),
    [
      ["index", "robots"],
      ["absent", "default"],
      ["urlset", "index"],
    ],
  );
  const capped = await discoverSitemaps(candidates(["https://a.example/from-robots.xml"]), {
    get,
    inScope,
    maxFiles: 1,
    maxUrls: 1,
  });
  assert.equal(capped.capped, true);
  const broken = await discoverSitemaps(candidates(["https://a.example/missing.xml"]), {
    get,
    inScope,
    maxFiles: 10,
    maxUrls: 10,
  });
  assert.deepEqual(
    broken.files.map((f) => [f.kind, f.error ?? ""]),
    [
      ["invalid", "status 500"],
      ["absent", ""],
    ],
  );
});
