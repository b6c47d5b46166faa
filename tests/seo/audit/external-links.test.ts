/**
 * External links: a loopback site whose pages link to a second loopback server (another port,
 * so another site) with a 404, a 500, a hanging URL, a HEAD-refusing URL, a robots-disallowed
 * URL and a redirect. The check is on by default in the CLI and off on the MCP tool.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { handleAuditRequest } from "../../../src/seo/audit/audit-request.ts";
import { boundsFrom } from "../../../src/seo/audit/bounds-input.ts";
import type { ExternalCheckOptions } from "../../../src/seo/audit/external-checker.ts";
import { ExternalLinks } from "../../../src/seo/audit/external-links.ts";
import type { Hit } from "../../../src/seo/audit/finding.ts";
import { memoryReportStore } from "../../../src/seo/audit/report-store.ts";
import { auditCommand } from "../../../src/seo/cli/audit.ts";
import type { AuditReport } from "../../../src/seo/audit/report.ts";
import { serveSite, type TestSite } from "../crawl/site-server.ts";

let external: TestSite;
let site: TestSite;
/** Method and path of every request the external server received. */
const calls: string[] = [];

const page = (links: string[]) =>
  `<!doctype html><html lang="en"><head><title>A page about external links here</title></head><body><h1>Links</h1>${links
    .map((href) => `<a href="${href}">a useful link</a>`)
    .join(" ")}</body></html>`;

before(async () => {
  external = await serveSite((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    const path = req.url ?? "/";
    if (path === "/robots.txt") return void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /private\n");
    if (path === "/missing") return void res.writeHead(404).end();
    if (path === "/error") return void res.writeHead(500).end();
    if (path.startsWith("/slow")) return; // never answers
    if (path === "/head-drops" && req.method === "HEAD") return void req.socket.destroy();
    if (path === "/head-refused" && req.method === "HEAD") return void res.writeHead(405).end();
    if (path === "/moved") return void res.writeHead(301, { location: "/ok" }).end();
    res.writeHead(200, { "content-type": "text/html" }).end("<p>fine</p>".repeat(2000));
  });
  const x = external.origin;
  site = await serveSite((req, res) => {
    const path = req.url ?? "/";
    const pages: Record<string, string[]> = {
      "/": ["/a", "/b", `${x}/missing`, `${x}/error`, `${x}/slow`, `${x}/head-refused`, `${x}/private/page`, `${x}/moved`, `${x}/ok`],
      "/a": ["/", `${x}/missing`, `${x}/ok`],
      "/b": ["/", `${x}/missing`],
    };
    const links = pages[path];
    if (!links) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page(links));
  });
});

after(async () => {
  await site.close();
  await external.close();
});

async function audit(options: Record<string, unknown>, frontEnd?: "cli"): Promise<AuditReport> {
  const { report } = await handleAuditRequest(
    { url: `${site.origin}/`, timeout_ms: 3000, ...options },
    { fetch, now: () => new Date(), reports: memoryReportStore(), ...(frontEnd ? { frontEnd } : {}) },
  );
  return report;
}

const finding = (report: AuditReport, id: string) => report.findings.find((f) => f.id === id);

test("the MCP tool's default audit sends no request to another site", async () => {
  calls.length = 0;
  const report = await audit({});
  assert.equal(report.stats.pages_crawled, 3);
  assert.deepEqual(calls, []);
  assert.equal(report.external_links, undefined);
  assert.equal(finding(report, "external-link-broken"), undefined);
});

test("the CLI checks external links by default: broken ones with their source pages, redirects, robots honoured", async () => {
  calls.length = 0;
  const report = await audit({}, "cli");
  const x = external.origin;
  const broken = finding(report, "external-link-broken");
  assert.ok(broken, "external-link-broken reported");
  const evidence = new Map(broken.examples.map((e) => [e.url, e.evidence]));
  assert.deepEqual([...evidence.keys()].sort(), [`${x}/error`, `${x}/missing`, `${x}/slow`]);
  assert.match(evidence.get(`${x}/missing`) ?? "", /^status 404; linked from .* \(\+2 more\)$/);
  assert.match(evidence.get(`${x}/error`) ?? "", /^status 500; linked from /);
  assert.match(evidence.get(`${x}/slow`) ?? "", /^no response \(timeout\)/);
  // ranked by the pages that carry the links, as internal broken links are
  assert.equal(broken.pages, 3);
  const redirect = finding(report, "external-link-redirect");
  assert.deepEqual(redirect?.examples.map((e) => e.evidence.split(";")[0]), [`redirects to ${x}/ok`]);
  assert.equal(redirect?.severity, "info");
  // HEAD refused, then GET: a live link, not a finding
  assert.ok(calls.includes("HEAD /head-refused") && calls.includes("GET /head-refused"));
  assert.ok(!calls.some((c) => c.startsWith("GET /") && c !== "GET /head-refused" && c !== "GET /robots.txt"), calls.join(", "));
  // robots.txt read once, its disallowed URL never asked for
  assert.equal(calls.filter((c) => c.endsWith(" /robots.txt")).length, 1);
  assert.ok(!calls.some((c) => c.includes("/private")));
  assert.deepEqual(report.external_links && { ...report.external_links, requests: 0 }, {
    found: 7,
    checked: 6,
    broken: 3,
    redirected: 1,
    not_checked: { cap: 0, robots: 1, time: 0, private: 0 },
    requests: 0,
  });
});

test("the cap checks the most-linked targets first and counts the rest", async () => {
  calls.length = 0;
  const report = await audit({ max_external_links: 2 }, "cli");
  const x = external.origin;
  assert.equal(report.external_links?.found, 7);
  assert.equal(report.external_links?.not_checked.cap, 5);
  assert.deepEqual(
    calls.filter((c) => !c.endsWith("/robots.txt")).sort(),
    ["HEAD /missing", "HEAD /ok"],
  );
  assert.deepEqual(finding(report, "external-link-broken")?.examples.map((e) => e.url), [`${x}/missing`]);
});

test("check_external_links: false turns the CLI's check off", async () => {
  calls.length = 0;
  const report = await audit({ check_external_links: false }, "cli");
  assert.deepEqual(calls, []);
  assert.equal(report.external_links, undefined);
});

test("links to the production twin of a staging copy are links to this site: not checked as external", async () => {
  calls.length = 0;
  const report = await audit({ production_url: `${external.origin}/` }, "cli");
  assert.equal(report.twin?.via, "option");
  assert.equal(report.external_links?.found, 0);
  assert.ok(!calls.some((c) => c.startsWith("HEAD ")), calls.join(", "));
});

test("a remote audit never contacts external links on private or loopback addresses", async () => {
  calls.length = 0;
  const links = new ExternalLinks("https://example.com/");
  links.record("https://example.com/", [`${external.origin}/missing`, "https://example.com/about", "mailto:a@b.c"]);
  const hits: unknown[] = [];
  const summary = await links.check(
    {
      fetch,
      userAgent: "test",
      productToken: "test",
      bounds: boundsFrom({}, "remote"),
      max: 10,
      ownMachine: false,
    },
    (hit) => void hits.push(hit),
  );
  assert.deepEqual(calls, []);
  assert.deepEqual(hits, []);
  assert.deepEqual(summary.not_checked, { cap: 0, robots: 0, time: 0, private: 1 });
  assert.equal(summary.found, 1);
});

/** Checks `targets` linked from one page of a loopback site, as an audit of this machine does. */
async function checkOnly(targets: string[], extra: Partial<ExternalCheckOptions> = {}) {
  const links = new ExternalLinks(site.origin);
  links.record(`${site.origin}/`, targets);
  const hits: Hit[] = [];
  const summary = await links.check(
    { fetch, userAgent: "test", productToken: "test", bounds: boundsFrom({ timeout_ms: 2000 }, "own-machine"), max: 10, ownMachine: true, ...extra },
    (hit) => void hits.push(hit),
  );
  return { summary, hits };
}

test("a HEAD that fails on the connection is retried as a GET; a host that refuses connections is no response", async () => {
  calls.length = 0;
  const closed = await serveSite(() => {});
  await closed.close();
  const { summary, hits } = await checkOnly([`${external.origin}/head-drops`, `${closed.origin}/page`]);
  assert.ok(calls.includes("HEAD /head-drops") && calls.includes("GET /head-drops"), calls.join(", "));
  assert.deepEqual(hits.map((h) => h.url), [`${closed.origin}/page`]);
  assert.match(hits[0]?.evidence ?? "", /^no response \(.+\); linked from /);
  assert.equal(summary.checked, 2);
});

test("the time bound stops the check: targets still waiting are counted, not reported", async () => {
  const { summary, hits } = await checkOnly(
    [1, 2, 3].map((n) => `${external.origin}/slow-${n}`),
    { seconds: 1, bounds: boundsFrom({ timeout_ms: 30_000 }, "own-machine") },
  );
  assert.deepEqual(hits, []);
  assert.equal(summary.not_checked.time, 3);
});

test("the CLI's --external-links N caps the check and --no-external-links turns it off", async () => {
  const run = async (flags: string[]) => {
    const out: string[] = [];
    const code = await auditCommand([`${site.origin}/`, ...flags], {
      stdout: (text: string) => void out.push(text),
      stderr: () => {},
      fetch,
      reports: memoryReportStore(),
      now: () => new Date(),
      isTTY: false,
      readText: () => Promise.reject(new Error("no files")),
    });
    assert.equal(code, 0);
    return out.join("");
  };
  calls.length = 0;
  const capped = await run(["--external-links", "1"]);
  assert.match(capped, /External links: 7 found, 1 checked \(1 broken, 0 redirected\); not checked: 6 over the cap \[measured\]\./);
  assert.deepEqual(calls.filter((c) => !c.endsWith("/robots.txt")), ["HEAD /missing"]);
  const json = JSON.parse(await run(["--external-links", "1", "--json"])) as { summary: { external_links?: { value: { not_checked: { cap: number } } } } };
  assert.equal(json.summary.external_links?.value.not_checked.cap, 6);
  calls.length = 0;
  assert.doesNotMatch(await run(["--no-external-links"]), /External links/);
  assert.deepEqual(calls, []);
});
