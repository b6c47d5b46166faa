import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { fileReportStore } from "../../../shim/node/seo/report-store.ts";
import { handleAuditRequest } from "../../../src/seo/audit/audit-request.ts";
import { memoryReportStore } from "../../../src/seo/audit/report-store.ts";
import { createAuditSiteTool } from "../../../src/seo/tools/audit-site.ts";
import { defineMcp } from "../../../src/shared/mcp/server.ts";
import { serveFixtureSite, serveSite, type TestSite } from "../crawl/site-server.ts";

let problems: TestSite;
let client: Client;
const logged: string[] = [];
const dir = mkdtempSync(join(tmpdir(), "seo-reports-"));

before(async () => {
  problems = await serveFixtureSite("problems");
  const tool = createAuditSiteTool({
    fetch,
    now: () => new Date(),
    reports: fileReportStore(dir, 3),
    log: (l) => logged.push(l),
  });
  const definition = defineMcp({ name: "seo-test", version: "1" }, [tool]);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await definition.createServer().connect(serverSide);
  client = new Client({ name: "test", version: "1" });
  await client.connect(clientSide);
});
after(async () => {
  await client.close();
  await problems.close();
  rmSync(dir, { recursive: true, force: true });
});

async function closedPort(): Promise<string> {
  const site = await serveSite((_req, res) => void res.end());
  await site.close();
  return site.origin;
}

type Labelled = { value: unknown; provenance: { kind: string } };
type Answer = {
  summary: { crawl: { value: Record<string, unknown>; provenance: { kind: string } } };
  scores: { value: { overall: number }; provenance: { kind: string } };
};
const call = async (args: Record<string, unknown>, onprogress?: (p: { progress: number }) => void) =>
  client.callTool(
    { name: "seo_audit_site", arguments: args },
    undefined,
    onprogress ? { onprogress } : undefined,
  );

test("listing: schema, output schema, annotations, description for agents", async () => {
  const { tools } = await client.listTools();
  const tool = tools[0];
  assert.equal(tool?.name, "seo_audit_site");
  assert.deepEqual(tool?.inputSchema.required ?? [], [], "url to audit, or report_id to read");
  assert.ok(tool?.inputSchema.properties?.max_pages && tool.inputSchema.properties.compare_to);
  assert.equal(tool?.annotations?.readOnlyHint, true);
  assert.equal(tool?.annotations?.openWorldHint, true);
  assert.equal(tool?.outputSchema?.type, "object");
  assert.match(tool?.description ?? "", /robots\.txt/);
});

test("concise and detailed audits of the problems site, with progress and provenance on every value", async () => {
  const progress: number[] = [];
  const concise = await call({ url: `${problems.origin}/`, min_interval_ms: 0, concurrency: 4 }, (p) =>
    progress.push(p.progress),
  );
  assert.equal(concise.isError, undefined);
  const s = concise.structuredContent as Record<string, unknown> &
    Answer & {
      top_fixes: { check_id: string; examples: unknown[]; provenance: { kind: string } }[];
      findings: { value: Record<string, Record<string, number>>; provenance: { kind: string; basis?: string } };
    };
  assert.match(String(s.report_id), /^audit-/);
  assert.equal(s.summary.crawl.provenance.kind, "measured");
  assert.equal(s.summary.crawl.value.truncated, false);
  assert.equal(s.scores.provenance.kind, "derived");
  assert.equal(s.top_fixes.length, 5);
  assert.ok(s.top_fixes.every((f) => f.examples.length <= 3 && f.provenance.kind === "derived"));
  const counted = Object.values(s.findings.value).flatMap((checks) => Object.keys(checks));
  assert.ok(counted.length > 10, "the other checks, as URL counts by severity");
  assert.equal(s.findings.provenance.kind, "measured");
  assert.match(s.findings.provenance.basis ?? "", /a rule of thumb decides .*thin-content/);
  assert.equal(s.pages, undefined);
  for (const value of Object.values(s.summary) as Labelled[]) assert.ok(value.provenance.kind);
  // the findings the five fixes do not show
  assert.ok(!counted.some((id) => s.top_fixes.some((fix) => fix.check_id === id)));
  assert.ok(JSON.stringify(concise.structuredContent).length / 4 < 1500, "a 60-check site's concise answer stays small");
  assert.match(JSON.stringify(concise.content), /Fixes, highest priority first/);
  assert.ok(progress.length >= 1);
  const conciseSize = JSON.stringify(concise.structuredContent).length;

  const detailed = await call({
    url: `${problems.origin}/`,
    min_interval_ms: 0,
    concurrency: 4,
    response_format: "detailed",
  });
  const d = detailed.structuredContent as {
    findings: { id: string; examples: unknown[]; provenance: { kind: string } }[];
    pages: Labelled;
    crawl: { robots: Labelled };
  };
  assert.ok(d.findings.length >= 50);
  assert.ok(d.findings.every((f) => Array.isArray(f.examples) && f.provenance.kind));
  assert.equal(d.pages.provenance.kind, "measured");
  assert.equal(d.crawl.robots.provenance.kind, "measured");
  assert.ok(d.findings.some((f) => f.provenance.kind === "rule-of-thumb"));
  const detailedSize = JSON.stringify(detailed.structuredContent).length;
  console.log(`concise ${conciseSize} chars, detailed ${detailedSize} chars`);
  assert.ok(conciseSize * 3 < detailedSize, "concise is a summary, not the payload");
});

test("bad inputs come back as isError results that say what to do", async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ url: "not a url" }, /INVALID_URL: .*absolute http\(s\) URL/],
    [{ url: "ftp://example.com/" }, /INVALID_URL/],
    [{ url: `${problems.origin}/`, max_pages: 5001 }, /INVALID_ARGUMENTS: max_pages/],
    [
      { url: "https://example.invalid/", min_interval_ms: 0 },
      /INVALID_ARGUMENTS: min_interval_ms below 100 is allowed only for sites on your own machine/,
    ],
    [
      { url: "https://example.invalid/", concurrency: 8 },
      /INVALID_ARGUMENTS: concurrency above 4 is allowed only for sites on your own machine/,
    ],
    [{ url: `${problems.origin}/`, production_url: "ftp://x" }, /INVALID_ARGUMENTS: production_url/],
    [
      { url: `${problems.origin}/`, production_url: `${problems.origin}/other` },
      /INVALID_ARGUMENTS: production_url .* on another origin/,
    ],
    [{ url: `${problems.origin}/`, compare_to: "audit-20200101T000000-zz" }, /REPORT_NOT_FOUND/],
    [{ url: `${problems.origin}/`, compare_to: { findings: "no" } }, /INVALID_ARGUMENTS/],
    [{ url: `${await closedPort()}/` }, /UNREACHABLE: could not reach .*ECONNREFUSED.*server is running/],
  ];
  for (const [args, pattern] of cases) {
    const result = await call(args);
    assert.equal(result.isError, true, JSON.stringify(args));
    assert.match(JSON.stringify(result.content), pattern);
  }
  const blocked = await serveSite((req, res) => {
    res.writeHead(req.url === "/robots.txt" ? 200 : 500, { "content-type": "text/plain" });
    res.end("User-agent: *\nDisallow: /\n");
  });
  try {
    const result = await call({ url: `${blocked.origin}/`, min_interval_ms: 0 });
    assert.match(
      JSON.stringify(result.content),
      /ROBOTS_DISALLOWED: .*robots\.txt.*disallows.*Allow the path/,
    );
    assert.deepEqual(blocked.paths(), ["/robots.txt"]);
  } finally {
    await blocked.close();
  }
});

test("a start URL with credentials, one that redirects off-site, a malformed compare_to: isError with a next step", async () => {
  const site = await serveSite((req, res) => {
    if (req.url === "/moved") res.writeHead(301, { location: "https://elsewhere.invalid/new" });
    else res.writeHead(req.url === "/robots.txt" ? 404 : 200, { "content-type": "text/html" });
    res.end("<title>x</title>");
  });
  try {
    const withCredentials = site.origin.replace("http://", "http://admin:s3cret@");
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ url: `${withCredentials}/` }, /INVALID_URL: the URL contains a user name or password; remove/],
      [
        { url: `${site.origin}/moved`, min_interval_ms: 0 },
        /OFF_SITE_REDIRECT: .*\/moved redirects to https:\/\/elsewhere\.invalid\/new, outside .*audit https:\/\/elsewhere\.invalid\/new instead/,
      ],
      [
        { url: `${site.origin}/`, compare_to: { findings: [{ id: 1 }] } },
        /INVALID_ARGUMENTS: compare_to: must be a report_id string or the earlier report object/,
      ],
    ];
    for (const [args, pattern] of cases) {
      const result = await call(args);
      assert.equal(result.isError, true, JSON.stringify(args));
      assert.match(JSON.stringify(result.content), pattern);
      assert.doesNotMatch(JSON.stringify(result.content), /s3cret/);
    }
    assert.ok(!logged.some((line) => line.includes("s3cret")));
    assert.ok(!site.paths().includes("/"), "nothing is requested for a URL with credentials");
  } finally {
    await site.close();
  }
});

test("a site with no page answering 200 HTML scores 0 overall and says so, instead of a near-perfect score", async () => {
  const site = await serveSite((req, res) => {
    if (req.url === "/file.pdf") res.writeHead(200, { "content-type": "application/pdf" });
    else res.writeHead(req.url === "/ok" ? 200 : 404, { "content-type": "text/html" });
    res.end(req.url === "/ok" ? "<title>fine</title>" : "%PDF-1.4");
  });
  try {
    for (const path of ["/gone", "/file.pdf"]) {
      const result = await call({ url: `${site.origin}${path}`, min_interval_ms: 0 });
      const s = result.structuredContent as Answer;
      assert.equal(s.scores.value.overall, 0, path);
      assert.equal(s.summary.crawl.value.html_pages_audited, 0);
      assert.equal(s.summary.crawl.provenance.kind, "measured");
      assert.match(JSON.stringify(result.content), /No crawled URL answered 200 with HTML/);
    }
    const fine = await call({ url: `${site.origin}/ok`, min_interval_ms: 0 });
    const s = fine.structuredContent as Answer;
    assert.equal(s.summary.crawl.value.html_pages_audited, 1);
    assert.ok(s.scores.value.overall > 0);
    assert.doesNotMatch(JSON.stringify(fine.content), /No crawled URL answered 200 with HTML/);
  } finally {
    await site.close();
  }
});

test("an untrusted HTTPS certificate is answered with how to trust it, not 'is the server running'", async () => {
  for (const [code, message] of [
    ["DEPTH_ZERO_SELF_SIGNED_CERT", "self-signed certificate"],
    ["UNABLE_TO_VERIFY_LEAF_SIGNATURE", "unable to verify the first certificate"],
    ["ERR_TLS_CERT_ALTNAME_INVALID", "Hostname/IP does not match certificate's altnames"],
  ]) {
    const tlsFailure: typeof fetch = async () => {
      throw new TypeError("fetch failed", { cause: Object.assign(new Error(message), { code }) });
    };
    await assert.rejects(
      handleAuditRequest(
        { url: "https://localhost:3443/" },
        { fetch: tlsFailure, now: () => new Date(), reports: memoryReportStore() },
      ),
      (err: Error & { code?: string }) =>
        err.code === "UNREACHABLE" &&
        /certificate is not trusted: .*NODE_EXTRA_CA_CERTS=.*or use the http:\/\/ URL/.test(err.message) &&
        !/server is running/.test(err.message),
    );
  }
});

test("a start page slower than max_seconds gives a truncated report that says nothing was audited", async () => {
  const slow = await serveSite((req, res) => {
    if (req.url === "/robots.txt") return void res.writeHead(404).end();
    setTimeout(() => res.writeHead(200, { "content-type": "text/html" }).end("<title>late</title>"), 7000);
  });
  try {
    const result = await call({ url: `${slow.origin}/`, min_interval_ms: 0, max_seconds: 5, use_sitemaps: false });
    const s = result.structuredContent as Answer;
    assert.equal(s.summary.crawl.value.truncated, true);
    assert.equal(s.summary.crawl.value.pages_crawled, 0);
    assert.equal(s.scores.value.overall, 0);
    const text = JSON.stringify(result.content);
    assert.match(text, /No page was crawled before the crawl stopped, so nothing was audited.*raise max_seconds/);
    assert.doesNotMatch(text, /No problems found/);
  } finally {
    await slow.close();
  }
});

test("re-audit against a report of another start URL says so; against the same one it does not", async () => {
  const site = await serveSite((req, res) => {
    res.writeHead(req.url === "/robots.txt" ? 404 : 200, { "content-type": "text/html" });
    res.end("<title>t</title>");
  });
  try {
    type Compared = { report_id: string; comparison: { value: { against_target?: string } } };
    const first = (await call({ url: `${site.origin}/a`, min_interval_ms: 0 })).structuredContent as Compared;
    const same = await call({ url: `${site.origin}/a`, min_interval_ms: 0, compare_to: first.report_id });
    assert.equal((same.structuredContent as Compared).comparison.value.against_target, undefined);
    assert.doesNotMatch(JSON.stringify(same.content), /an audit of/);
    const other = await call({ url: `${site.origin}/b`, min_interval_ms: 0, compare_to: first.report_id });
    assert.equal((other.structuredContent as Compared).comparison.value.against_target, `${site.origin}/a`);
    assert.match(JSON.stringify(other.content), /\(an audit of http:\/\/127\.0\.0\.1:\d+\/a, not .*\/b: /);
    const byObject = await call({
      url: `${site.origin}/b`,
      min_interval_ms: 0,
      compare_to: first as unknown as Record<string, unknown>,
    });
    assert.equal((byObject.structuredContent as Compared).comparison.value.against_target, `${site.origin}/a`);
  } finally {
    await site.close();
  }
});

test("re-audit: compare_to by report id or report object gives fixed, new and persisting", async () => {
  let fixed = false;
  const site = await serveSite((req, res) => {
    if (req.url === "/robots.txt") return void res.writeHead(404).end();
    if (req.url === "/gone" && !fixed) return void res.writeHead(404).end();
    const title =
      req.url === "/"
        ? "<title>Home page with a reasonable title length</title>"
        : fixed
          ? ""
          : "<title>Gone page</title>";
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<html lang="en"><head>${title}</head><body><h1>x</h1><a href="/gone">gone</a></body></html>`);
  });
  try {
    const first = await call({ url: `${site.origin}/`, min_interval_ms: 0 });
    const firstReport = first.structuredContent as { report_id: string };
    fixed = true;
    const second = await call({
      url: `${site.origin}/`,
      min_interval_ms: 0,
      compare_to: firstReport.report_id,
    });
    const comparison = (
      second.structuredContent as {
        comparison: {
          value: {
            fixed: { items: { check_id: string }[] };
            new: { items: { check_id: string }[] };
            persisting: { count: number };
          };
          provenance: { kind: string };
        };
      }
    ).comparison;
    assert.equal(comparison.provenance.kind, "derived");
    assert.ok(comparison.value.fixed.items.some((i) => i.check_id === "broken-internal-link"));
    assert.ok(comparison.value.new.items.some((i) => i.check_id === "title-missing"));
    assert.ok(comparison.value.persisting.count > 0);
    assert.match(JSON.stringify(second.content), /Compared with audit-.*fixed, .* new, .* persisting/);
    const byObject = await call({
      url: `${site.origin}/`,
      min_interval_ms: 0,
      compare_to: first.structuredContent as Record<string, unknown>,
    });
    assert.match(JSON.stringify(byObject.structuredContent), /"against":"audit-/);
    const byConcise = (
      byObject.structuredContent as {
        comparison: { value: { new: { items: { check_id: string; url: string }[] } } };
      }
    ).comparison.value;
    assert.ok(
      byConcise.new.items.some((i) => i.check_id === "title-missing"),
      "a check absent before is new",
    );
    // A check the concise object lists among `findings` (a count, no URLs) cannot show a URL was
    // absent; one its top fixes list with every URL can.
    const concise = first.structuredContent as {
      findings: { value: Record<string, Record<string, number>> };
      top_fixes: { check_id: string; urls_affected: number; examples: unknown[] }[];
    };
    const countedOnly = new Set(Object.values(concise.findings.value).flatMap((checks) => Object.keys(checks)));
    const listed = new Set(concise.top_fixes.filter((f) => f.examples.length === f.urls_affected).map((f) => f.check_id));
    for (const item of byConcise.new.items)
      assert.ok(!countedOnly.has(item.check_id) || listed.has(item.check_id), `${item.check_id} ${item.url} called new`);
    assert.ok(
      byConcise.new.items.some((i) => i.check_id === "canonical-missing" && i.url.endsWith("/gone")),
      "the concise object listed every canonical-missing URL (as paths), so /gone's is new",
    );
  } finally {
    await site.close();
  }
  assert.ok(readdirSync(dir).length <= 3, "the file store keeps the newest reports only");
  assert.match(logged.join("\n"), /audit audit-/);
});

test("memory report store: bounds its size", async () => {
  const memory = memoryReportStore(2);
  const report = { version: 1 } as unknown as Parameters<typeof memory.save>[0];
  const ids = [await memory.save(report), await memory.save(report), await memory.save(report)];
  assert.equal(await memory.load(ids[0] as string), undefined);
  assert.equal((await memory.load(ids[2] as string))?.id, ids[2]);
});

test("drill-down: report_id + check pages through every URL of a check, report_id + url shows one page; no new crawl", async () => {
  const site = await serveSite((req, res) => {
    if (req.url === "/robots.txt") return void res.writeHead(404).end();
    const i = Number(/^\/p\/(\d+)$/.exec(req.url ?? "")?.[1] ?? 0);
    const links = i === 0 ? Array.from({ length: 120 }, (_, n) => `<a href="/p/${n + 1}">page ${n + 1}</a>`).join("") : "";
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<html lang="en"><head>${i === 0 ? "<title>The home page of a site with untitled pages</title>" : ""}</head><body><h1>x</h1>${links}</body></html>`);
  });
  try {
    const audit = await call({ url: `${site.origin}/`, min_interval_ms: 0 });
    const id = (audit.structuredContent as { report_id: string }).report_id;
    assert.match(JSON.stringify(audit.content), /Every URL of a check: seo_audit_site \{report_id, check\}/);
    const requests = site.paths().length;
    type Page = { items: { value: { url: string; evidence: string }[] }; next_cursor?: string; check: { count: number } };
    const seen: string[] = [];
    let cursor: string | undefined;
    let calls = 0;
    do {
      const answer = await call({ report_id: id, check: "title-missing", ...(cursor ? { cursor } : {}) });
      assert.equal(answer.isError, undefined, JSON.stringify(answer.content));
      const page = answer.structuredContent as Page;
      assert.equal(page.check.count, 120);
      assert.ok(page.items.value.length <= 50);
      seen.push(...page.items.value.map((i) => i.url));
      cursor = page.next_cursor;
      calls++;
    } while (cursor);
    assert.equal(calls, 3);
    assert.deepEqual([...new Set(seen)].sort(), Array.from({ length: 120 }, (_, n) => `/p/${n + 1}`).sort());
    const one = await call({ report_id: id, url: "/p/7" });
    const issues = (one.structuredContent as { issues: { value: { check_id: string }[] } }).issues.value;
    assert.ok(issues.some((i) => i.check_id === "title-missing"));
    assert.match(JSON.stringify(one.content), /\/p\/7 in report audit-.*status 200/);
    const again = await call({ report_id: id });
    assert.equal((again.structuredContent as { report_id: string }).report_id, id);
    assert.equal(site.paths().length, requests, "answered from the stored report");
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ report_id: id, check: "no-such-check" }, /INVALID_ARGUMENTS: .*no-such-check.* is not a check id; this report.s checks: .*title-missing/],
      [{ report_id: id, check: "title-missing", cursor: "x" }, /INVALID_ARGUMENTS: cursor .*x.* is not one this tool gave/],
      [{ report_id: id, url: "/not-crawled" }, /INVALID_ARGUMENTS: \/not-crawled is not a page of report/],
      [{ check: "title-missing" }, /INVALID_ARGUMENTS: check and cursor read a stored report: pass report_id/],
      [{}, /INVALID_ARGUMENTS: pass url \(the site to audit\), or report_id/],
      [{ report_id: "audit-20200101T000000-zz", check: "title-missing" }, /REPORT_NOT_FOUND/],
    ];
    for (const [args, pattern] of cases) {
      const result = await call(args);
      assert.equal(result.isError, true, JSON.stringify(args));
      assert.match(JSON.stringify(result.content), pattern);
    }
  } finally {
    await site.close();
  }
});
