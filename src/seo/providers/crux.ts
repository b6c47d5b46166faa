/**
 * Chrome UX Report API `records:queryRecord`: 28-day field data (p75 and the three-bin
 * histogram) for a URL or an origin. A 404 means Chrome has too little traffic for it.
 * https://developer.chrome.com/docs/crux/api
 * @module
 */
import type { SeoConfig } from "../config.ts";
import { TtlCache } from "./cache.ts";
import { requestJson } from "./request.ts";
import { fail, ok, type ProviderDeps, type ProviderResult } from "./types.ts";

export const CRUX_METRICS = [
  "largest_contentful_paint",
  "interaction_to_next_paint",
  "cumulative_layout_shift",
  "first_contentful_paint",
  "experimental_time_to_first_byte",
] as const;
export type CruxMetricName = (typeof CRUX_METRICS)[number];

export interface CruxMetric {
  p75: number;
  /** Good, needs improvement, poor: share of page loads in each bin. */
  histogram: { start: number; end?: number; density: number }[];
}

export interface CruxRecord {
  scope: "url" | "origin";
  key: string;
  formFactor?: string;
  metrics: Partial<Record<CruxMetricName, CruxMetric>>;
  collectionPeriod?: { firstDate: string; lastDate: string };
}

interface CruxDate {
  year: number;
  month: number;
  day: number;
}
interface CruxResponse {
  record?: {
    key?: Record<string, string>;
    metrics?: Record<
      string,
      { percentiles?: { p75?: number | string }; histogram?: CruxMetric["histogram"] }
    >;
    collectionPeriod?: { firstDate?: CruxDate; lastDate?: CruxDate };
  };
}

const cache = new TtlCache<CruxRecord>(200);
// CrUX data changes daily at most.
const TTL_MS = 60 * 60_000;
const TIMEOUT_MS = 15_000;

const isoDate = (d?: CruxDate) =>
  d ? `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}` : "";

/** Parses a queryRecord response; undefined when it carries no record. CLS p75 is a string there. */
export function parseCrux(body: unknown, scope: "url" | "origin", key: string): CruxRecord | undefined {
  const record = (body as CruxResponse)?.record;
  if (!record?.metrics) return undefined;
  const metrics: CruxRecord["metrics"] = {};
  for (const name of CRUX_METRICS) {
    const m = record.metrics[name];
    const p75 = Number(m?.percentiles?.p75);
    if (!m || !Number.isFinite(p75)) continue;
    metrics[name] = { p75, histogram: m.histogram ?? [] };
  }
  const period = record.collectionPeriod;
  return {
    scope,
    key,
    ...(record.key?.formFactor ? { formFactor: record.key.formFactor } : {}),
    metrics,
    ...(period?.firstDate && period.lastDate
      ? { collectionPeriod: { firstDate: isoDate(period.firstDate), lastDate: isoDate(period.lastDate) } }
      : {}),
  };
}

/** Queries CrUX for a URL or its origin, all form factors. */
export async function queryCrux(
  deps: ProviderDeps,
  config: SeoConfig,
  scope: "url" | "origin",
  target: string,
  signal?: AbortSignal,
): Promise<ProviderResult<CruxRecord>> {
  const apiKey = config.keys.crux;
  if (!apiKey) {
    return fail(
      "chrome-ux-report",
      "no-key",
      "Chrome UX Report field data needs SEO_CRUX_KEY (free, Google Cloud console: enable the Chrome UX Report API and create an API key)",
    );
  }
  const cacheKey = `${config.endpoints.SEO_CRUX_ENDPOINT} ${scope} ${target}`;
  const hit = cache.get(cacheKey);
  if (hit) return ok("chrome-ux-report", hit, hit.collectionPeriod?.lastDate ?? deps.now().toISOString());
  const answer = await requestJson(deps, {
    source: "chrome-ux-report",
    name: "Chrome UX Report",
    url: `${config.endpoints.SEO_CRUX_ENDPOINT}/records:queryRecord?key=${encodeURIComponent(apiKey)}`,
    init: {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ [scope]: target, metrics: CRUX_METRICS }),
    },
    timeoutMs: config.timeoutMs ?? TIMEOUT_MS,
    keyVar: "SEO_CRUX_KEY",
    secrets: config.secrets,
    noDataStatuses: [404],
    signal,
  });
  if (!answer.ok) {
    return answer.code === "no-data"
      ? fail(
          "chrome-ux-report",
          "no-data",
          `Chrome UX Report has no field data for this ${scope} (too little Chrome traffic in the last 28 days)`,
        )
      : answer;
  }
  const record = parseCrux(answer.value, scope, target);
  if (!record) return fail("chrome-ux-report", "provider-down", "Chrome UX Report answered without a record");
  cache.set(cacheKey, record, TTL_MS);
  return ok("chrome-ux-report", record, record.collectionPeriod?.lastDate ?? answer.at);
}
