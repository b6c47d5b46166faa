/**
 * `audit --resume <report id>`: a crawl interrupted part-way and resumed from its SQLite state
 * reports what the same crawl reports when it is never interrupted, without fetching a page twice;
 * the state's errors (unknown id, another version or other options, locked, damaged) are one line each.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { after, before, test } from "node:test";
import { type AuditRequest, type AuditRequestDeps, handleAuditRequest } from "../../../src/seo/audit/audit-request.ts";
import { memoryReportStore } from "../../../src/seo/audit/report-store.ts";
import type { AuditReport } from "../../../src/seo/audit/report.ts";
import { resumedRequest } from "../../../src/seo/cli/resume.ts";
import { ApiError } from "../../../src/shared/errors.ts";
import { sqliteCrawlStates } from "../../../shim/node/seo/page-facts-sqlite.ts";
import { generatedPage, indexOf } from "../fakes/generated-site.ts";
import { serveSite, type TestSite } from "../crawl/site-server.ts";

const PAGES = 150;
const dir = mkdtempSync(join(tmpdir(), "seo-resume-"));
const states = sqliteCrawlStates(dir);
let site: TestSite;

/** The generated site with problems to find: pages without a title, broken links, a redirect. */
function page(i: number, origin: string): string {
  let html = generatedPage(i, PAGES, origin).toString();
  if (i % 13 === 0) html = html.replace(/<title>.*?<\/title>/, "");
  if (i % 11 === 0) html = html.replace("<main>", `<main><a href="/missing/${i % 4}">gone</a><a href="/old">old</a>`);
  return html;
}

before(async () => {
  site = await serveSite(async (req, res, origin) => {
    const path = req.url ?? "/";
    if (path === "/robots.txt") return void res.end("User-agent: *\nAllow: /\n");
    if (path === "/old") return void res.writeHead(301, { location: "/p/5" }).end();
    const i = indexOf(path, PAGES);
    if (i < 0) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page(i, origin));
  });
});
after(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The report without what differs between two runs of the same crawl (times, response times). */
function comparable(report: AuditReport): unknown {
  const pages = report.pages.map(({ ttfb_ms: _, ...row }) => row);
  const charts = { ...report.charts, response: {} };
  const { id: _id, ...rest } = report;
  return { ...rest, started_at: "", finished_at: "", stats: { ...rest.stats, duration_ms: 0, requests: 0 }, pages, charts };
}

// One at a time: the crawl order, and so every list in the report, is the same on each run.
const request = (): AuditRequest => ({ url: `${site.origin}/`, max_pages: 500, concurrency: 1 });
const deps = (extra: Partial<AuditRequestDeps> = {}): AuditRequestDeps => ({
  fetch,
  now: () => new Date(0),
  reports: memoryReportStore(),
  frontEnd: "cli",
  crawlStates: states,
  resumable: true,
  ...extra,
});

/** Page paths the site served since `from` (robots.txt and sitemaps apart). */
const servedPages = (from: number) => site.paths().slice(from).filter((p) => p === "/" || p.startsWith("/p/"));

test("a crawl interrupted after 60 pages and resumed reports what the uninterrupted crawl reports, fetching no page twice", async () => {
  const whole = (await handleAuditRequest(request(), deps())).report;
  assert.ok(whole.stats.pages_crawled > PAGES, "every page, the broken links and /old");
  assert.ok(["title-missing", "broken-internal-link"].every((id) => whole.findings.some((f) => f.id === id)));
  assert.deepEqual(readdirSync(dir), [], "a finished crawl removes its state");

  const stop = new AbortController();
  let id = "";
  const before = site.paths().length;
  const stopped = await handleAuditRequest(
    request(),
    deps({
      signal: stop.signal,
      onResumable: (given) => void (id = given),
      onProgress: (p) => void (p.pages >= 60 && stop.abort()),
    }),
  );
  assert.ok(stopped.report.truncation_reasons.includes("cancelled"));
  assert.equal(stopped.report.id, id, "the partial report is stored under the id the crawl announced");
  assert.ok(existsSync(join(dir, `crawl-${id}.sqlite`)), "Ctrl-C keeps the state");
  const first = servedPages(before);

  const resumed = await states.resume(id);
  const recorded = resumed.recorded;
  assert.ok(recorded >= 60);
  let announced = -1;
  const middle = site.paths().length;
  const reports = memoryReportStore();
  const { report } = await handleAuditRequest(resumedRequest({}, resumed), deps({ resumed, reports, onResumable: (_, n) => void (announced = n) }));
  const second = servedPages(middle);
  assert.equal(announced, recorded);
  assert.equal(report.id, id);
  assert.deepEqual(comparable(report), comparable(whole));
  assert.equal(first.length + second.length, PAGES, "no page fetched twice");
  assert.deepEqual(readdirSync(dir), [], "the resumed crawl, finished, removes its state");
  assert.equal((await reports.load(id))?.stats.pages_crawled, whole.stats.pages_crawled);
});

/** A state left as an interrupted crawl leaves it: created, a page recorded, closed and kept. */
async function interrupted(request: Record<string, unknown>): Promise<string> {
  const id = `audit-20260101T000000-${Math.random().toString(36).slice(2, 8)}`;
  const state = await states.create(id, request);
  state.record({ url: "http://x.test/", finalUrl: "http://x.test/", status: 200, headers: [["content-type", "text/html"]], redirects: [], body: "", facts: undefined, truncated: false, bytes: 0, timingMs: 1, ttfbMs: 1, error: undefined });
  state.close(true);
  return id;
}

const failsWith = (code: string, pattern: RegExp) => (err: unknown) => {
  assert.ok(err instanceof ApiError, String(err));
  assert.equal(err.code, code);
  assert.match(err.message, pattern);
  assert.match(err.message, /; /, "says what to do");
  assert.ok(!err.message.includes("\n"));
  return true;
};

test("the state store: what a kept state holds, its lock, and the errors of each state that cannot be resumed", async () => {
  const id = await interrupted({ url: "http://x.test/", max_pages: 200 });
  const state = await states.resume(id);
  assert.equal(state.recorded, 1);
  assert.deepEqual(state.request, { url: "http://x.test/", max_pages: 200 });
  assert.deepEqual(state.replay("http://x.test/")?.headers, [["content-type", "text/html"]]);
  assert.equal(state.replay("http://x.test/other"), undefined);
  await assert.rejects(states.resume(id), failsWith("RESUME_LOCKED", /open in another running audit.*--resume/));
  assert.throws(() => resumedRequest({ max_pages: 300 }, state), failsWith("RESUME_MISMATCH", /--max-pages 200, and this command line gives 300; run audit --resume .* without --max-pages/));
  assert.throws(() => resumedRequest({ url: "http://y.test/" }, state), failsWith("RESUME_MISMATCH", /the URL "http:\/\/x\.test\/"/));
  assert.deepEqual(resumedRequest({ url: "HTTP://x.test", max_pages: 200, max_seconds: 9 }, state), { url: "http://x.test/", max_pages: 200, max_seconds: 9 });
  state.close(true);

  await assert.rejects(states.resume("audit-20260101T000000-nothere"), failsWith("RESUME_NOT_FOUND", /no interrupted crawl .*run the audit again without --resume/));
  await assert.rejects(states.resume("audit-20260101T000000-a/b"), failsWith("RESUME_NOT_FOUND", /no interrupted crawl/));

  const old = new DatabaseSync(join(dir, `crawl-${id}.sqlite`));
  old.exec("UPDATE meta SET value = '0.0.1' WHERE key = 'version'");
  old.close();
  await assert.rejects(states.resume(id), failsWith("RESUME_MISMATCH", /saved by seo-audit-mcp 0\.0\.1/));

  const damaged = await interrupted({});
  writeFileSync(join(dir, `crawl-${damaged}.sqlite`), "not a database ".repeat(512));
  await assert.rejects(states.resume(damaged), failsWith("RESUME_CORRUPT", /cannot be read .*run the audit again without --resume/));
  const empty = await interrupted({});
  const wiped = new DatabaseSync(join(dir, `crawl-${empty}.sqlite`));
  wiped.exec("DELETE FROM meta");
  wiped.close();
  await assert.rejects(states.resume(empty), failsWith("RESUME_CORRUPT", /no crawl state in it/));
  for (const name of readdirSync(dir)) rmSync(join(dir, name));
});

test("rows committed before a crash are there on resuming; rows not yet committed are not", async () => {
  const id = `audit-20260101T000000-crash`;
  const state = await states.create(id, {});
  const record = (url: string) => ({ url, finalUrl: url, status: 200, headers: [], redirects: [], body: "", facts: undefined, truncated: false, bytes: 0, timingMs: 1, ttfbMs: undefined, error: undefined });
  state.record(record("http://x.test/a"));
  state.set("http://x.test/a", { url: "http://x.test/a" } as never);
  // values() commits, as the report does; the row after it is in an open transaction when the "crash" comes.
  assert.equal([...state.values()].length, 1);
  state.record(record("http://x.test/b"));
  // A killed process: the file is copied as it is on disk (the WAL with it), without closing.
  const copy = `audit-20260101T000000-copy`;
  for (const suffix of ["", "-wal"])
    if (existsSync(join(dir, `crawl-${id}.sqlite${suffix}`)))
      writeFileSync(join(dir, `crawl-${copy}.sqlite${suffix}`), new Uint8Array(await import("node:fs/promises").then((fs) => fs.readFile(join(dir, `crawl-${id}.sqlite${suffix}`)))));
  state.close();
  const resumed = await states.resume(copy);
  assert.equal(resumed.recorded, 1);
  assert.ok(resumed.replay("http://x.test/a"));
  assert.equal(resumed.replay("http://x.test/b"), undefined);
  assert.equal(resumed.size, 0, "page summaries are refilled by the replay");
  resumed.close();
  assert.deepEqual(readdirSync(dir), []);
});

test("a resumed crawl that fails (its site down) keeps its state for the next --resume, unlocked", async () => {
  const id = await interrupted({ url: "http://127.0.0.1:9/" });
  const state = await states.resume(id);
  await assert.rejects(handleAuditRequest(resumedRequest({}, state), deps({ resumed: state })), (err: unknown) => err instanceof ApiError && err.code === "UNREACHABLE");
  const again = await states.resume(id);
  assert.equal(again.recorded, 1);
  again.close();
  assert.deepEqual(readdirSync(dir), []);
});
