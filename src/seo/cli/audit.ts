/**
 * `seo-audit-mcp audit <url> [bounds] [--json] [--fail-on SEVERITY] [--budget FILE] [--sarif FILE]
 * [--junit FILE]`: the audit for people and CI.
 * Live progress on stderr, the readable report (or JSON) on stdout. Exit 0 on a finished
 * audit, 1 when the audit could not run or `--fail-on` found findings at or above its
 * severity (a CI gate, like linkinator's exit 1 on broken links), 2 on bad usage, 130 when
 * Ctrl-C stopped it (the partial report is still printed). Failures are one stderr line,
 * `CODE: what happened; what to do`.
 * @module
 */
import { v } from "../../../deps.ts";
import { metaFlagOf, type OptionSpec, type ParsedArgs, parseArgs, valueOf } from "../../shared/cli/args.ts";
import { cliFailure, failureLine } from "../../shared/cli/failure.ts";
import { VERSION } from "../../shared/build-info.ts";
import { ApiError } from "../../shared/errors.ts";
import { type AuditRequest, handleAuditRequest } from "../audit/audit-request.ts";
import { CLI_WORDS, presentReport, reportText } from "../audit/present.ts";
import { type Severity, SEVERITY_RANK } from "../audit/catalogue.ts";
import type { ReportStore } from "../audit/report-store.ts";
import type { AuditReport } from "../audit/report.ts";
import type { Comparison } from "../audit/compare.ts";
import { REPORT_ID } from "../audit/report-store.ts";
import { cliBoundsInput } from "../audit/bounds-input.ts";
import { EXTERNAL_LINKS } from "../audit/external-checker.ts";
import { CAPS, DEFAULTS, REMOTE_LIMITS } from "../crawl/bounds.ts";
import type { HttpRequest } from "../fetch/http-request.ts";
import type { PageParser } from "../audit/extract.ts";
import type { RendererFactory } from "../render/renderer.ts";
import { renderReportHtml } from "../report-html/render.ts";
import { type Budget, junitOf, overBudget, parseBudget, sarifOf } from "./ci-formats.ts";
import { csvFiles } from "./csv.ts";

export interface CliIo {
  stdout(s: string): void;
  stderr(s: string): void;
  fetch: typeof fetch;
  /** Optional lighter HTTP primitive for the crawl (the Node shim's `nodeHttpRequest`). */
  request?: HttpRequest;
  /** Where page HTML is parsed, started per audit: the Node shim's parses on a worker thread (default: this thread). */
  pageParser?: PageParser;
  /** Starts a browser for --render (the Node adapter's drives a local Chromium). */
  renderer?: RendererFactory;
  reports: ReportStore;
  now(): Date;
  isTTY?: boolean;
  /** Reads a file for `--compare <file>`. */
  readText?(path: string): Promise<string>;
  /** Writes a file for `--html <file>`. */
  writeText?(path: string, text: string): Promise<void>;
  /** Makes a directory and its parents, for `--csv <dir>`. */
  makeDir?(path: string): Promise<void>;
  signal?: AbortSignal;
}

const own = DEFAULTS.cli["own-machine"];
const remote = DEFAULTS.cli.remote;
const cap = CAPS.cli;
const both = (key: keyof typeof own) =>
  own[key] === remote[key] ? `default ${remote[key]}` : `default ${remote[key]}; ${own[key]} on your own machine`;

export const AUDIT_USAGE = `Usage: seo-audit-mcp audit <url> [options]

Crawls the site (same host, robots.txt honoured for every URL) and prints the audit.
Sites on your own machine or network (localhost, 127.0.0.1, private addresses, .local, .test,
.internal, single-label hosts) are crawled fast: no gap, ${own.concurrency} in parallel. Others politely.
  --max-pages N        URLs to fetch as pages (${both("maxPages")}; max ${cap.maxPages})
  --max-depth N        clicks from the start URL (${both("maxDepth")}; max ${cap.maxDepth})
  --max-seconds N      time budget (${both("maxSeconds")}; max ${cap.maxSeconds})
  --concurrency N      parallel requests per host (${both("concurrency")}; max ${REMOTE_LIMITS.maxConcurrency} for remote sites, ${cap.concurrency} on your own)
  --min-interval-ms N  gap between requests per host (${both("minIntervalMs")}; at least ${REMOTE_LIMITS.minIntervalMs} for remote sites)
  --timeout-ms N       per-request timeout (${both("timeoutMs")}; max ${cap.timeoutMs})
  --no-resources       do not check images, scripts and stylesheets
  --no-sitemaps        do not read sitemaps
  --production-url URL the production address of the start page, when auditing a staging or
                       local copy (default: detected from the start page's canonical; "none": off)
  --render             also load every HTML page in a local headless Chromium (CHROME_PATH or the
                       usual install paths): audit the rendered HTML, compare it with the raw
                       HTML, follow links scripts add, lab metrics for 20 pages
  --lab-sample N       with --render: pages given lab metrics (default 20; 0 for none)
  --external-links N   links to other sites checked after the crawl, most-linked first (HEAD,
                       then GET; robots.txt and a gap per host honoured; default ${EXTERNAL_LINKS.max}; max ${EXTERNAL_LINKS.cap})
  --no-external-links  do not check links to other sites
  --compare ID|FILE    compare with an earlier report (its id, or a JSON file from --json)
  --html FILE          also write a self-contained HTML report (charts, sortable page table)
  --detailed           every finding with examples (default: the top fixes)
  --json               print the report as JSON instead of text
  --fail-on SEVERITY   exit 1 when a finding of this severity or a worse one is present:
                       critical, high, medium or low (for CI; default: exit 0 on any audit)
  --budget FILE        exit 1 when a check has more URLs than a JSON file allows,
                       e.g. {"broken-internal-link": 0, "image-missing-alt": 10}
  --sarif FILE         also write the findings as SARIF 2.1.0 (GitHub code scanning)
  --junit FILE         also write the checks as JUnit XML test cases (fired checks fail)
  --csv DIR            also write pages.csv and one <check id>.csv per finding (every URL)
  --help, --version

Exit codes: 0 audited, 1 the audit could not run, --fail-on found findings or a check is over
its --budget, 2 bad usage,
130 stopped by Ctrl-C (the partial report is printed first).
`;

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

const OPTIONS: Record<string, OptionSpec> = {
  ...Object.fromEntries(Object.keys(NUMERIC).map((name) => [name, { value: true }])),
  "production-url": { value: true },
  compare: { value: true },
  html: { value: true },
  "no-resources": { value: false },
  "no-sitemaps": { value: false },
  "no-external-links": { value: false },
  render: { value: false },
  detailed: { value: false },
  json: { value: false },
  "fail-on": { value: true },
  budget: { value: true },
  sarif: { value: true },
  junit: { value: true },
  csv: { value: true },
};

/** Severities --fail-on takes: "info" findings are notes, never a reason to fail a build. */
const FAIL_ON = ["critical", "high", "medium", "low"] as const satisfies readonly Severity[];
type FailOn = (typeof FAIL_ON)[number];

const usage = (message: string) => new ApiError("INVALID_USAGE", message);

interface Parsed {
  request: AuditRequest;
  json: boolean;
  detailed: boolean;
  compare?: string;
  html?: string;
  failOn?: FailOn;
  /** Path of the budget file (read before the crawl) and, once read, the budget. */
  budgetFile?: string;
  budget?: Budget;
  sarif?: string;
  junit?: string;
  csv?: string;
}

/** The crawl bounds and switches of the request, as the tool's arguments. */
function requestOf(url: string, parsed: ParsedArgs): AuditRequest {
  const request: Record<string, unknown> = { url };
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
  const checked = v.safeParse(v.object(cliBoundsInput), request);
  if (!checked.success) {
    const issue = checked.issues[0];
    throw usage(`${v.getDotPath(issue) ?? "option"}: ${issue.message}`);
  }
  return request as unknown as AuditRequest;
}

function parseAuditArgs(args: string[]): Parsed {
  const parsed = parseArgs(args, OPTIONS);
  const flags = { json: parsed.options.json === true, detailed: parsed.options.detailed === true };
  const urls = parsed.positionals;
  if (urls.length !== 1) throw usage(urls.length === 0 ? "a URL is required" : `one URL only, got ${urls.length}`);
  const compare = valueOf(parsed, "compare");
  const html = valueOf(parsed, "html");
  const failOn = failOnOf(valueOf(parsed, "fail-on"));
  const files = {
    budgetFile: valueOf(parsed, "budget"),
    sarif: valueOf(parsed, "sarif"),
    junit: valueOf(parsed, "junit"),
    csv: valueOf(parsed, "csv"),
  };
  return {
    request: requestOf(urls[0] as string, parsed),
    ...flags,
    ...(compare !== undefined ? { compare } : {}),
    ...(html !== undefined ? { html } : {}),
    ...(failOn !== undefined ? { failOn } : {}),
    ...Object.fromEntries(Object.entries(files).filter(([, value]) => value !== undefined)),
  };
}

function failOnOf(text: string | undefined): FailOn | undefined {
  if (text === undefined || (FAIL_ON as readonly string[]).includes(text)) return text as FailOn | undefined;
  throw usage(`--fail-on takes ${FAIL_ON.join(", ")} (got "${text.slice(0, 40)}")`);
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

async function readBudget(file: string, io: CliIo): Promise<Budget> {
  let text: string;
  try {
    if (!io.readText) throw new Error("no file system");
    text = await io.readText(file);
  } catch {
    throw usage(`--budget: cannot read ${file}; pass a JSON file of check ids to the most URLs allowed`);
  }
  return parseBudget(text, file);
}

/** Writes one output file of the report; 1 when it could not be written (the report is printed anyway). */
async function writeOutput(flag: string, path: string, text: string, io: CliIo): Promise<number> {
  if (!io.writeText) {
    io.stderr(`WRITE_FAILED: ${flag} is not available here (no file system); run the audit from a terminal\n`);
    return 1;
  }
  try {
    await io.writeText(path, text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    io.stderr(`${failureLine(new ApiError("WRITE_FAILED", `cannot write ${path}: ${why}`), "seo-audit-mcp audit --help")}\n`);
    return 1;
  }
  io.stderr(`${flag}: ${path} (${Math.round(text.length / 1024)} KB)\n`);
  return 0;
}

/** The --sarif and --junit files. */
async function writeCiFiles(parsed: Parsed, report: AuditReport, io: CliIo): Promise<number> {
  let failed = 0;
  if (parsed.sarif !== undefined) failed = Math.max(failed, await writeOutput("--sarif", parsed.sarif, sarifOf(report), io));
  if (parsed.junit !== undefined) failed = Math.max(failed, await writeOutput("--junit", parsed.junit, junitOf(report), io));
  if (parsed.csv !== undefined) failed = Math.max(failed, await writeCsv(parsed.csv, report, io));
  return failed;
}

/** The --csv directory: made if missing, then pages.csv and one file per finding. */
async function writeCsv(dir: string, report: AuditReport, io: CliIo): Promise<number> {
  try {
    await io.makeDir?.(dir);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    io.stderr(`${failureLine(new ApiError("WRITE_FAILED", `cannot make ${dir}: ${why}`), "seo-audit-mcp audit --help")}\n`);
    return 1;
  }
  const files = csvFiles(report);
  const base = dir.replace(/[\\/]+$/, "");
  let failed = 0;
  for (const [name, text] of files) failed = Math.max(failed, await writeOutput("--csv", `${base}/${name}`, text, quiet(io)));
  if (failed === 0) io.stderr(`--csv: ${files.size} file(s) in ${dir} (pages.csv and one per check)\n`);
  return failed;
}

/** The io with its stderr kept for failures: one summary line instead of a line per CSV file. */
function quiet(io: CliIo): CliIo {
  return { ...io, stderr: (s) => (s.startsWith("--csv: ") ? undefined : io.stderr(s)) };
}

/** Exit 1 when a check has more URLs than the --budget file allows. */
function budgetExit(report: AuditReport, budget: Budget | undefined, io: CliIo): 0 | 1 {
  if (!budget) return 0;
  const over = overBudget(report, budget);
  if (over.length === 0) {
    io.stderr(`--budget: passed, ${budget.size} check(s) within budget\n`);
    return 0;
  }
  io.stderr(`--budget: failed, ${over.length} check(s) over budget: ${over.join(", ")}; fix them, or raise the budget\n`);
  return 1;
}

async function writeHtml(path: string, html: string, io: CliIo): Promise<number> {
  if (!io.writeText) {
    io.stderr("WRITE_FAILED: --html is not available here (no file system); run the audit from a terminal to get the HTML report\n");
    return 1;
  }
  try {
    await io.writeText(path, html);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    io.stderr(`${failureLine(new ApiError("WRITE_FAILED", `cannot write ${path}: ${why}`), "seo-audit-mcp audit --help")}\n`);
    return 1;
  }
  io.stderr(`HTML report: ${path} (${Math.round(html.length / 1024)} KB, self-contained)\n`);
  return 0;
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

/** Exit 1 when --fail-on is given and a finding at or above it is present (a CI gate). */
function failOnExit(report: AuditReport, failOn: FailOn | undefined, io: CliIo): 0 | 1 {
  if (failOn === undefined) return 0;
  const over = report.findings.filter((f) => SEVERITY_RANK[f.severity] <= SEVERITY_RANK[failOn]);
  if (over.length === 0) {
    io.stderr(`--fail-on ${failOn}: passed, no finding is ${failOn} or worse\n`);
    return 0;
  }
  const checks = over.map((f) => `${f.id} (${f.severity})`).join(", ");
  io.stderr(`--fail-on ${failOn}: failed, ${over.length} finding(s) ${failOn} or worse: ${checks}; fix them, or raise --fail-on\n`);
  return 1;
}

/** Ctrl-C stopped the audit: say so, and exit 130 (128 + SIGINT) as shells report an interrupted command. */
function cancelled(io: CliIo, pages?: number): 130 {
  const partial = pages === undefined ? "before any report" : `after ${pages} page(s); the report above is partial`;
  io.stderr(`audit: cancelled by Ctrl-C ${partial}; run the command again to audit the whole site\n`);
  return 130;
}

async function auditAndPrint(parsed: Parsed, io: CliIo): Promise<number> {
  io.stderr(`auditing ${parsed.request.url} (robots.txt honoured; Ctrl-C stops)\n`);
  const { report, comparison } = await handleAuditRequest(parsed.request, {
    fetch: io.fetch,
    ...(io.request ? { request: io.request } : {}),
    ...(io.pageParser ? { pageParser: io.pageParser } : {}),
    ...(io.renderer ? { renderer: io.renderer } : {}),
    now: io.now,
    reports: io.reports,
    onProgress: progressPrinter(io),
    ...(io.signal ? { signal: io.signal } : {}),
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
  if (io.signal?.aborted) return cancelled(io, report.stats.pages_crawled);
  return Math.max(written, ci, failOnExit(report, parsed.failOn, io), budgetExit(report, parsed.budget, io));
}

/** The `seo-audit-mcp audit` command line: parses `args`, audits, writes the report; returns the exit code. */
export async function auditCommand(args: string[], io: CliIo): Promise<number> {
  const meta = metaFlagOf(args);
  if (meta !== undefined) {
    io.stdout(meta === "help" ? AUDIT_USAGE : `${VERSION}\n`);
    return 0;
  }
  try {
    const parsed = parseAuditArgs(args);
    if (parsed.compare !== undefined) parsed.request.compare_to = await baseline(parsed.compare, io);
    if (parsed.budgetFile !== undefined) parsed.budget = await readBudget(parsed.budgetFile, io);
    return await auditAndPrint(parsed, io);
  } catch (err) {
    // Stopped before a report existed (while robots.txt or the start page was on its way).
    if (io.signal?.aborted) return cancelled(io);
    const failure = cliFailure(err, "seo-audit-mcp audit --help");
    if (!failure) throw err;
    io.stderr(`${failure.line}\n`);
    return failure.exit;
  }
}
