/**
 * The plain crawl of a single-page app: one page, an empty `<div id="root">` and a script that
 * builds the content and 50 links. It used to score 97/100 with nothing said; now the page
 * carries `script-built-page`, which names the rendering mode. The server-rendered twin (the
 * same content in the HTML, the same script beside it) stays silent.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { nodeHttpRequest } from "../../../shim/node/seo/crawl-request.ts";
import { handleAuditRequest } from "../../../src/seo/audit/audit-request.ts";
import { extractHtml } from "../../../src/seo/audit/extract.ts";
import type { AuditReport } from "../../../src/seo/audit/report.ts";
import { memoryReportStore } from "../../../src/seo/audit/report-store.ts";
import type { TestSite } from "../crawl/site-server.ts";
import { SPA_LINKS, serveSpaSite } from "../fakes/spa-site.ts";

const http = nodeHttpRequest(4);
let spa: TestSite;
let twin: TestSite;

async function audit(site: TestSite): Promise<AuditReport> {
  const { report } = await handleAuditRequest(
    { url: `${site.origin}/`, max_pages: 100 },
    { fetch, request: http.request, now: () => new Date(), reports: memoryReportStore() },
  );
  return report;
}

before(async () => {
  spa = await serveSpaSite();
  twin = await serveSpaSite({ serverRendered: true });
});
after(async () => {
  await spa.close();
  await twin.close();
  http.close();
});

test("the app's shell is reported as built by script, with the way to render it", async () => {
  const report = await audit(spa);
  assert.equal(report.stats.pages_crawled, 1);
  const finding = report.findings.find((f) => f.id === "script-built-page");
  assert.ok(finding, report.findings.map((f) => f.id).join(", "));
  assert.equal(finding.severity, "high");
  assert.match(finding.fix, /--render/);
  assert.match(finding.fix, /render: true/);
  assert.match(finding.examples[0]?.evidence ?? "", /mount point <div id="root">, 1 script\(s\), 0 words, 0 links/);
  assert.equal(finding.provenance.kind, "rule-of-thumb");
});

test("the server-rendered twin, with the same script beside its content, is silent", async () => {
  const report = await audit(twin);
  assert.equal(report.stats.pages_crawled, SPA_LINKS + 1);
  assert.equal(report.findings.find((f) => f.id === "script-built-page"), undefined);
});

test("mount points: framework ids and custom elements; an empty body with only a script counts too", () => {
  const shell = (body: string) => extractHtml(`<html><head><title>x</title></head><body>${body}</body></html>`);
  assert.equal(shell('<div id="__next"></div><script src="/a.js"></script>').mountPoint, '<div id="__next">');
  assert.equal(shell("<app-root></app-root><script type=module src=/m.js></script>").mountPoint, "<app-root>");
  const facts = shell('<script type="application/ld+json">{}</script><script>var a = 1</script>');
  assert.deepEqual({ scripts: facts.scripts, mount: facts.mountPoint }, { scripts: 1, mount: undefined });
});
