/**
 * The audit as both front ends run it (MCP tool and CLI): check the target and options, load
 * the report to compare with, crawl and audit, store the report, compare. Failures are
 * `ApiError`s (the crawler's own included) whose message says what to do next.
 * @module
 */
import { ApiError, ERRORS } from "../../shared/errors.ts";
import type { CrawlBounds, FrontEnd } from "../crawl/bounds.ts";
import { type BoundsInput, boundsFrom, externalLinksFrom, politenessProblem } from "./bounds-input.ts";
import type { CrawlProgress } from "../crawl/crawler.ts";
import type { HttpRequest } from "../fetch/http-request.ts";
import type { PageParser } from "./extract.ts";
import { type Twin, twinFromOption } from "../crawl/twin.ts";
import { reachNextStep } from "../crawl/unreachable.ts";
import { isOwnMachine, isSameSite, normaliseUrl } from "../fetch/url.ts";
import { loadBaseline } from "./baseline.ts";
import { type Comparison, compareReports } from "./compare.ts";
import type { AuditReport } from "./report.ts";
import type { ReportStore } from "./report-store.ts";
import { type AuditOptions, crawlAndAudit } from "./crawl-and-audit.ts";
import { type CrawlState, type CrawlStates, IN_MEMORY_PAGES } from "./page-facts.ts";
import { newReportId } from "./report-store.ts";
import type { Renderer, RendererFactory } from "../render/renderer.ts";

/**
 * The site crawl: what only a local adapter gives (stdio, the CLI, or a gateway bound to loopback
 * with --allow-audit). Its requests are not behind the gateway's egress guard: auditing
 * http://localhost:3000 is the point of running it locally.
 */
export interface CrawlCapability {
  /** fetch for the crawl (robots.txt, sitemaps, pages when `request` is not given). */
  fetch: typeof fetch;
  /** A lighter HTTP client for the pages (the Node shim's node:http one). */
  request?: HttpRequest;
  /** Where page HTML is parsed, started per audit: the Node shim's parses on a worker thread (default: this thread). */
  pageParser?: PageParser;
  /** Where audits are kept for re-audit comparisons (the Node shim keeps them on disk). */
  reports: ReportStore;
  /** Starts a local headless browser for rendering and keyless lab metrics (the Node shim's); absent where none can run. */
  renderer?: RendererFactory;
}

export interface AuditRequestDeps extends CrawlCapability {
  now(): Date;
  signal?: AbortSignal;
  onProgress?(progress: CrawlProgress): void;
  /** Which caps and defaults apply (the tool's unless the CLI says so). */
  frontEnd?: FrontEnd;
  /** Where a crawl kept on disk lives: beyond `IN_MEMORY_PAGES`, or `resumable` (the Node CLI's are SQLite files). */
  crawlStates?: CrawlStates;
  /** Keep this crawl on disk, resumable, whatever its size (the CLI's --resumable). */
  resumable?: boolean;
  /** The interrupted crawl this audit continues (the CLI's --resume opens it); the audit closes it. */
  resumed?: CrawlState;
  /** Told a resumable crawl's report id before it starts, and how many URLs it will not fetch again. */
  onResumable?(id: string, recorded: number): void;
}

export interface AuditRequest extends BoundsInput {
  url: string;
  /** A stored report id, or an earlier report object. */
  compare_to?: string | Record<string, unknown> | undefined;
}

/** The browser session of a rendering audit; the error says how to get a browser. */
async function rendererFor(request: AuditRequest, deps: AuditRequestDeps): Promise<Renderer | undefined> {
  if (request.render !== true) return undefined;
  if (!deps.renderer)
    throw new ApiError("BROWSER_UNAVAILABLE", `rendering needs a local browser, and this runtime cannot start one; ${ERRORS.BROWSER_UNAVAILABLE.hint}`);
  return deps.renderer();
}

/** The start URL redirected out of the site: its chain stopped before the off-site request. */
function offSite(finalUrl: string | undefined, start: URL): boolean {
  return finalUrl !== undefined && URL.canParse(finalUrl) && !isSameSite(new URL(finalUrl), start);
}

interface AuditOutcome {
  report: AuditReport;
  comparison?: Comparison;
}

/** production_url: "none" turns twin detection off; a URL names the twin; absent means detect. */
function twinOption(start: string, productionUrl: string | undefined): Twin | null | undefined {
  if (productionUrl === undefined) return undefined;
  if (productionUrl.trim().toLowerCase() === "none") return null;
  const twin = twinFromOption(start, productionUrl);
  if (!twin)
    throw new ApiError(
      "INVALID_ARGUMENTS",
      `production_url "${productionUrl.slice(0, 200)}" must be an absolute http(s) URL on another origin than ${start} (the production address of the start page), or "none"`,
    );
  return twin;
}

/** A crawl that fetched nothing of the site is an error, not a report: the start page failed, or left the site. */
function refuseNothingAudited(report: AuditReport, startUrl: URL): void {
  const first = report.pages.find((p) => p.url === report.target);
  if (report.stats.pages_crawled <= 1 && first && first.status === 0) {
    const error =
      report.findings.find((f) => f.id === "fetch-failed")?.examples[0]?.evidence ?? "no response";
    throw new ApiError(
      "UNREACHABLE",
      `could not fetch ${report.target} (${error}); ${reachNextStep(error)}`,
    );
  }
  if (report.stats.pages_crawled <= 1 && offSite(first?.final_url, startUrl)) {
    throw new ApiError(
      "OFF_SITE_REDIRECT",
      `${report.target} redirects to ${first?.final_url}, outside the site being audited (same host with or without www., same port), so nothing was audited; audit ${first?.final_url} instead`,
    );
  }
}

/** A new crawl state on disk when the crawl may go beyond `IN_MEMORY_PAGES` or is to be resumable; refused where there is none. */
async function newStateFor(request: AuditRequest, bounds: CrawlBounds, deps: AuditRequestDeps, id: string): Promise<CrawlState | undefined> {
  if (bounds.maxPages <= IN_MEMORY_PAGES && deps.resumable !== true) return undefined;
  const pages = IN_MEMORY_PAGES.toLocaleString("en");
  if (!deps.crawlStates)
    throw new ApiError(
      "INVALID_ARGUMENTS",
      `a crawl beyond ${pages} pages keeps its pages on disk, which this runtime cannot; audit at most ${pages} pages, or run seo-audit-mcp audit on Node 22.13 or later`,
    );
  const { compare_to: _, ...crawl } = request;
  return deps.crawlStates.create(id, crawl);
}

/**
 * Answers one audit request of either front end: the URL and options checked, the baseline
 * loaded, the site crawled and audited (`crawlAndAudit`), the report stored and compared.
 */
export async function handleAuditRequest(request: AuditRequest, deps: AuditRequestDeps): Promise<AuditOutcome> {
  try {
    return await auditRequest(request, deps);
  } catch (err) {
    // An interrupted crawl stays resumable whatever stopped this attempt (closing twice does nothing).
    deps.resumed?.close(true);
    throw err;
  }
}

async function auditRequest(request: AuditRequest, deps: AuditRequestDeps): Promise<AuditOutcome> {
  const { start, startUrl } = startOf(request.url);
  const hosts = isOwnMachine(startUrl) ? "own-machine" : "remote";
  const refused = politenessProblem(request, hosts);
  if (refused) throw new ApiError("INVALID_ARGUMENTS", refused);
  const twin = twinOption(start, request.production_url);
  const baseline = await loadBaseline(request.compare_to, deps.reports);
  const bounds = boundsFrom(request, hosts, deps.frontEnd ?? "tool");
  const id = deps.resumed?.id ?? newReportId(deps.now());
  const state = deps.resumed ?? (await newStateFor(request, bounds, deps, id));
  const report = await crawlWithState(start, request, deps, { bounds, twin, id, state });
  refuseNothingAudited(report, startUrl);
  report.id = await deps.reports.save(report, ...(state ? [id] : []));
  return { report, ...(baseline ? { comparison: compareReports(baseline, report) } : {}) };
}

/** The start URL, normalised; refused unless it is an absolute http(s) URL without credentials. */
function startOf(url: string): { start: string; startUrl: URL } {
  const start = normaliseUrl(url);
  if (!start || !/^https?:\/\//i.test(url.trim())) {
    throw new ApiError(
      "INVALID_URL",
      `"${url.slice(0, 200)}" is not an absolute http(s) URL; pass one like https://example.com/ or http://localhost:3000/`,
    );
  }
  const startUrl = new URL(start);
  if (startUrl.username !== "" || startUrl.password !== "") {
    // Credentials would be echoed in the report, the logs and the stored report file.
    throw new ApiError(
      "INVALID_URL",
      "the URL contains a user name or password; remove the user:password@ part (the crawl sends no credentials)",
    );
  }
  return { start, startUrl };
}

/** What the crawl is set up with: checked bounds and twin, the report id and the crawl state on disk (if any). */
interface CrawlSetup {
  bounds: CrawlBounds;
  twin: Twin | null | undefined;
  id: string;
  state: CrawlState | undefined;
}

/**
 * Crawls and audits; the crawl state is closed whatever happens, kept for --resume only where a
 * later attempt can use it, and the browser (in rendering mode) is closed too.
 */
async function crawlWithState(start: string, request: AuditRequest, deps: AuditRequestDeps, setup: CrawlSetup): Promise<AuditReport> {
  const { id, state } = setup;
  // A rendering crawl would load its pages in the browser again: it keeps its pages on disk, but is not resumable.
  const resumable = state !== undefined && request.render !== true;
  const renderer = await rendererFor(request, deps).catch((err: unknown) => {
    state?.close(state === deps.resumed);
    throw err;
  });
  if (resumable) deps.onResumable?.(id, state.recorded);
  return crawlAndAudit(start, auditOptions(request, deps, setup, resumable, renderer)).then(
    (built) => {
      // Ctrl-C keeps the crawl for --resume; a crawl that ran to its end (or its bounds) is done with it.
      state?.close(resumable && deps.signal?.aborted === true);
      return built;
    },
    (err: unknown) => {
      state?.close(resumable && state.recorded > 0);
      throw err;
    },
  ).finally(() => renderer?.close());
}

/** The audit engine's options: the request's, the front end's dependencies, the state as page store and journal. */
function auditOptions(
  request: AuditRequest,
  deps: AuditRequestDeps,
  { bounds, twin, state }: CrawlSetup,
  resumable: boolean,
  renderer: Renderer | undefined,
): AuditOptions {
  return {
    ...(state ? { pageFacts: state } : {}),
    ...(resumable && state ? { journal: state } : {}),
    ...(renderer ? { renderer, ...(request.lab_sample !== undefined ? { labSample: request.lab_sample } : {}) } : {}),
    fetch: deps.fetch,
    ...(deps.request ? { request: deps.request } : {}),
    ...(deps.pageParser ? { pageParser: deps.pageParser } : {}),
    now: deps.now,
    bounds,
    externalLinks: externalLinksFrom(request, deps.frontEnd ?? "tool"),
    twin,
    ...(deps.signal ? { signal: deps.signal } : {}),
    ...(deps.onProgress ? { onProgress: deps.onProgress } : {}),
  };
}
