import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { connect } from "../fakes/client.ts";
import { type Fakes, startFakes } from "../fakes/providers.ts";
import { configFor, recordingDeps } from "../fakes/setup.ts";
import { type Site, startSite } from "../fakes/site.ts";

let fakes: Fakes;
let site: Site;
before(async () => {
  [fakes, site] = await Promise.all([startFakes(), startSite()]);
});
after(async () => {
  await Promise.all([fakes.close(), site.close()]);
});

type Label = {
  value: unknown;
  provenance: { kind: string; source?: string; code?: string; reason?: string; basis?: string; at?: string };
};
const routedDeps = () => ({ provider: { ...recordingDeps(), fetch: site.fetch } });

test("seo_page_report without keys on a local page: measured facts and findings; Google services skipped", async () => {
  const mcp = await connect(configFor(fakes, false));
  try {
    const r = await mcp.call("seo_page_report", { url: `${site.url}/old` });
    assert.equal(r.isError, undefined, r.text);
    const page = r.structured.page as Record<string, Label>;
    assert.deepEqual(page.status, { value: 200, provenance: { kind: "measured" } });
    assert.match(String(r.structured.fetchedAt), /^\d{4}-\d\d-\d\dT/);
    assert.equal((r.structured.totalFindings as { provenance: { kind: string } }).provenance.kind, "derived");
    assert.equal(page.title?.value, "EV charging near you | Example");
    assert.equal((page.redirects?.value as { status: number }[] | undefined)?.[0]?.status, 301);
    assert.equal(page.openGraph, undefined, "concise keeps the high-signal facts only");
    const findings = r.structured.findings as { id: string; severity: string }[];
    assert.ok(findings.length > 0);
    assert.ok(findings.every((f) => f.id && f.severity));
    const psi = (r.structured.pageSpeed as Record<string, Label>).mobile;
    assert.equal(psi?.provenance.code, "not-applicable");
    assert.match(psi?.provenance.reason ?? "", /local address/);
    assert.match(r.text, /HTTP 200 in \d+ ms \[measured\]/);
    const detailed = await mcp.call("seo_page_report", {
      url: `${site.url}/page`,
      response_format: "detailed",
    });
    const full = detailed.structured.page as Record<string, Label>;
    assert.deepEqual(full.openGraph?.value, { "og:title": "EV charging near you" });
    assert.equal((full.hreflang?.value as unknown[] | undefined)?.length, 2);
    assert.ok((full.wordCount?.value as number) > 50);
  } finally {
    await mcp.close();
  }
});

test("seo_page_report with keys: PSI for both strategies and CrUX for URL and origin, labelled", async () => {
  const mcp = await connect(configFor(fakes, true), routedDeps());
  try {
    const r = await mcp.call("seo_page_report", {
      url: "https://shop.example/page",
      response_format: "detailed",
    });
    assert.equal(r.isError, undefined, r.text);
    const psi = r.structured.pageSpeed as Record<string, Label & { value: { performanceScore: number } }>;
    assert.equal(psi.mobile?.value.performanceScore, 0.71);
    assert.equal(psi.desktop?.value.performanceScore, 0.93);
    assert.equal(psi.mobile?.provenance.source, "pagespeed-insights");
    const field = r.structured.fieldData as Record<
      string,
      Label & { value: { metrics: Record<string, { p75: number; distribution?: number[] }> } }
    >;
    assert.equal(field.url?.provenance.source, "chrome-ux-report");
    assert.equal(field.url?.value.metrics.cls?.p75, 0.05);
    assert.deepEqual(field.url?.value.metrics.lcp?.distribution, [0.8, 0.15, 0.05]);
    assert.equal(field.origin?.provenance.source, "chrome-ux-report");
    assert.deepEqual(field.verdicts?.value, {
      lcp: "good",
      inp: "needs-improvement",
      cls: "good",
      fcp: "good",
      ttfb: "poor",
    });
    assert.equal(field.verdicts?.provenance.kind, "derived");
    assert.match(field.verdicts?.provenance.basis ?? "", /web\.dev thresholds/);
    const concise = await mcp.call("seo_page_report", {
      url: "https://shop.example/page",
      strategy: "mobile",
    });
    const cpsi = concise.structured.pageSpeed as Record<
      string,
      { value: { failedSeoAudits: string[]; lab: Record<string, string> } }
    >;
    assert.deepEqual(Object.keys(cpsi), ["mobile"]);
    assert.deepEqual(cpsi.mobile?.value.failedSeoAudits, ["Document does not have a meta description"]);
    assert.equal(cpsi.mobile?.value.lab["largest-contentful-paint"], "3.1 s");
    assert.match(
      concise.text,
      /PageSpeed mobile: performance 0\.71, SEO 0\.83 \[provider: pagespeed-insights/,
    );
  } finally {
    await mcp.close();
  }
});

test("seo_page_report with only a PSI key: field data from PSI's embedded CrUX, CrUX origin says which key", async () => {
  const config = configFor(fakes, true);
  const mcp = await connect({ ...config, keys: { psi: config.keys.psi as string } }, routedDeps());
  try {
    const r = await mcp.call("seo_page_report", { url: "https://shop.example/page?v=psi-only" });
    const field = r.structured.fieldData as Record<
      string,
      Label & { value: { metrics: Record<string, { p75: number }> } }
    >;
    assert.equal(field.url?.provenance.source, "pagespeed-insights");
    assert.equal(field.url?.value.metrics.cls?.p75, 0.05);
    assert.equal(field.origin?.provenance.code, "no-key");
    assert.match(field.origin?.provenance.reason ?? "", /SEO_CRUX_KEY/);
  } finally {
    await mcp.close();
  }
});

test("seo_page_report: PSI outage and a CrUX URL without data are labelled, the page still reported", async () => {
  const mcp = await connect(configFor(fakes, true), routedDeps());
  fakes.mode.psi = "5xx";
  try {
    const r = await mcp.call("seo_page_report", { url: "https://shop.example/page?v=origin-only" });
    const psi = r.structured.pageSpeed as Record<string, Label>;
    assert.equal(psi.mobile?.provenance.code, "provider-down");
    const field = r.structured.fieldData as Record<string, Label>;
    assert.equal(field.url?.provenance.code, "no-data");
    assert.equal(field.origin?.provenance.source, "chrome-ux-report");
    assert.match((field.verdicts?.provenance.basis as string) ?? "", /origin-level data/);
  } finally {
    fakes.mode.psi = "ok";
    await mcp.close();
  }
});

test("seo_page_report answers bad and unreachable URLs with isError and a next step", async () => {
  const mcp = await connect(configFor(fakes, false));
  try {
    const bad = await mcp.call("seo_page_report", { url: "ftp://example.com/" });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /INVALID_ARGUMENTS: .*not an absolute http\(s\) URL/);
    const junk = await mcp.call("seo_page_report", { url: "not a url" });
    assert.equal(junk.isError, true);
    const down = await mcp.call("seo_page_report", { url: "http://127.0.0.1:1/" });
    assert.equal(down.isError, true);
    assert.match(
      down.text,
      /UPSTREAM_UNAVAILABLE: Could not fetch http:\/\/127\.0\.0\.1:1\/: .*is the dev server running/,
    );
    const missing = await mcp.call("seo_page_report", {});
    assert.equal(missing.isError, true);
  } finally {
    await mcp.close();
  }
});

test("seo_page_report refuses a URL with user:password@ before anything is fetched or sent to a provider", async () => {
  const mcp = await connect(configFor(fakes, true), routedDeps());
  try {
    const requestsBefore = fakes.log.length;
    const sitesBefore = site.requests.length;
    const r = await mcp.call("seo_page_report", { url: "https://admin:s3cret@shop.example/page" });
    assert.equal(r.isError, true);
    assert.match(r.text, /INVALID_ARGUMENTS: the URL contains a user name or password; remove/);
    assert.doesNotMatch(r.text, /s3cret/);
    assert.equal(fakes.log.length, requestsBefore, "no provider saw the URL");
    assert.equal(site.requests.length, sitesBefore);
  } finally {
    await mcp.close();
  }
});

test("seo_page_report: a redirect to an address that fails names the redirect target, not only the URL asked", async () => {
  const server = createServer(
    (_req, res) => void res.writeHead(302, { location: "http://127.0.0.1:1/moved" }).end(),
  );
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/old`;
  const mcp = await connect(configFor(fakes, false));
  try {
    const r = await mcp.call("seo_page_report", { url });
    assert.equal(r.isError, true);
    assert.match(
      r.text,
      /UPSTREAM_UNAVAILABLE: Could not fetch .*\/old \(it redirected to http:\/\/127\.0\.0\.1:1\/moved, which failed\)/,
    );
  } finally {
    await mcp.close();
    server.close();
  }
});

test("seo_page_report: an untrusted HTTPS certificate says how to trust it", async () => {
  const tlsFailure: typeof fetch = async () => {
    const cause = Object.assign(new Error("self-signed certificate"), { code: "DEPTH_ZERO_SELF_SIGNED_CERT" });
    throw new TypeError("fetch failed", { cause });
  };
  const mcp = await connect(configFor(fakes, false), { provider: { ...recordingDeps(), fetch: tlsFailure } });
  try {
    const r = await mcp.call("seo_page_report", { url: "https://localhost:3443/" });
    assert.equal(r.isError, true);
    assert.match(r.text, /DEPTH_ZERO_SELF_SIGNED_CERT; the site's HTTPS certificate is not trusted: .*NODE_EXTRA_CA_CERTS/);
    assert.doesNotMatch(r.text, /dev server running/);
  } finally {
    await mcp.close();
  }
});

test("seo_page_report on a non-HTML URL says it is not HTML, with its content type, in both formats", async () => {
  const server = createServer(
    (_req, res) => void res.writeHead(200, { "content-type": "application/pdf" }).end("%PDF"),
  );
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/brochure.pdf`;
  const mcp = await connect(configFor(fakes, false));
  try {
    for (const response_format of ["concise", "detailed"]) {
      const r = await mcp.call("seo_page_report", { url, response_format });
      assert.equal(r.isError, undefined, r.text);
      assert.match(
        r.text,
        /HTTP 200 in \d+ ms \[measured\], not HTML \(application\/pdf\), so no page checks ran/,
      );
      const page = r.structured.page as Record<string, Label>;
      assert.equal(page.contentType?.value, "application/pdf");
      assert.equal(page.contentType?.provenance.kind, "measured");
      assert.equal(page.isHtml?.value, false);
    }
    const html = await mcp.call("seo_page_report", { url: `${site.url}/page` });
    assert.equal((html.structured.page as Record<string, Label>).isHtml?.value, true);
  } finally {
    await mcp.close();
    server.close();
  }
});
