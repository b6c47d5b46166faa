/**
 * Bing Webmaster Tools API (JSON endpoints, `apikey` query parameter): keyword demand
 * (`GetKeywordStats`), a verified site's own query positions (`GetQueryStats`) and the sites
 * the key can see (`GetUserSites`). SEO_BING_KEY is a Bing Webmaster API key: the Bing Web
 * Search API it used to name was retired on 2025-08-11.
 * https://learn.microsoft.com/en-us/bingwebmaster/
 * @module
 */
import type { SeoConfig } from "../config.ts";
import { TtlCache } from "./cache.ts";
import { requestJson } from "./request.ts";
import { fail, ok, type ProviderDeps, type ProviderResult } from "./types.ts";

interface KeywordWeek {
  query: string;
  impressions: number;
  broadImpressions: number;
  date?: string;
}

interface QueryStat {
  query: string;
  impressions: number;
  clicks: number;
  avgImpressionPosition?: number;
  avgClickPosition?: number;
  date?: string;
}

const cache = new TtlCache<unknown>(500);
const TTL_MS = 60 * 60_000;
const TIMEOUT_MS = 15_000;
const NO_KEY =
  "Bing Webmaster data needs SEO_BING_KEY (a Bing Webmaster Tools API key: Settings > API access; the old Bing Web Search API is retired)";

/** Bing's WCF JSON dates: "/Date(1316156400000-0700)/" -> YYYY-MM-DD. */
export function bingDate(value: unknown): string | undefined {
  const match = typeof value === "string" ? /\/Date\((-?\d+)/.exec(value) : null;
  return match?.[1] ? new Date(Number(match[1])).toISOString().slice(0, 10) : undefined;
}

async function get(
  deps: ProviderDeps,
  config: SeoConfig,
  method: string,
  params: Record<string, string>,
  signal?: AbortSignal,
): Promise<ProviderResult<unknown[]>> {
  const apiKey = config.keys.bing;
  if (!apiKey) return fail("bing-webmaster", "no-key", NO_KEY);
  const base = config.endpoints.SEO_BING_ENDPOINT;
  const query = new URLSearchParams(params);
  // Partitioned by key: query stats and sites are private to the key's account.
  const cacheKey = `${apiKey} ${base}/${method}?${query}`;
  const hit = cache.get(cacheKey) as unknown[] | undefined;
  if (hit) return ok("bing-webmaster", hit, deps.now().toISOString());
  query.set("apikey", apiKey);
  const answer = await requestJson(deps, {
    source: "bing-webmaster",
    name: "Bing Webmaster",
    url: `${base}/${method}?${query}`,
    init: { headers: { accept: "application/json" } },
    timeoutMs: config.timeoutMs ?? TIMEOUT_MS,
    keyVar: "SEO_BING_KEY",
    secrets: config.secrets,
    signal,
  });
  if (!answer.ok) return answer;
  const rows = (answer.value as { d?: unknown })?.d;
  if (!Array.isArray(rows))
    return fail("bing-webmaster", "provider-down", "Bing Webmaster answered without a d list");
  cache.set(cacheKey, rows, TTL_MS);
  return ok("bing-webmaster", rows, answer.at);
}

type Row = Record<string, unknown>;
const n = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : 0);

/** Weekly Bing impressions of one exact query in a market. */
export async function keywordStats(
  deps: ProviderDeps,
  config: SeoConfig,
  q: string,
  country: string,
  language: string,
  signal?: AbortSignal,
): Promise<ProviderResult<KeywordWeek[]>> {
  const answer = await get(deps, config, "GetKeywordStats", { q, country, language }, signal);
  if (!answer.ok) return answer;
  const weeks = (answer.value as Row[]).map((r) => ({
    query: String(r.Query ?? q),
    impressions: n(r.Impressions),
    broadImpressions: n(r.BroadImpressions),
    ...(bingDate(r.Date) ? { date: bingDate(r.Date) } : {}),
  }));
  return ok("bing-webmaster", weeks, answer.at);
}

/** Sites the key can see, with whether Bing has verified them. */
export async function userSites(
  deps: ProviderDeps,
  config: SeoConfig,
  signal?: AbortSignal,
): Promise<ProviderResult<{ url: string; verified: boolean }[]>> {
  const answer = await get(deps, config, "GetUserSites", {}, signal);
  if (!answer.ok) return answer;
  const sites = (answer.value as Row[])
    .filter((r) => typeof r.Url === "string")
    .map((r) => ({ url: r.Url as string, verified: r.IsVerified !== false }));
  return ok("bing-webmaster", sites, answer.at);
}

/** Query statistics of a verified site (weekly rows). */
export async function queryStats(
  deps: ProviderDeps,
  config: SeoConfig,
  siteUrl: string,
  signal?: AbortSignal,
): Promise<ProviderResult<QueryStat[]>> {
  const answer = await get(deps, config, "GetQueryStats", { siteUrl }, signal);
  if (!answer.ok) return answer;
  const stats = (answer.value as Row[])
    .filter((r) => typeof r.Query === "string")
    .map((r) => ({
      query: r.Query as string,
      impressions: n(r.Impressions),
      clicks: n(r.Clicks),
      ...(typeof r.AvgImpressionPosition === "number" && r.AvgImpressionPosition > 0
        ? { avgImpressionPosition: r.AvgImpressionPosition }
        : {}),
      ...(typeof r.AvgClickPosition === "number" && r.AvgClickPosition > 0
        ? { avgClickPosition: r.AvgClickPosition }
        : {}),
      ...(bingDate(r.Date) ? { date: bingDate(r.Date) } : {}),
    }));
  return ok("bing-webmaster", stats, answer.at);
}
