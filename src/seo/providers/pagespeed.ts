/**
 * PageSpeed Insights v5 `runPagespeed`: Lighthouse lab metrics, the performance and SEO
 * category scores, the SEO audits, and the CrUX field data PSI embeds (`loadingExperience`).
 * https://developers.google.com/speed/docs/insights/v5/reference/pagespeedapi/runpagespeed
 * @module
 */
import type { SeoConfig } from "../config.ts";
import { TtlCache } from "./cache.ts";
import { requestJson } from "./request.ts";
import { fail, ok, type ProviderDeps, type ProviderResult } from "./types.ts";

export type Strategy = "mobile" | "desktop";

/** Lighthouse audit ids of the lab metrics we report, with their unit. */
const LAB_METRICS = {
  "first-contentful-paint": "ms",
  "largest-contentful-paint": "ms",
  "total-blocking-time": "ms",
  "cumulative-layout-shift": "unitless",
  "speed-index": "ms",
  "server-response-time": "ms",
} as const;

export interface LabMetric {
  id: string;
  value: number;
  unit: string;
  display?: string;
  score?: number | null;
}

export interface SeoAudit {
  id: string;
  title: string;
  score: number | null;
  passed: boolean | null;
  display?: string;
}

/** PSI `loadingExperience.metrics.<KEY>` (CLS percentile is x100 there). */
export interface PsiFieldMetric {
  percentile: number;
  category?: string;
  distributions?: { min?: number; max?: number; proportion: number }[];
}

export interface PageSpeedRun {
  strategy: Strategy;
  finalUrl?: string;
  lighthouseVersion?: string;
  analyzedAt?: string;
  performanceScore: number | null;
  seoScore: number | null;
  lab: LabMetric[];
  seoAudits: SeoAudit[];
  field?: { id?: string; overall?: string; originFallback: boolean; metrics: Record<string, PsiFieldMetric> };
}

interface LhAudit {
  id?: string;
  title?: string;
  score?: number | null;
  numericValue?: number;
  displayValue?: string;
  scoreDisplayMode?: string;
}
interface PsiResponse {
  analysisUTCTimestamp?: string;
  lighthouseResult?: {
    finalUrl?: string;
    finalDisplayedUrl?: string;
    lighthouseVersion?: string;
    categories?: Record<string, { score?: number | null; auditRefs?: { id: string; weight?: number }[] }>;
    audits?: Record<string, LhAudit>;
  };
  loadingExperience?: {
    id?: string;
    overall_category?: string;
    origin_fallback?: boolean;
    metrics?: Record<string, PsiFieldMetric>;
  };
}

const cache = new TtlCache<PageSpeedRun>(100);
const TTL_MS = 10 * 60_000;
// A Lighthouse run takes 10-30 s on Google's side.
const TIMEOUT_MS = 60_000;

function seoAudits(lhr: NonNullable<PsiResponse["lighthouseResult"]>): SeoAudit[] {
  const refs = lhr.categories?.seo?.auditRefs ?? [];
  return refs.flatMap((ref) => {
    const audit = lhr.audits?.[ref.id];
    if (!audit || audit.scoreDisplayMode === "manual" || audit.scoreDisplayMode === "notApplicable")
      return [];
    const score = typeof audit.score === "number" ? audit.score : null;
    return [
      {
        id: ref.id,
        title: audit.title ?? ref.id,
        score,
        passed: score === null ? null : score >= 0.9,
        ...(audit.displayValue ? { display: audit.displayValue } : {}),
      },
    ];
  });
}

function labMetrics(audits: Record<string, LhAudit>): LabMetric[] {
  return Object.entries(LAB_METRICS).flatMap(([id, unit]) => {
    const audit = audits[id];
    if (typeof audit?.numericValue !== "number") return [];
    return [
      {
        id,
        value: audit.numericValue,
        unit,
        ...(audit.displayValue ? { display: audit.displayValue } : {}),
        score: typeof audit.score === "number" ? audit.score : null,
      },
    ];
  });
}

/** Parses a runPagespeed response; undefined when it lacks a Lighthouse result. */
export function parsePageSpeed(body: unknown, strategy: Strategy): PageSpeedRun | undefined {
  const data = body as PsiResponse;
  const lhr = data?.lighthouseResult;
  if (!lhr || typeof lhr !== "object") return undefined;
  const score = (name: string) => {
    const s = lhr.categories?.[name]?.score;
    return typeof s === "number" ? s : null;
  };
  const le = data.loadingExperience;
  return {
    strategy,
    finalUrl: lhr.finalDisplayedUrl ?? lhr.finalUrl,
    lighthouseVersion: lhr.lighthouseVersion,
    analyzedAt: data.analysisUTCTimestamp,
    performanceScore: score("performance"),
    seoScore: score("seo"),
    lab: labMetrics(lhr.audits ?? {}),
    seoAudits: seoAudits(lhr),
    ...(le?.metrics && Object.keys(le.metrics).length > 0
      ? {
          field: {
            id: le.id,
            overall: le.overall_category,
            originFallback: le.origin_fallback === true,
            metrics: le.metrics,
          },
        }
      : {}),
  };
}

/** Runs PSI for one URL and strategy (performance + SEO categories). */
export async function runPageSpeed(
  deps: ProviderDeps,
  config: SeoConfig,
  url: string,
  strategy: Strategy,
  signal?: AbortSignal,
): Promise<ProviderResult<PageSpeedRun>> {
  const key = config.keys.psi;
  if (!key) {
    return fail(
      "pagespeed-insights",
      "no-key",
      "PageSpeed Insights needs SEO_PSI_KEY (free, Google Cloud console: enable the PageSpeed Insights API and create an API key); keyless calls share an exhausted quota",
    );
  }
  const cacheKey = `${config.endpoints.SEO_PSI_ENDPOINT} ${strategy} ${url}`;
  const hit = cache.get(cacheKey);
  if (hit) return ok("pagespeed-insights", hit, hit.analyzedAt ?? deps.now().toISOString());
  const query = new URLSearchParams({ url, strategy });
  query.append("category", "performance");
  query.append("category", "seo");
  query.set("key", key);
  const answer = await requestJson(deps, {
    source: "pagespeed-insights",
    name: "PageSpeed Insights",
    url: `${config.endpoints.SEO_PSI_ENDPOINT}/runPagespeed?${query}`,
    timeoutMs: config.timeoutMs ?? TIMEOUT_MS,
    keyVar: "SEO_PSI_KEY",
    secrets: config.secrets,
    signal,
  });
  if (!answer.ok) return answer;
  const run = parsePageSpeed(answer.value, strategy);
  if (!run) {
    return fail(
      "pagespeed-insights",
      "provider-down",
      "PageSpeed Insights answered without a Lighthouse result",
    );
  }
  cache.set(cacheKey, run, TTL_MS);
  return ok("pagespeed-insights", run, run.analyzedAt ?? answer.at);
}
