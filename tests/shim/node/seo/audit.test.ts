/**
 * The built `seo-audit-mcp audit` runs its crawl on a thread of its own (shim/node/seo/audit.ts):
 * what the user sees must be what the command prints on the main thread: output in order, exit
 * codes, failure messages, and Ctrl-C stopping the crawl with a report of what was done.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { serveSite, type TestSite } from "../../../seo/crawl/site-server.ts";
import { generatedPage, indexOf } from "../../../seo/fakes/generated-site.ts";
import { BUNDLE, ensureBundle } from "../../../seo/fakes/stdio.ts";

const PAGES = 400;
const cache = mkdtempSync(join(tmpdir(), "seo-audit-thread-"));
let site: TestSite;

before(async () => {
  ensureBundle();
  // Every page answers after 50 ms: 400 pages take a few seconds at 8 in parallel.
  site = await serveSite(async (req, res, origin) => {
    await new Promise((done) => setTimeout(done, 50));
    const i = indexOf(req.url ?? "/", PAGES);
    if (req.url === "/robots.txt") return void res.end("User-agent: *\nAllow: /\n");
    if (i < 0) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(generatedPage(i, PAGES, origin));
  });
});
after(async () => {
  await site.close();
  rmSync(cache, { recursive: true, force: true });
});

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function audit(args: string[], interruptAfterMs?: number): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BUNDLE, "audit", ...args], {
      env: { PATH: process.env.PATH ?? "", SEO_CACHE_DIR: cache },
    });
    let stdout = "";
    let stderr = "";
    let interrupting = false;
    child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      // One Ctrl-C once the crawl is under way (a second one ends the process, as in a terminal).
      if (interruptAfterMs === undefined || interrupting || !/crawling: /.test(stderr)) return;
      interrupting = true;
      setTimeout(() => child.kill("SIGINT"), interruptAfterMs);
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", fail);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

test("on its thread, the audit prints the report on stdout and its progress on stderr, exit 0", async () => {
  const ran = await audit([`${site.origin}/`, "--json", "--max-pages", "40"]);
  assert.equal(ran.code, 0, ran.stderr);
  const report = JSON.parse(ran.stdout) as { target: string; report_id: string };
  assert.equal(report.target, `${site.origin}/`);
  assert.match(ran.stderr, /^auditing http:\/\/127\.0\.0\.1:\d+\/ \(robots\.txt honoured; Ctrl-C stops\)\n/);
  assert.match(ran.stderr, /done: 40 pages \(bounds: 40 pages/);
  assert.doesNotMatch(ran.stderr, /main thread|audit's thread/);
});

test("on its thread, bad usage exits 2 and a failed audit exits 1, each with its message", async () => {
  const usage = await audit(["--max-pages", "nope", `${site.origin}/`]);
  assert.equal(usage.code, 2);
  assert.equal(usage.stdout, "");
  assert.match(usage.stderr, /max-pages/);
  const failed = await audit(["notaurl"]);
  assert.equal(failed.code, 1);
  assert.match(failed.stderr, /not an absolute http\(s\) URL/);
});

test("Ctrl-C reaches the audit thread: the crawl stops early, the report says it was cancelled, exit 130", async () => {
  const started = performance.now();
  const ran = await audit([`${site.origin}/`, "--json"], 300);
  assert.ok(performance.now() - started < 30_000);
  assert.equal(ran.code, 130, ran.stderr);
  assert.match(ran.stderr, /^audit: cancelled by Ctrl-C/m);
  const report = JSON.parse(ran.stdout) as { pages_crawled?: number; truncation_reasons?: string[]; cuts?: { bound: string }[] };
  assert.match(JSON.stringify(report), /cancelled/);
  assert.ok(site.paths().filter((p) => p.startsWith("/p/")).length < PAGES - 1, "not every page was fetched");
});

const QUICK = 200;

interface DetailedReport {
  id: string;
  stats: { pages_crawled: number; html_pages: number };
  findings: { id: string; count: number }[];
  pages: { url: string; status: number }[];
}

/** What two crawls of the same site in different orders (8 in parallel) agree on. */
const outcome = (report: DetailedReport) => ({
  stats: [report.stats.pages_crawled, report.stats.html_pages],
  findings: Object.fromEntries(report.findings.map((f) => [f.id, f.count])),
  pages: report.pages.map((p) => `${p.url} ${p.status}`).sort(),
});

test("Ctrl-C on a resumable crawl names its report id; --resume <id> finishes it, fetching again only the pages in flight, with the report of a crawl never stopped", async () => {
  // A smaller site answering after 20 ms: three crawls of it stay cheap.
  const quick = await serveSite(async (req, res, origin) => {
    await new Promise((done) => setTimeout(done, 20));
    const i = indexOf(req.url ?? "/", QUICK);
    if (req.url === "/robots.txt") return void res.end("User-agent: *\nAllow: /\n");
    if (i < 0) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(generatedPage(i, QUICK, origin));
  });
  after(() => quick.close());
  const stopped = await audit([`${quick.origin}/`, "--json", "--detailed", "--resumable"], 100);
  assert.equal(stopped.code, 130, stopped.stderr);
  const id = /^report id (audit-\S+); if interrupted, continue with seo-audit-mcp audit --resume \1$/m.exec(stopped.stderr)?.[1];
  assert.ok(id, stopped.stderr);
  assert.match(stopped.stderr, new RegExp(`^audit: cancelled by Ctrl-C after \\d+ page\\(s\\); the report above is partial; continue it with seo-audit-mcp audit --resume ${id} `, "m"));

  const resumed = await audit(["--resume", id, "--json", "--detailed"]);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, new RegExp(`^resuming report id ${id}: \\d+ URL\\(s\\) fetched before are not fetched again`, "m"));
  const fetched = quick.paths().filter((p) => p.startsWith("/p/"));
  // Only the pages in flight when Ctrl-C came (8 at most, as many as run in parallel) are asked for again.
  assert.equal(new Set(fetched).size, QUICK - 1);
  assert.ok(fetched.length - (QUICK - 1) <= 8, `${fetched.length - (QUICK - 1)} pages fetched twice`);
  assert.deepEqual(readdirSync(join(cache, "reports")).filter((f) => f.startsWith("crawl-")), [], "the finished crawl's state is removed");

  const whole = await audit([`${quick.origin}/`, "--json", "--detailed"]);
  const report = JSON.parse(resumed.stdout) as DetailedReport;
  assert.equal(report.id, id);
  assert.deepEqual(outcome(report), outcome(JSON.parse(whole.stdout) as DetailedReport));
});
