/**
 * Adversarial sites on loopback: endless URL spaces (a calendar, session ids), redirect loops
 * and chains, a 100 MB page, a slow-drip server, gzip bombs, invalid encodings, a malformed
 * robots.txt, a 20,000-link page. Every bound holds, nothing grows with the site, and the
 * report says what was cut and why. Bounds are small so each site takes a second or two.
 */
import assert from "node:assert/strict";
import type { IncomingMessage, ServerResponse } from "node:http";
import { test } from "node:test";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { createGzip, gzipSync } from "node:zlib";
import { nodeHttpRequest } from "../../../shim/node/seo/crawl-request.ts";
import { Collector } from "../../../src/seo/audit/collector.ts";
import { htmlSinks } from "../../../src/seo/audit/page.ts";
import type { AuditReport } from "../../../src/seo/audit/report.ts";
import { crawlAndAudit } from "../../../src/seo/audit/crawl-and-audit.ts";
import { type CrawlBounds, defaultBounds } from "../../../src/seo/crawl/bounds.ts";
import { crawlSite } from "../../../src/seo/crawl/crawler.ts";
import { serveSite } from "../crawl/site-server.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const http = nodeHttpRequest(16);
process.on("exit", () => http.close());

const html = (res: ServerResponse, body: string, status = 200) => {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  res.end(`<!doctype html><html lang="en"><head><title>Adversarial fixture page</title></head><body>${body}</body></html>`);
};

/** Serves `routes` (by path, query ignored unless a route wants it); robots.txt 404 unless given. */
async function auditSite(routes: Record<string, Handler>, bounds: Partial<CrawlBounds> = {}) {
  const site = await serveSite((req, res) => {
    const path = (req.url ?? "/").split("?")[0] as string;
    const route = routes[path] ?? routes["*"];
    if (route) return route(req, res);
    if (path === "/robots.txt") return void res.writeHead(404).end();
    html(res, "not found", 404);
  });
  try {
    const report = await crawlAndAudit(`${site.origin}/`, {
      fetch,
      request: http.request,
      now: () => new Date(),
      bounds: defaultBounds({ minIntervalMs: 0, concurrency: 4, timeoutMs: 1000, maxSeconds: 20, ...bounds }),
    });
    return { report, site };
  } finally {
    await site.close();
  }
}

const cut = (report: AuditReport, bound: string) => report.cuts.find((c) => c.bound === bound);
const paths = (report: AuditReport, id: string) => (report.affected[id] ?? []).map((u) => new URL(u).pathname + new URL(u).search);

test("an endless calendar: max_pages holds, the records kept stay near the budget, the cut names the pattern", async () => {
  const { report, site } = await auditSite(
    {
      "/": (req, res) => {
        const month = Number(/month=(-?\d+)/.exec(req.url ?? "")?.[1] ?? 0);
        // every month links five later ones: the calendar grows faster than any budget
        const links = [1, 2, 3, 4, 5].map((d) => `<a href="/?month=${month * 5 + d}">m${month * 5 + d}</a>`).join("");
        html(res, `<main><h1>Month ${month}</h1>${links}</main>`);
      },
    },
    { maxPages: 40, maxDepth: 1000 },
  );
  assert.equal(report.stats.pages_crawled, 40);
  assert.deepEqual(report.truncation_reasons, ["max_pages"]);
  assert.equal(site.paths().filter((p) => p !== "/robots.txt" && !p.includes("sitemap")).length, 40);
  const max = cut(report, "max_pages");
  assert.ok(max && max.urls > 0, JSON.stringify(report.cuts));
  assert.match(max.examples[0] ?? "", /\/\?month=\*: \d+ URLs, e\.g\. /);
  assert.match(max.detail, /40 pages fetched, the page budget \(max_pages 40\)/);
});

test("session ids in every link: crawl bounded, the session parameter reported", async () => {
  let n = 0;
  const { report } = await auditSite(
    {
      "*": (req, res) => {
        if (req.url === "/robots.txt") return void res.writeHead(404).end();
        const links = ["/", "/shop", "/cart"].map((p) => `<a href="${p}?sid=${(n++).toString(36)}">x</a>`).join("");
        html(res, links);
      },
    },
    { maxPages: 30, maxDepth: 1000 },
  );
  assert.equal(report.stats.pages_crawled, 30);
  assert.ok((report.findings.find((f) => f.id === "url-session-id")?.count ?? 0) >= 25);
  assert.match(cut(report, "max_pages")?.examples.join(" ") ?? "", /sid=\*/);
});

test("a 20,000-link page: 1,000 links followed, the rest counted, the frontier bounded", async () => {
  const links = Array.from({ length: 20_000 }, (_, i) => `<a href="/item/${i}">item ${i}</a>`).join("");
  const { report, site } = await auditSite(
    { "/": (_req, res) => html(res, links), "*": (req, res) => (req.url === "/robots.txt" ? void res.writeHead(404).end() : html(res, "item")) },
    // Time bounds far above what this takes (about a second): a loaded machine may take longer to
    // serve and parse the 20,000 links, and the bounds under test here are links and pages, not time.
    { maxPages: 25, maxResources: 0, timeoutMs: 30_000, maxSeconds: 300 },
  );
  const linkCut = cut(report, "links_per_page");
  assert.equal(linkCut?.urls, 1);
  assert.match(linkCut?.examples[0] ?? "", /20,000 links/);
  assert.equal(report.stats.pages_crawled, 25);
  assert.ok(site.paths().length <= 25 + 3, `requests: ${site.paths().length}`);
  assert.equal(report.stats.urls_discovered, 1001, "the start page and the 1,000 links followed");
});

test("redirect loops and a 15-hop chain: given up at 10 hops, reported, each URL asked once", async () => {
  const routes: Record<string, Handler> = {
    "/": (_req, res) => html(res, '<a href="/loop-a">a</a><a href="/chain/0">c</a><a href="/meta-a">m</a>'),
    "/loop-a": (_req, res) => void res.writeHead(302, { location: "/loop-b" }).end(),
    "/loop-b": (_req, res) => void res.writeHead(302, { location: "/loop-a" }).end(),
    "/meta-a": (_req, res) => html(res, '<meta http-equiv="refresh" content="0;url=/meta-b">'),
    "/meta-b": (_req, res) => html(res, '<meta http-equiv="refresh" content="0;url=/meta-a">'),
  };
  for (let i = 0; i < 15; i++) routes[`/chain/${i}`] = (_req, res) => void res.writeHead(301, { location: `/chain/${i + 1}` }).end();
  const { report, site } = await auditSite(routes);
  assert.deepEqual(paths(report, "redirect-loop").sort(), ["/chain/0", "/loop-a"]);
  assert.match(cut(report, "max_redirects")?.examples[0] ?? "", /chain\/0: more than 10 redirects/);
  assert.deepEqual(paths(report, "client-side-redirect").sort(), ["/meta-a", "/meta-b"]);
  const asked = site.paths().filter((p) => p.startsWith("/meta"));
  assert.deepEqual(asked.sort(), ["/meta-a", "/meta-b"], "a client-side loop is fetched once per URL");
  assert.ok(site.paths().filter((p) => p.startsWith("/chain/")).length <= 11);
});

test("a 100 MB page is cut at the 5 MiB read cap: the server stops being read, the report says so", async () => {
  let written = 0;
  const { report } = await auditSite({
    "/": (_req, res) => html(res, '<a href="/huge">huge</a>'),
    "/huge": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.write("<html><head><title>Huge page of the adversarial fixture</title></head><body><p>");
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = () => {
        while (written < 100 * 1024 * 1024 && !res.destroyed) {
          written += chunk.byteLength;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      pump();
    },
    // The byte cap is under test, not the timeout: 5 MiB must not race a 1 s timeout on a busy machine.
  }, { timeoutMs: 15_000 });
  assert.deepEqual(paths(report, "page-truncated"), ["/huge"]);
  assert.equal(cut(report, "max_bytes")?.urls, 1);
  assert.ok(written < 20 * 1024 * 1024, `the server wrote ${written} bytes before the crawler hung up`);
});

test("a slow-drip server is cut by the request timeout; the rest of the site is still audited", async () => {
  const timers = new Set<NodeJS.Timeout>();
  const drip = (headers: boolean): Handler => (_req, res) => {
    if (headers) {
      res.writeHead(200, { "content-type": "text/html" });
      res.write("<html><body>");
    }
    const timer = setInterval(() => void (headers && res.write("x")), 50);
    timers.add(timer);
    res.on("close", () => clearInterval(timer));
  };
  const { report } = await auditSite({
    "/": (_req, res) => html(res, '<a href="/drip">d</a><a href="/silent">s</a><a href="/ok">ok</a>'),
    "/drip": drip(true),
    "/silent": drip(false),
    "/ok": (_req, res) => html(res, "fine"),
  });
  for (const timer of timers) clearInterval(timer);
  assert.deepEqual(paths(report, "fetch-failed").sort(), ["/drip", "/silent"]);
  assert.equal(cut(report, "timeout_ms")?.urls, 2);
  assert.ok(report.pages.some((p) => p.url.endsWith("/ok") && p.status === 200));
});

test("gzip bombs: a sitemap and a page that inflate far past their caps are cut there", async () => {
  const zeros = await new Promise<Buffer>((resolve) => {
    const gzip = createGzip({ level: 9 });
    const parts: Buffer[] = [];
    gzip.on("data", (chunk: Buffer) => parts.push(chunk));
    gzip.on("end", () => resolve(Buffer.concat(parts)));
    const block = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < 64; i++) gzip.write(block);
    gzip.end();
  });
  const spaces = gzipSync(Buffer.concat([Buffer.from("<html><head><title>x</title></head><body>"), Buffer.alloc(16 * 1024 * 1024, 0x20)]));
  const { report } = await auditSite({
    "/robots.txt": (req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(`User-agent: *\nAllow: /\nSitemap: http://${req.headers.host}/bomb.xml.gz\n`);
    },
    "/bomb.xml.gz": (_req, res) => void res.writeHead(200, { "content-type": "application/gzip" }).end(zeros),
    "/": (_req, res) => html(res, '<a href="/spaces">s</a>'),
    "/spaces": (_req, res) => void res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" }).end(spaces),
  });
  assert.ok(zeros.byteLength < 200_000, `${zeros.byteLength} compressed bytes`);
  const bomb = report.sitemaps.find((f) => f.url.endsWith("/bomb.xml.gz"));
  assert.deepEqual([bomb?.kind, bomb?.error], ["invalid", "more than 50 MB uncompressed"]);
  assert.equal(cut(report, "sitemap_bytes")?.urls, 1);
  assert.deepEqual(paths(report, "page-truncated"), ["/spaces"]);
});

test("invalid encodings: bad UTF-8 and an unknown charset are reported, a legacy charset is read right", async () => {
  const send = (type: string, bytes: Buffer): Handler => (_req, res) => void res.writeHead(200, { "content-type": type }).end(bytes);
  const page = (title: Buffer) => Buffer.concat([Buffer.from("<html><head><title>"), title, Buffer.from("</title></head><body><p>text</p></body></html>")]);
  const { report } = await auditSite({
    "/": (_req, res) => html(res, ["/bad-utf8", "/unknown", "/latin1", "/utf16", "/nul"].map((p) => `<a href="${p}">${p}</a>`).join("")),
    "/bad-utf8": send("text/html; charset=utf-8", page(Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0xff, 0xfe, 0xc3]))),
    "/unknown": send("text/html; charset=x-klingon", page(Buffer.from("Qapla"))),
    "/latin1": send("text/html", Buffer.concat([Buffer.from('<meta charset="windows-1252">'), page(Buffer.from("Caf\xe9 cr\xe8me", "latin1"))])),
    "/utf16": send("text/html; charset=utf-16", page(Buffer.from("not really utf-16!"))),
    "/nul": send("text/html", Buffer.concat([page(Buffer.from("nul\u0000bytes\u0001")), Buffer.alloc(1000)])),
  });
  // ASCII bytes read as UTF-16 leave an odd byte: also not valid in the declared encoding
  assert.deepEqual(paths(report, "encoding-invalid").sort(), ["/bad-utf8", "/unknown", "/utf16"]);
  const latin1 = report.pages.find((p) => p.url.endsWith("/latin1"));
  assert.equal(latin1?.title, "Café crème");
  assert.equal(report.stats.pages_crawled, 6);
});

test("a malformed robots.txt: garbage lines, a typo, rules outside a group, 1 MB long: parsed within its cap, reported", async () => {
  const robots = [
    "\ufeffDisallow: /before-any-group",
    "User-agent: *",
    "Disalow: /typo",
    "Disallow: /private",
    "this line is garbage",
    "\u0000\u0001\u0002 binary",
    `Allow: /${"x".repeat(100_000)}`,
    "Host: example.com",
  ].join("\n");
  const { report, site } = await auditSite({
    "/robots.txt": (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(`${robots}\n${"# padding\n".repeat(110_000)}Disallow: /after-the-cap\n`);
    },
    "/": (_req, res) => html(res, '<a href="/private/x">p</a><a href="/typo">t</a><a href="/after-the-cap">a</a>'),
  });
  const invalid = report.findings.find((f) => f.id === "robots-txt-invalid");
  assert.match(invalid?.examples[0]?.evidence ?? "", /4 line\(s\) ignored, e\.g\. "Disallow: \/before-any-group"/);
  assert.equal(cut(report, "robots_bytes")?.urls, 1);
  assert.ok(!site.paths().includes("/private/x"), "the rule after the garbage still holds");
  assert.ok(site.paths().includes("/typo"), "a misspelt rule is ignored, as crawlers ignore it");
  assert.ok(site.paths().includes("/after-the-cap"), "rules past 500 KiB are not read");
});

test("an HTML page served as robots.txt (a dev server's catch-all) is reported, and allows everything", async () => {
  const { report } = await auditSite({
    "/robots.txt": (_req, res) => html(res, '<div id="root"></div><script src="/app.js"></script>'),
    "/": (_req, res) => html(res, "home"),
  });
  assert.match(report.findings.find((f) => f.id === "robots-txt-invalid")?.examples[0]?.evidence ?? "", /an HTML page/);
  assert.equal(report.stats.pages_crawled, 1);
});

test("what the crawl keeps of a page holds none of its text: 2,000 pages of 10 KB keep a few MB, not 20", async () => {
  v8.setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const filler = `<p>${"lorem ipsum dolor sit amet ".repeat(370)}</p>`;
  const site = await serveSite((req, res) => {
    if (req.url === "/robots.txt") return void res.writeHead(404).end();
    const n = Number(/\d+/.exec(req.url ?? "")?.[0] ?? 0);
    // long attribute values: the parser copies short strings, long ones are slices of the page text
    const self = `http://${req.headers.host}/pages/a-long-page-name-number-${n}`;
    const head = `<title>Page number ${n} of the memory fixture site</title><link rel="canonical" href="${self}"><link rel="alternate" hreflang="en" href="${self}"><meta name="description" content="Description of page ${n}, long enough to count.">`;
    const links = [1, 2, 3].map((d) => `<a href="/pages/a-long-page-name-number-${n + d}">next ${d}</a>`).join("");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html lang="en"><head>${head}</head><body><main>${links}${filler}</main></body></html>`);
  });
  try {
    gc();
    const before = process.memoryUsage().heapUsed;
    const collector = new Collector();
    const crawl = await crawlSite(
      `${site.origin}/`,
      // The whole site must be crawled for the heap to mean anything; the default 60 s budget cut
      // it short on a loaded machine, so time is bounded only against a hang.
      defaultBounds({ minIntervalMs: 0, concurrency: 8, maxPages: 2000, maxDepth: 100_000, maxResources: 0, sitemaps: false, maxSeconds: 1800, timeoutMs: 30_000 }),
      { fetch, request: http.request, userAgent: "SeoAuditMcp/test", productToken: "SeoAuditMcp", textSink: htmlSinks() },
      collector.visit,
    );
    gc();
    const kept = process.memoryUsage().heapUsed - before;
    assert.equal(crawl.pages, 2000);
    assert.equal(collector.summaries.size, 2000, "the summaries are alive while measured");
    assert.ok(kept < 8 * 1024 * 1024, `heap grew by ${(kept / 1048576).toFixed(1)} MB for 20 MB of page text`);
  } finally {
    await site.close();
  }
});
