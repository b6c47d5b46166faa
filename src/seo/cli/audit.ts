/**
 * `seo-audit-mcp audit <url> [bounds] [--json] [--fail-on SEVERITY] [--budget FILE] [--sarif FILE]
 * [--junit FILE] [--resumable]`, and `audit [url] --resume <report id>`: the audit for people and CI.
 * Live progress on stderr, the readable report (or JSON) on stdout. Exit 0 on a finished
 * audit, 1 when the audit could not run or `--fail-on` found findings at or above its
 * severity (a CI gate, like linkinator's exit 1 on broken links), 2 on bad usage, 130 when
 * Ctrl-C stopped it (the partial report is still printed). Failures are one stderr line,
 * `CODE: what happened; what to do`.
 * @module
 */
import { v } from "../../../deps.ts";
import { metaFlagOf, optionTable, type ParsedArgs, parseArgs, usage, valueOf } from "../../shared/cli/args.ts";
import { reportFailure } from "../../shared/cli/failure.ts";
import { VERSION } from "../../shared/build-info.ts";
import { type AuditRequest, type CrawlCapability, handleAuditRequest } from "../audit/audit-request.ts";
import { presentReport } from "../audit/present.ts";
import { CLI_WORDS, reportText } from "../audit/report-text.ts";
import type { CrawlState, CrawlStates } from "../audit/page-facts.ts";
import type { AuditReport } from "../audit/report.ts";
import type { Comparison } from "../audit/compare.ts";
import { REPORT_ID } from "../audit/report-store.ts";
import { cliBoundsInput } from "../audit/bounds-input.ts";
import { renderReportHtml } from "../report-html/render.ts";
import type { Budget } from "./ci-formats.ts";
import { budgetExit, type FailOn, failOnExit, failOnOf, readBudget } from "./audit-gates.ts";
import { type OutputFiles, writeCiFiles, writeHtml } from "./audit-output.ts";
import { AUDIT_USAGE } from "./audit-usage.ts";
import { resumedRequest } from "./resume.ts";

export interface CliIo extends CrawlCapability {
  stdout(s: string): void;
  stderr(s: string): void;
  now(): Date;
  isTTY?: boolean;
  /** Reads a file for `--compare <file>`. */
  readText?(path: string): Promise<string>;
  /** Writes a file for `--html <file>`. */
  writeText?(path: string, text: string): Promise<void>;
  /** Makes a directory and its parents, for `--csv <dir>`. */
  makeDir?(path: string): Promise<void>;
  signal?: AbortSignal;
  /** Crawls kept on disk (beyond 100,000 pages, --resumable) and resumed (--resume); the Node adapter's are SQLite files. */
  crawlStates?: CrawlStates;
}

const NUMERIC: Record<string, keyof typeof cliBoundsInput> = {
  "max-pages": "max_pages",
  "max-depth": "max_depth",
  "max-seconds": "max_seconds",
  concurrency: "concurrency",
  "min-interval-ms": "min_interval_ms",
  "timeout-ms": "timeout_ms",
  "lab-sample": "lab_sample",
  "external-links": "max_external_links",
};

/** Options that take a value (besides the numeric bounds), and switches. */
const VALUED = ["production-url", "compare", "html", "fail-on", "budget", "sarif", "junit", "csv", "resume"];
const SWITCHES = ["no-resources", "no-sitemaps", "no-external-links", "render", "detailed", "json", "resumable"];
const OPTIONS = optionTable([...Object.keys(NUMERIC), ...VALUED], SWITCHES);

interface Parsed extends OutputFiles {
  request: AuditRequest;
  json: boolean;
  detailed: boolean;
  compare?: string;
  html?: string;
  failOn?: FailOn;
  /** Path of the budget file (read before the crawl) and, once read, the budget. */
  budgetFile?: string;
  budget?: Budget;
  /** --resume: the report id of the interrupted crawl to continue. */
  resume?: string;
  resumable: boolean;
}

/** The crawl bounds and switches of the request, as the tool's arguments. */
function requestOf(url: string | undefined, parsed: ParsedArgs): AuditRequest {
  const request: Record<string, unknown> = url === undefined ? {} : { url };
  for (const [flag, field] of Object.entries(NUMERIC)) {
    const text = valueOf(parsed, flag);
    if (text === undefined) continue;
    if (!/^\d+$/.test(text)) throw usage(`--${flag} needs a whole number, got "${text}"`);
    request[field] = Number(text);
  }
  if (parsed.options["no-resources"]) request.check_resources = false;
  if (parsed.options["no-sitemaps"]) request.use_sitemaps = false;
  if (parsed.options.render) request.render = true;
  if (parsed.options["no-external-links"]) request.check_external_links = false;
  const production = valueOf(parsed, "production-url");
  if (production !== undefined) request.production_url = production;
  const checked = v.safeParse(v.object(cliBoundsInput), url === undefined ? { ...request, url: "" } : request);
  if (!checked.success) {
    const issue = checked.issues[0];
    throw usage(`${v.getDotPath(issue) ?? "option"}: ${issue.message}`);
  }
  return request as unknown as AuditRequest;
}

function parseAuditArgs(args: string[]): Parsed {
  const parsed = parseArgs(args, OPTIONS);
  const resume = valueOf(parsed, "resume");
  const urls = parsed.positionals;
  // Resuming, the URL is the saved crawl's: it may be left out.
  if (urls.length > 1 || (urls.length === 0 && resume === undefined))
    throw usage(urls.length === 0 ? "a URL is required (or --resume <report id>)" : `one URL only, got ${urls.length}`);
  const resumable = parsed.options.resumable === true;
  if (resumable && parsed.options.render) throw usage("--resumable does not go with --render: a rendering crawl cannot be resumed (it would load its pages in the browser again)");
  const failOn = failOnOf(valueOf(parsed, "fail-on"));
  return {
    request: requestOf(urls[0], parsed),
    json: parsed.options.json === true,
    detailed: parsed.options.detailed === true,
    resumable,
    resume,
    compare: valueOf(parsed, "compare"),
    html: valueOf(parsed, "html"),
    failOn,
    budgetFile: valueOf(parsed, "budget"),
    sarif: valueOf(parsed, "sarif"),
    junit: valueOf(parsed, "junit"),
    csv: valueOf(parsed, "csv"),
  };
}

async function baseline(compare: string, io: CliIo): Promise<AuditRequest["compare_to"]> {
  if (REPORT_ID.test(compare) || !io.readText) return compare;
  let text: string;
  try {
    text = await io.readText(compare);
  } catch {
    throw usage(`--compare: "${compare}" is neither a report id nor a readable file`);
  }
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw usage(`--compare: ${compare} is not JSON (use a file written by audit --json)`);
  }
}

function progressPrinter(
  io: CliIo,
): (p: { pages: number; maxPages: number; queued: number; url: string }) => void {
  let last = 0;
  return (p) => {
    const now = Date.now();
    if (now - last < (io.isTTY ? 100 : 2000)) return;
    last = now;
    const line = `crawling: ${p.pages}/${p.maxPages} pages, ${p.queued} queued, ${p.url}`;
    io.stderr(io.isTTY ? `\r\x1b[K${line.slice(0, 120)}` : `${line}\n`);
  };
}

/** The report on stdout, as text in the CLI's words or as JSON. */
function printReport(parsed: Parsed, report: AuditReport, comparison: Comparison | undefined, io: CliIo): void {
  const format = parsed.detailed ? "detailed" : "concise";
  if (parsed.json)
    io.stdout(
      `${JSON.stringify(parsed.detailed ? { ...report, comparison } : presentReport(report, format, comparison), null, 2)}\n`,
    );
  else io.stdout(`${reportText(report, format, comparison, CLI_WORDS)}\n`);
}

/** The command that continues the crawl saved under `id`. */
const resumeCommand = (id: string) => `seo-audit-mcp audit --resume ${id}`;

/** Ctrl-C stopped the audit: say so, and exit 130 (128 + SIGINT) as shells report an interrupted command. */
function cancelled(io: CliIo, pages?: number, resumeId?: string): 130 {
  const partial = pages === undefined ? "before any report" : `after ${pages} page(s); the report above is partial`;
  const next = resumeId
    ? `continue it with ${resumeCommand(resumeId)} (pages already fetched are not fetched again)`
    : "run the command again to audit the whole site";
  io.stderr(`audit: cancelled by Ctrl-C ${partial}; ${next}\n`);
  return 130;
}

/** The report id of a resumable crawl, on stderr before it starts: the user needs it to resume. */
function announceResumable(io: CliIo, id: string, recorded: number): void {
  const resuming = recorded > 0 ? `resuming report id ${id}: ${recorded} URL(s) fetched before are not fetched again; ` : `report id ${id}; `;
  io.stderr(`${resuming}if interrupted, continue with ${resumeCommand(id)}\n`);
}

async function auditAndPrint(parsed: Parsed, io: CliIo, resumed: CrawlState | undefined, resumable: { id?: string }): Promise<number> {
  io.stderr(`auditing ${parsed.request.url} (robots.txt honoured; Ctrl-C stops)\n`);
  const { report, comparison } = await handleAuditRequest(parsed.request, {
    ...io,
    ...(resumed ? { resumed } : {}),
    ...(parsed.resumable ? { resumable: true } : {}),
    onResumable: (id, recorded) => {
      resumable.id = id;
      announceResumable(io, id, recorded);
    },
    onProgress: progressPrinter(io),
    frontEnd: "cli",
  });
  if (io.isTTY) io.stderr("\r\x1b[K");
  const b = report.bounds;
  io.stderr(
    `${io.signal?.aborted ? "stopped" : "done"}: ${report.stats.pages_crawled} pages (bounds: ${b.maxPages} pages, ${b.maxSeconds} s, ${b.concurrency} parallel, ${b.minIntervalMs} ms apart), report id ${report.id}\n`,
  );
  printReport(parsed, report, comparison, io);
  const written = parsed.html === undefined ? 0 : await writeHtml(parsed.html, renderReportHtml(report, comparison), io);
  const ci = await writeCiFiles(parsed, report, io);
  if (io.signal?.aborted) return cancelled(io, report.stats.pages_crawled, resumable.id);
  return Math.max(written, ci, failOnExit(report, parsed.failOn, io), budgetExit(report, parsed.budget, io));
}

/** --resume: the saved crawl, opened (and locked) for this run, its request read from it. */
async function openResumed(parsed: Parsed, io: CliIo): Promise<CrawlState | undefined> {
  if (parsed.resume === undefined) return undefined;
  if (!io.crawlStates) throw usage("--resume needs the command line's crawl store, which this runtime does not have");
  const state = await io.crawlStates.resume(parsed.resume);
  try {
    parsed.request = resumedRequest(parsed.request, state);
  } catch (err) {
    state.close(true);
    throw err;
  }
  return state;
}

/** The `seo-audit-mcp audit` command line: parses `args`, audits, writes the report; returns the exit code. */
export async function auditCommand(args: string[], io: CliIo): Promise<number> {
  const meta = metaFlagOf(args);
  if (meta !== undefined) {
    io.stdout(meta === "help" ? AUDIT_USAGE : `${VERSION}\n`);
    return 0;
  }
  const resumable: { id?: string } = {};
  try {
    const parsed = parseAuditArgs(args);
    if (parsed.compare !== undefined) parsed.request.compare_to = await baseline(parsed.compare, io);
    if (parsed.budgetFile !== undefined) parsed.budget = await readBudget(parsed.budgetFile, io);
    const resumed = await openResumed(parsed, io);
    return await auditAndPrint(parsed, io, resumed, resumable);
  } catch (err) {
    // Stopped before a report existed (while robots.txt or the start page was on its way).
    if (io.signal?.aborted) return cancelled(io, undefined, resumable.id);
    return reportFailure(err, "seo-audit-mcp audit --help", (line) => io.stderr(`${line}\n`));
  }
}
