import assert from "node:assert/strict";
import { CHECKS } from "../../../src/seo/audit/catalogue.ts";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { nodeHttpRequest } from "../../../shim/node/seo/crawl-request.ts";
import { sqliteCrawlStates } from "../../../shim/node/seo/page-facts-sqlite.ts";
import { memoryReportStore } from "../../../src/seo/audit/report-store.ts";
import { auditCommand } from "../../../src/seo/cli/audit.ts";
import { ApiError } from "../../../src/shared/errors.ts";
import { serveFixtureSite, serveSite, type TestSite } from "../crawl/site-server.ts";

let site: TestSite;
const dir = mkdtempSync(join(tmpdir(), "seo-cli-"));
const reports = memoryReportStore();

before(async () => {
  site = await serveFixtureSite("problems");
});
after(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

function io(isTTY = false) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: {
      stdout: (s: string) => void out.push(s),
      stderr: (s: string) => void err.push(s),
      fetch,
      reports,
      now: () => new Date(),
      isTTY,
      readText: (path: string) => readFile(path, "utf8"),
    },
  };
}

test("audit <url> prints the readable report on stdout and progress on stderr", async () => {
  const c = io(true);
  const http = nodeHttpRequest(4);
  try {
    const code = await auditCommand(
      [`${site.origin}/`, "--min-interval-ms", "0", "--concurrency=4", "--max-pages", "60", "--detailed"],
      { ...c.io, request: http.request },
    );
    assert.equal(code, 0);
  } finally {
    http.close();
  }
  const stdout = c.out.join("");
  assert.match(stdout, new RegExp(`^SEO audit of ${site.origin}/: \\d+ pages crawled`));
  assert.match(stdout, /Score \d+\/100 \[derived\]/);
  // critical first; a person reads check titles as well as ids, examples as paths
  assert.match(stdout, /1\. \[critical\] Page answers 5xx \(http-5xx\): 1 URL\(s\)\. .*\n\s+e\.g\. \/error: status 500/);
  assert.match(stdout, /\[high\] Internal link to a page that answers 4xx \(broken-internal-link\)/);
  assert.match(stdout, /\[rule of thumb\]/);
  assert.match(c.err.join(""), /auditing .*robots\.txt honoured/);
  assert.match(c.err.join(""), /done: \d+ pages \(bounds: .*\), report id audit-/);
});

test("--json writes a report that --compare accepts as a file; --detailed keeps every URL", async () => {
  const first = io();
  assert.equal(
    await auditCommand(
      [`${site.origin}/`, "--min-interval-ms=0", "--json", "--detailed", "--no-resources"],
      first.io,
    ),
    0,
  );
  const report = JSON.parse(first.out.join("")) as {
    affected: Record<string, string[]>;
    stats: { resources_checked: number; sitemap_urls: number };
  };
  assert.ok(report.affected["broken-internal-link"]?.length);
  assert.equal(report.stats.resources_checked, 0);
  assert.equal(report.stats.sitemap_urls, 8);
  const file = join(dir, "before.json");
  writeFileSync(file, first.out.join(""));
  const second = io();
  assert.equal(
    await auditCommand(
      [`${site.origin}/`, "--min-interval-ms=0", "--no-sitemaps", "--compare", file, "--json"],
      second.io,
    ),
    0,
  );
  const compared = JSON.parse(second.out.join("")) as {
    comparison: { value: { fixed: { count: number }; persisting: { count: number } } };
  };
  assert.ok(compared.comparison.value.persisting.count > 0);
  assert.ok(compared.comparison.value.fixed.count > 0, "problems only reachable via the sitemap are gone");
  assert.ok(readFileSync(file, "utf8").length > 0);
});

test("bad usage exits 2 with one line naming the fix; audit failures exit 1; --help and --version exit 0", async () => {
  const cases: [string[], RegExp][] = [
    [[], /a URL is required/],
    [["a", "b"], /one URL only/],
    [["http://x/", "--max-pages"], /--max-pages needs a value/],
    [["http://x/", "--max-pages", "ten"], /needs a whole number/],
    [["http://x/", "--max-pages", "1000001"], /max_pages: /],
    [["http://x/", "--frobnicate"], /unknown option --frobnicate/],
    [["http://x/", "--max-pages", "5", "--max-pages=6"], /--max-pages given more than once/],
    [["http://x/", "--json=yes"], /--json takes no value/],
    [["http://x/", "--compare", join(dir, "missing.json")], /neither a report id nor a readable file/],
  ];
  for (const [args, pattern] of cases) {
    const c = io();
    assert.equal(await auditCommand(args, c.io), 2, args.join(" "));
    assert.match(c.err.join(""), pattern);
    assert.match(c.err.join(""), /^INVALID_USAGE: [^\n]+; [^\n]+\n$/, "one line: CODE: what happened; what to do");
  }
  const notJson = join(dir, "not.json");
  writeFileSync(notJson, "nope");
  const c = io();
  assert.equal(await auditCommand(["http://x/", "--compare", notJson], c.io), 2);
  assert.match(c.err.join(""), /is not JSON/);
  const failed = io();
  assert.equal(await auditCommand(["notaurl"], failed.io), 1);
  assert.match(failed.err.join(""), /INVALID_URL/);
  const help = io();
  assert.equal(await auditCommand(["--help"], help.io), 0);
  assert.match(help.out.join(""), /--max-pages N/);
  const version = io();
  assert.equal(await auditCommand(["http://x/", "--version"], version.io), 0);
  assert.match(version.out.join(""), /^\d+\.\d+\.\d+\n$/);
});

test("--compare with a JSON file that is not a report exits 1 with what to pass, before any crawl", async () => {
  for (const [name, text] of [
    ["null.json", "null"],
    ["array.json", "[1, 2]"],
    ["numbers.json", '{"findings": [1, 2]}'],
  ] as const) {
    const file = join(dir, name);
    writeFileSync(file, text);
    const c = io();
    const requestsBefore = site.paths().length;
    assert.equal(await auditCommand([`${site.origin}/`, "--compare", file], c.io), 1, name);
    assert.match(c.err.join(""), /INVALID_ARGUMENTS: compare_to must be a report id or an earlier audit report/);
    assert.equal(site.paths().length, requestsBefore, `${name}: nothing crawled`);
  }
});

test("--fail-on high exits 1 naming the findings at or above it; --fail-on critical passes a site without a critical one", async () => {
  const failing = io();
  assert.equal(await auditCommand([`${site.origin}/`, "--min-interval-ms=0", "--max-pages", "60", "--fail-on", "high"], failing.io), 1);
  assert.match(failing.err.join(""), /^--fail-on high: failed, \d+ finding\(s\) high or worse: .*broken-internal-link \(high\).*; fix them, or raise --fail-on$/m);
  assert.match(failing.out.join(""), /^SEO audit of /, "the report is still printed");
  // One plain page that answers 200: nothing on it is critical.
  const page = '<!doctype html><html lang="en"><head><title>One page</title></head><body><h1>One page</h1></body></html>';
  const plain = await serveSite((req, res) => {
    if (req.url === "/") res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
    else res.writeHead(404).end();
  });
  try {
    const passing = io();
    const code = await auditCommand([`${plain.origin}/`, "--no-sitemaps", "--json", "--detailed", "--fail-on", "critical"], passing.io);
    const findings = (JSON.parse(passing.out.join("")) as { findings: { severity: string }[] }).findings;
    assert.ok(!findings.some((f) => f.severity === "critical"), "the plain page has no critical finding");
    assert.equal(code, 0, passing.err.join(""));
    assert.match(passing.err.join(""), /^--fail-on critical: passed, no finding is critical or worse$/m);
  } finally {
    await plain.close();
  }
});

test("Ctrl-C (the signal) before the crawl starts exits 130 with the cancellation line and no report", async () => {
  const c = io();
  const controller = new AbortController();
  controller.abort(new Error("interrupted"));
  assert.equal(await auditCommand([`${site.origin}/`], { ...c.io, signal: controller.signal }), 130);
  assert.equal(c.out.join(""), "");
  assert.match(c.err.join(""), /^audit: cancelled by Ctrl-C before any report; run the command again to audit the whole site$/m);
});

test("the text report names the CLI's flags, never the tool's arguments", async () => {
  const c = io();
  assert.equal(await auditCommand([`${site.origin}/`, "--min-interval-ms=0", "--max-pages", "3"], c.io), 0);
  const text = c.out.join("");
  assert.match(text, /TRUNCATED \(.*max_pages.*\): a partial audit; raise the bounds \(--max-pages, --max-depth, --max-seconds\) to see more\./);
  assert.doesNotMatch(text, /response_format|max_seconds or|production_url=/);
});

test("--html that cannot be written is one WRITE_FAILED line after the printed report, exit 1", async () => {
  const failing = io();
  const writeText = () => Promise.reject(new Error("ENOENT: no such file or directory, open '/nope/x.html'"));
  assert.equal(await auditCommand([`${site.origin}/`, "--min-interval-ms=0", "--max-pages", "3", "--html", "/nope/x.html"], { ...failing.io, writeText }), 1);
  assert.match(failing.out.join(""), /^SEO audit of /);
  assert.match(failing.err.at(-1) ?? "", /^WRITE_FAILED: cannot write \/nope\/x\.html: ENOENT: [^\n]*; check that the file's folder exists and is writable, or give the flag another path\n$/);
  const nowhere = io();
  assert.equal(await auditCommand([`${site.origin}/`, "--min-interval-ms=0", "--max-pages", "3", "--html", "x.html"], nowhere.io), 1);
  assert.match(nowhere.err.at(-1) ?? "", /^WRITE_FAILED: --html is not available here \(no file system\); /);
});

test("--budget exits 1 naming the checks over it; --sarif and --junit write what CI systems show inline", async () => {
  const budget = join(dir, "budget.json");
  writeFileSync(budget, JSON.stringify({ "broken-internal-link": 0, "title-missing": 100 }));
  const sarif = join(dir, "audit.sarif");
  const junit = join(dir, "audit.xml");
  const c = io();
  const withFiles = { ...c.io, writeText: (path: string, text: string) => Promise.resolve(writeFileSync(path, text)) };
  const code = await auditCommand(
    [`${site.origin}/`, "--min-interval-ms=0", "--max-pages", "60", "--budget", budget, "--sarif", sarif, "--junit", junit],
    withFiles,
  );
  assert.equal(code, 1);
  assert.match(c.err.join(""), /^--budget: failed, 1 check\(s\) over budget: broken-internal-link \d+ > 0; fix them, or raise the budget$/m);
  const log = JSON.parse(readFileSync(sarif, "utf8")) as {
    version: string;
    runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
  };
  assert.equal(log.version, "2.1.0");
  const broken = log.runs[0]?.results.filter((r) => r.ruleId === "broken-internal-link") ?? [];
  assert.ok(broken.length > 0 && broken.every((r) => r.level === "error"));
  assert.ok(broken.some((r) => r.locations[0]?.physicalLocation.artifactLocation.uri === `${site.origin}/missing`));
  assert.ok(log.runs[0]?.tool.driver.rules.some((r) => r.id === "broken-internal-link"));
  const xml = readFileSync(junit, "utf8");
  assert.match(xml, new RegExp(`^<\\?xml version="1.0" encoding="UTF-8"\\?>\n<testsuites name="seo-audit-mcp" tests="${CHECKS.size}" failures="\\d+">`));
  assert.match(xml, /<testcase classname="seo.links" name="broken-internal-link"><failure type="high" message="Internal link to a page that answers 4xx: \d+ URL\(s\)">/);
  assert.match(xml, /<testcase classname="seo.security" name="mixed-content"\/>/);

  const within = io();
  writeFileSync(budget, JSON.stringify({ "broken-internal-link": 1000 }));
  assert.equal(await auditCommand([`${site.origin}/`, "--min-interval-ms=0", "--max-pages", "60", "--budget", budget], within.io), 0);
  assert.match(within.err.join(""), /^--budget: passed, 1 check\(s\) within budget$/m);

  for (const [content, pattern] of [
    ["not json", /INVALID_USAGE: --budget: .* is not JSON/],
    [JSON.stringify({ "no-such-check": 1 }), /INVALID_USAGE: --budget: "no-such-check" .* is not a check id/],
    [JSON.stringify({ "title-missing": -1 }), /INVALID_USAGE: --budget: title-missing .* must be a whole number/],
  ] as const) {
    writeFileSync(budget, content);
    const bad = io();
    const requests = site.paths().length;
    assert.equal(await auditCommand([`${site.origin}/`, "--budget", budget], bad.io), 2);
    assert.match(bad.err.join(""), pattern);
    assert.equal(site.paths().length, requests, "a bad budget is refused before the crawl");
  }
});

test("--csv DIR writes pages.csv and one CSV per check with every stored URL, guarding cells a spreadsheet would run", async () => {
  const { mkdir } = await import("node:fs/promises");
  const out = join(dir, "csv", "nested");
  const c = io();
  const withFiles = {
    ...c.io,
    writeText: (path: string, text: string) => Promise.resolve(writeFileSync(path, text)),
    makeDir: async (path: string) => void (await mkdir(path, { recursive: true })),
  };
  assert.equal(await auditCommand([`${site.origin}/`, "--min-interval-ms=0", "--max-pages", "60", "--csv", out], withFiles), 0);
  assert.match(c.err.join(""), /^--csv: \d+ file\(s\) in .*nested \(pages\.csv and one per check\)$/m);
  assert.match(c.out.join(""), /Every URL of a check: --csv DIR writes them/);
  const pages = readFileSync(join(out, "pages.csv"), "utf8").split("\r\n");
  assert.equal(pages[0], '"url","status","depth","inlinks","problems","words","in_sitemap","type","title","final_url","ttfb_ms"');
  assert.ok(pages.some((l) => l.startsWith(`"${site.origin}/missing","404"`)));
  const broken = readFileSync(join(out, "broken-internal-link.csv"), "utf8").trim().split("\r\n");
  assert.deepEqual(broken.slice(0, 2).map((l) => l.split(",")[0]), ['"check_id"', '"broken-internal-link"']);
  const { csvCell } = await import("../../../src/seo/cli/csv.ts");
  assert.equal(csvCell('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`);
  assert.equal(csvCell("plain, text"), '"plain, text"');
});

test("--resume: the saved crawl's URL and options are used; another URL or bound is one RESUME_MISMATCH line and the state is kept; bad combinations exit 2", async () => {
  const closed: (boolean | undefined)[] = [];
  const state = Object.assign(new Map(), {
    id: "audit-20260101T000000-abc",
    request: { url: "http://x.test/", max_pages: 5 },
    recorded: 3,
    replay: () => undefined,
    record: () => undefined,
    close: (keep?: boolean) => void closed.push(keep),
  });
  const crawlStates = {
    create: () => Promise.reject(new Error("not here")),
    resume: async (id: string) => {
      if (id === state.id) return state;
      throw new ApiError("RESUME_NOT_FOUND", `no interrupted crawl is saved under report id ${id}; run the audit again without --resume`);
    },
  };
  const mismatch = io();
  assert.equal(await auditCommand(["--resume", state.id, "--max-pages", "7"], { ...mismatch.io, crawlStates }), 1);
  assert.match(mismatch.err.join(""), /^RESUME_MISMATCH: the crawl audit-20260101T000000-abc was started with --max-pages 5, and this command line gives 7; run audit --resume audit-20260101T000000-abc without --max-pages/);
  assert.deepEqual(closed, [true]);
  const unknown = io();
  assert.equal(await auditCommand(["--resume", "audit-20260101T000000-zzz"], { ...unknown.io, crawlStates }), 1);
  assert.match(unknown.err.join(""), /^RESUME_NOT_FOUND: /);
  for (const [args, message] of [
    [["--resumable", "--render", "http://x.test/"], /--resumable does not go with --render/],
    [[], /a URL is required \(or --resume <report id>\)/],
    [["--resume", state.id], /--resume needs the command line's crawl store/],
  ] as const) {
    const c = io();
    assert.equal(await auditCommand([...args], c.io), 2, args.join(" "));
    assert.match(c.err.join(""), message);
  }
});

test("--resumable: stderr names the report id at once and on Ctrl-C; --resume <id> alone finishes the crawl under that id", async () => {
  const crawlStates = sqliteCrawlStates(join(dir, "states"));
  const stop = new AbortController();
  let requests = 0;
  // Ctrl-C once the crawl has fetched a few pages.
  const stopping: typeof fetch = (input, init) => {
    if (++requests === 8) stop.abort();
    return fetch(input, init);
  };
  const first = io();
  const args = ["--min-interval-ms", "0", "--concurrency", "1", "--max-pages", "60", "--json"];
  assert.equal(await auditCommand([`${site.origin}/`, ...args, "--resumable"], { ...first.io, fetch: stopping, crawlStates, signal: stop.signal }), 130);
  const id = /^report id (audit-\S+); if interrupted, continue with seo-audit-mcp audit --resume \1$/m.exec(first.err.join(""))?.[1];
  assert.ok(id, first.err.join(""));
  assert.match(first.err.join(""), new RegExp(`cancelled by Ctrl-C after \\d+ page\\(s\\); the report above is partial; continue it with seo-audit-mcp audit --resume ${id} \\(pages already fetched are not fetched again\\)`));
  const second = io();
  assert.equal(await auditCommand(["--resume", id, "--json"], { ...second.io, crawlStates }), 0, second.err.join(""));
  assert.match(second.err.join(""), new RegExp(`^auditing ${site.origin}/ .*\\nresuming report id ${id}: \\d+ URL\\(s\\) fetched before are not fetched again; if interrupted, continue with`));
  assert.equal((JSON.parse(second.out.join("")) as { report_id: string }).report_id, id);
  assert.deepEqual(readdirSync(join(dir, "states")).filter((f) => f.startsWith("crawl-")), []);
});
