/**
 * One page's report: the local fetch with its labelled facts and the audit engine's findings
 * for the page, PageSpeed Insights runs (mobile and desktop) and Chrome UX Report field data
 * for the URL and its origin when the keys are configured.
 * @module
 */

import type { Finding } from "../audit/finding.ts";
import { auditPage, type PageFacts } from "../audit/page.ts";
import { USER_AGENT } from "../audit/crawl-and-audit.ts";
import type { SeoConfig } from "../config.ts";
import { fetchPage } from "../fetch/fetch-page.ts";
import { derived, fromProvider, type Labelled, unavailable } from "../provenance.ts";
import { type CruxRecord, queryCrux } from "../providers/crux.ts";
import { mergeStatuses, type SourceStatus, statusOf } from "../providers/labels.ts";
import { type PageSpeedRun, runPageSpeed, type Strategy } from "../providers/pagespeed.ts";
import { fail, type ProviderDeps, type ProviderResult } from "../providers/types.ts";
import { isLocalHost } from "./local.ts";
import { labFor } from "./lab.ts";
import type { LabMetrics, RendererFactory } from "../render/renderer.ts";
import { type FieldData, fromCrux, fromPsi, THRESHOLD_BASIS, type Verdict, verdicts } from "./vitals.ts";

interface PageReportRequest {
  url: string;
  strategies: Strategy[];
}

export interface PageReport {
  url: string;
  facts: PageFacts;
  findings: Finding[];
  pageSpeed: Partial<Record<Strategy, Labelled<PageSpeedRun>>>;
  fieldData: {
    url: Labelled<FieldData>;
    origin: Labelled<FieldData>;
    verdicts: Labelled<Record<string, Verdict>>;
  };
  sources: SourceStatus[];
  /** Lab metrics measured in the local browser, when PageSpeed Insights cannot answer and a browser is there. */
  lab?: Labelled<LabMetrics>;
  /** Set when the page could not be fetched at all (status 0). */
  fetchError?: string;
}

type Deps = { provider: ProviderDeps; config: SeoConfig; renderer?: RendererFactory | undefined };

const label = <T>(r: ProviderResult<T>): Labelled<T> =>
  r.ok ? fromProvider(r.source, r.value, r.at) : unavailable<T>(r.reason, r.code);

function field(
  r: ProviderResult<FieldData>,
  psi: ProviderResult<PageSpeedRun> | undefined,
  scope: "url" | "origin",
) {
  // Without a CrUX key, PSI's embedded CrUX data still answers (for the URL, or its origin).
  if (!r.ok && r.code === "no-key" && psi?.ok && psi.value.field) {
    const data = fromPsi(psi.value.field);
    if (data.scope === scope) return fromProvider("pagespeed-insights", data, psi.at);
  }
  return label(r);
}

export async function buildPageReport(
  deps: Deps,
  request: PageReportRequest,
  signal?: AbortSignal,
): Promise<PageReport> {
  const at = deps.provider.now().toISOString();
  const { page, runs, urlField, originField, lab } = await gather(deps, request, at, signal);
  const { facts, findings } = auditPage(page, at);
  return {
    url: request.url,
    facts,
    findings,
    pageSpeed: Object.fromEntries(
      request.strategies.map((s, i) => [s, label(runs[i] as ProviderResult<PageSpeedRun>)]),
    ),
    fieldData: fieldData(urlField, originField, runs[0]),
    sources: mergeStatuses([...runs.map(statusOf), statusOf(urlField), statusOf(originField)]),
    ...(lab ? { lab } : {}),
    ...(page.status === 0 ? { fetchError: page.error ?? "the page could not be fetched" } : {}),
  };
}

/** The page, its PageSpeed runs, CrUX for the URL and origin and the local lab run, all at once. */
async function gather(deps: Deps, request: PageReportRequest, at: string, signal?: AbortSignal) {
  const target = new URL(request.url);
  const local = isLocalHost(target.hostname);
  // Google's services cannot reach a local address: say so instead of asking them.
  const askGoogle = <T>(source: "pagespeed-insights" | "chrome-ux-report", ask: () => Promise<ProviderResult<T>>) =>
    local ? unreachable<T>(source, target.hostname) : ask();
  const [page, runs, urlField, originField, lab] = await Promise.all([
    fetchPage(request.url, { fetch: deps.provider.fetch, signal, userAgent: USER_AGENT }),
    Promise.all(
      request.strategies.map((s) =>
        askGoogle("pagespeed-insights", () => runPageSpeed(deps.provider, deps.config, request.url, s, signal)),
      ),
    ),
    askGoogle("chrome-ux-report", () => queryCrux(deps.provider, deps.config, "url", request.url, signal)),
    askGoogle("chrome-ux-report", () => queryCrux(deps.provider, deps.config, "origin", target.origin, signal)),
    labFor(deps.renderer, request.url, !local && Boolean(deps.config.keys.psi), at),
  ]);
  return { page, runs, urlField, originField, lab };
}

const unreachable = <T>(source: "pagespeed-insights" | "chrome-ux-report", hostname: string) =>
  Promise.resolve(
    fail<T>(source, "not-applicable", `${hostname} is a local address that Google's services cannot reach`),
  );

/** Field data for the URL and its origin, and the Core Web Vitals verdicts from the closer of the two. */
function fieldData(
  urlField: ProviderResult<CruxRecord>,
  originField: ProviderResult<CruxRecord>,
  firstRun: ProviderResult<PageSpeedRun> | undefined,
): PageReport["fieldData"] {
  const toField = (r: ProviderResult<CruxRecord>) => (r.ok ? { ...r, value: fromCrux(r.value) } : r);
  const url = field(toField(urlField), firstRun, "url");
  const origin = field(toField(originField), firstRun, "origin");
  const best = url.value ? url : origin;
  const verdictsOf = best.value
    ? derived(verdicts(best.value), `${THRESHOLD_BASIS}; ${best.value.scope}-level data`, best.provenance.source)
    : unavailable<Record<string, Verdict>>(best.provenance.reason ?? "no field data", best.provenance.code);
  return { url, origin, verdicts: verdictsOf };
}
