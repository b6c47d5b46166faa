/**
 * The Node shim's page parser: pages parsed on a worker thread give exactly the facts (and so
 * the audit) parsing on the crawl's own thread gives, however the text is cut; a worker that
 * cannot start or dies fails only the pages it held, and the built CLI uses the worker (and
 * says so when it cannot).
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import fc from "fast-check";
import { nodeHttpRequest } from "../../../../shim/node/seo/crawl-request.ts";
import { pageParser, RemoteParsing, workerEndpoint } from "../../../../shim/node/seo/page-parser.ts";
import { handleAuditRequest } from "../../../../src/seo/audit/audit-request.ts";
import { extractHtml } from "../../../../src/seo/audit/extract.ts";
import type { PageParser } from "../../../../src/seo/audit/extract.ts";
import type { AuditReport } from "../../../../src/seo/audit/report.ts";
import { memoryReportStore } from "../../../../src/seo/audit/report-store.ts";
import type { TestSite } from "../../../seo/crawl/site-server.ts";
import { docsPages, serveDocsSite } from "../../../seo/fakes/docs-site.ts";
import { generatedPage } from "../../../seo/fakes/generated-site.ts";
import { BUNDLE, ensureBundle } from "../../../seo/fakes/stdio.ts";

const run = promisify(execFile);
const http = nodeHttpRequest(16);
const scratch = mkdtempSync(join(tmpdir(), "seo-page-parser-"));
let site: TestSite;
let pages: string[];

/** Markup where facts hinge on state across cuts: regions, captures, entities, scripts, odd bytes. */
const RICH = `<!doctype html><html lang="fr"><head><meta charset="utf-8">
<title>Café &amp; crème — 😀 漢字</title><meta name="description" content="Un café &eacute;tonnant">
<meta name="robots" content="index, FOLLOW"><meta http-equiv="refresh" content="5; url=/next">
<link rel="canonical" href="/café"><link rel="sitemap" href="/s.xml"><base href="/base/">
<script type="application/ld+json">{"@type":["WebPage","Thing"]}</script><script type="application/ld+json">{bad</script>
<script>if (x) location.replace("/moved")</script></head>
<body><nav><a href="/menu">Menu words</a></nav><main><h1>Le  café</h1><h2>b</h2>
<p>Mots du caf&eacute; don&rsquo;t split: naïve \ufffd façade, 漢字 テスト.<!-- c -->after</p>
<a href="/a?x=1&amp;y=2" rel="nofollow">read more</a><a href="javascript:void(0)">js</a><a>no href</a>
<img src="/i.png"><img src="/j.png" alt=""><pre>code</pre></main><footer>footer</footer></body></html>`;

before(async () => {
  site = await serveDocsSite();
  const paths = docsPages().map((p) => p.path);
  pages = await Promise.all(paths.slice(0, 40).map(async (path) => (await fetch(`${site.origin}${path}`)).text()));
  pages.push(RICH, generatedPage(5, 1000, site.origin).toString(), "", "<p>", "plain words without any markup");
});
after(async () => {
  await site.close();
  http.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The facts of `text` parsed on the worker, written in pieces cut at `cuts`. */
async function onWorker(parser: RemoteParsing, text: string, cuts: number[] = []) {
  const sink = parser.sink();
  assert.ok(sink, "a worker sink");
  let from = 0;
  for (const to of [...new Set(cuts)].sort((a, b) => a - b)) {
    sink.write(text.slice(from, to));
    from = to;
  }
  sink.write(text.slice(from));
  await sink.end();
  return sink.facts;
}

/** One audit's parsing as the shipped factory makes it, with the reasons it gave up, if any. */
function workerParsing(): { parsing: RemoteParsing; failures: string[] } {
  const failures: string[] = [];
  const parsing = (pageParser((reason) => failures.push(reason)) as PageParser)() as RemoteParsing;
  return { parsing, failures };
}

test("the worker's facts equal this thread's for every page, whole and cut anywhere", async () => {
  const { parsing, failures } = workerParsing();
  try {
    const whole = await Promise.all(pages.map((text) => onWorker(parsing, text)));
    whole.forEach((facts, i) => assert.deepEqual(facts, extractHtml(pages[i] as string), `page ${i}`));
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: pages.length - 1 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (index, raw) => {
          const text = pages[index] as string;
          const cuts = raw.map((n) => n % (text.length + 1));
          assert.deepEqual(await onWorker(parsing, text, cuts), extractHtml(text));
        },
      ),
      { numRuns: 150 },
    );
    assert.deepEqual(failures, []);
  } finally {
    parsing.close();
  }
});

async function audit(pageParser?: PageParser): Promise<AuditReport> {
  // The tool's largest time bounds: two audits are compared, so neither may be cut short by a
  // loaded machine (the defaults, 60 s and 15 s, are for an agent waiting on an answer).
  const { report } = await handleAuditRequest(
    { url: `${site.origin}/docs/`, max_seconds: 300, timeout_ms: 30_000 },
    {
      fetch,
      request: http.request,
      ...(pageParser ? { pageParser } : {}),
      now: () => new Date(0),
      reports: memoryReportStore(),
    },
  );
  return report;
}

/**
 * Findings measured on the clock: time to first byte. A loaded machine can make some pages slow
 * in one audit and not in the other, which says nothing about where the pages were parsed.
 */
const TIMED = new Set(["slow-response"]);
const untimed = (id: string) => !TIMED.has(id);
const hasTimed = (...reports: { findings: { id: string }[] }[]) => reports.some((r) => r.findings.some((f) => !untimed(f.id)));

/**
 * What an audit found, without what differs from run to run (ids, timings, response times, crawl order). When
 * either audit has a timed finding (`timed`), what it feeds into (the scores, each page's issue
 * count) is left out too; the findings themselves are still compared one by one.
 */
function comparable(report: AuditReport, timed: boolean) {
  const byUrl = (a: { url: string }, b: { url: string }) => a.url.localeCompare(b.url);
  return {
    stats: { ...report.stats, duration_ms: 0 },
    scores: timed ? undefined : report.scores,
    findings: report.findings.filter((f) => untimed(f.id)).map((f) => [f.id, f.count]),
    affected: Object.entries(report.affected).filter(([id]) => untimed(id)).map(([id, urls]) => [id, [...urls].sort()]),
    pages: [...report.pages].sort(byUrl).map(({ ttfb_ms: _, ...page }) => (timed ? { ...page, issues: 0 } : page)),
  };
}

test("an audit parsed on the worker reports exactly what one parsed on the crawl's thread reports", async () => {
  const made: { parsing: RemoteParsing; sinks: number }[] = [];
  const counted: PageParser = () => {
    const { parsing } = workerParsing();
    const record = { parsing, sinks: 0 };
    made.push(record);
    const sink = () => {
      const made = parsing.sink();
      if (made) record.sinks++;
      return made;
    };
    return { sink, close: () => parsing.close() };
  };
  const [here, there] = [await audit(), await audit(counted)];
  assert.ok(there.findings.length > 5 && there.stats.html_pages > 40);
  const timed = hasTimed(here, there);
  assert.deepEqual(comparable(there, timed), comparable(here, timed));
  assert.equal(made.length, 1, "one worker per audit");
  assert.equal(made[0]?.sinks, there.stats.html_pages, "every page went to the worker");
  assert.equal(made[0]?.parsing.sink(), undefined, "stopped when the crawl ended");
});

test("a worker that dies fails the pages it held with a clear error; later pages parse on the crawl's thread", async () => {
  const file = join(scratch, "dies.mjs");
  writeFileSync(file, `import { parentPort } from "node:worker_threads";\nparentPort.on("message", () => { throw new Error("boom"); });\n`);
  const failures: string[] = [];
  const parsing = new RemoteParsing(workerEndpoint(pathToFileURL(file)), (reason) => failures.push(reason));
  const sink = parsing.sink();
  assert.ok(sink);
  sink.write("<title>t</title>");
  await assert.rejects(async () => sink.end(), /page parser stopped: boom/);
  assert.equal(parsing.sink(), undefined);
  parsing.close();
  assert.deepEqual(failures, ["boom"], "heard once, and closing is not a failure");
});

test("a missing worker file means the crawl's thread parses, and says why at once", () => {
  const failures: string[] = [];
  const parsing = new RemoteParsing(undefined, (reason) => failures.push(reason));
  assert.equal(parsing.sink(), undefined);
  assert.deepEqual(failures, ["the page worker's file is missing"]);
});

test("an idle worker does not hold the process open", async () => {
  const script = join(scratch, "idle.mts");
  const shim = pathToFileURL(join(process.cwd(), "shim/node/seo/page-parser.ts")).href;
  writeFileSync(
    script,
    `import { pageParser } from ${JSON.stringify(shim)};
const sink = pageParser()().sink();
sink.write("<main><p>one two three four</p></main>");
await sink.end();
console.log(sink.facts.wordCount);\n`,
  );
  // A process held open would never exit: the limit only has to end the test, not time it (the
  // child compiles the shim with tsx first, which a loaded machine slows).
  const { stdout } = await run(process.execPath, ["--import", "tsx", script], { timeout: 120_000 });
  assert.equal(stdout.trim(), "4");
});

async function cliAudit(bin: string) {
  const env = { ...process.env, SEO_CACHE_DIR: join(scratch, "cache") };
  const { stdout, stderr } = await run(process.execPath, [bin, "audit", `${site.origin}/docs/`, "--json", "--detailed"], { env, timeout: 300_000 });
  return { report: JSON.parse(stdout) as { findings: { id: string; count: number }[] }, stderr };
}

test("the built CLI crawls on its audit thread and parses on the main thread; without their files it says so and audits the same", async () => {
  ensureBundle();
  const built = await cliAudit(BUNDLE);
  assert.doesNotMatch(built.stderr, /main thread|audit's thread/);
  const copy = join(scratch, "dist");
  const wanted = (from: string) => from === "dist" || /^dist\/(seo\.js|seo-chunks)/.test(from);
  cpSync("dist", copy, { recursive: true, filter: wanted });
  const fallback = await cliAudit(join(copy, "seo.js"));
  assert.match(fallback.stderr, /audit: the crawl runs on the main thread \(the audit thread's file is missing\)/);
  assert.match(fallback.stderr, /audit: pages are parsed on the main thread \(the page worker's file is missing\)/);
  const counts = (r: typeof built.report) => r.findings.filter((f) => untimed(f.id)).map((f) => `${f.id} ${f.count}`).sort();
  assert.ok(built.report.findings.length > 5);
  assert.deepEqual(counts(fallback.report), counts(built.report));
});
