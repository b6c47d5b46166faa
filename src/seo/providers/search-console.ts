/**
 * Google Search Console: the properties the service account can see (`GET /sites`) and
 * `searchAnalytics.query` (clicks, impressions, CTR and average position per query or page).
 * https://developers.google.com/webmaster-tools/v1/searchanalytics/query
 * @module
 */
import type { SeoConfig } from "../config.ts";
import { TtlCache } from "./cache.ts";
import { gscAccessToken } from "./google-auth.ts";
import { requestJson } from "./request.ts";
import { fail, ok, type ProviderDeps, type ProviderResult } from "./types.ts";

export interface GscRow {
  keys: string[];
  clicks: number;
  impressions: number;
  ctr: number;
  position: number;
}

interface GscQuery {
  startDate: string;
  endDate: string;
  dimensions: ("query" | "page" | "country" | "device" | "date")[];
  filters?: { dimension: string; operator: "equals" | "contains"; expression: string }[];
  rowLimit: number;
}

const sitesCache = new TtlCache<string[]>(10);
const TIMEOUT_MS = 20_000;

async function call(
  deps: ProviderDeps,
  config: SeoConfig,
  path: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<ProviderResult<unknown>> {
  const token = await gscAccessToken(deps, config, signal);
  if (!token.ok) return token;
  return requestJson(deps, {
    source: "search-console",
    name: "Search Console",
    url: `${config.endpoints.SEO_GSC_ENDPOINT}${path}`,
    init: {
      method: body === undefined ? "GET" : "POST",
      headers: {
        authorization: `Bearer ${token.value}`,
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
    timeoutMs: config.timeoutMs ?? TIMEOUT_MS,
    keyVar: "SEO_GSC_CREDENTIALS",
    secrets: [...config.secrets, token.value],
    signal,
  });
}

/** Properties the credentials can read (unverified ones excluded). */
export async function listSites(
  deps: ProviderDeps,
  config: SeoConfig,
  signal?: AbortSignal,
): Promise<ProviderResult<string[]>> {
  // Partitioned by the private key: what a property shows is private to its users.
  const who = config.gsc && "account" in config.gsc ? config.gsc.account.private_key : "";
  const cacheKey = `${config.endpoints.SEO_GSC_ENDPOINT} ${who}`;
  const hit = who ? sitesCache.get(cacheKey) : undefined;
  if (hit) return ok("search-console", hit, deps.now().toISOString());
  const answer = await call(deps, config, "/sites", undefined, signal);
  if (!answer.ok) return answer;
  const entries = (answer.value as { siteEntry?: { siteUrl?: unknown; permissionLevel?: unknown }[] })
    ?.siteEntry;
  const sites = (Array.isArray(entries) ? entries : [])
    .filter((e) => typeof e?.siteUrl === "string" && e.permissionLevel !== "siteUnverifiedUser")
    .map((e) => e.siteUrl as string);
  sitesCache.set(cacheKey, sites, 10 * 60_000);
  return ok("search-console", sites, answer.at);
}

/** Hostname of a property: `sc-domain:example.com` or `https://www.example.com/`. */
function propertyHost(site: string): { host: string; domainProperty: boolean } | undefined {
  if (site.startsWith("sc-domain:")) return { host: site.slice(10).toLowerCase(), domainProperty: true };
  const url = URL.parse(site);
  return url ? { host: url.hostname.toLowerCase(), domainProperty: false } : undefined;
}

/** Properties covering `domain` (a bare host such as example.com), domain properties first. */
export function propertiesFor(sites: readonly string[], domain: string): string[] {
  const bare = domain.replace(/^www\./, "");
  const scored = sites.flatMap((site) => {
    const p = propertyHost(site);
    if (!p) return [];
    const pBare = p.host.replace(/^www\./, "");
    if (p.domainProperty && (bare === p.host || bare.endsWith(`.${p.host}`))) return [{ site, order: 0 }];
    if (!p.domainProperty && pBare === bare) return [{ site, order: 1 }];
    return [];
  });
  return scored.sort((a, b) => a.order - b.order).map((s) => s.site);
}

/** Runs `searchAnalytics.query` on one property. */
export async function searchAnalytics(
  deps: ProviderDeps,
  config: SeoConfig,
  site: string,
  query: GscQuery,
  signal?: AbortSignal,
): Promise<ProviderResult<GscRow[]>> {
  const { filters, ...asked } = query;
  const body = {
    ...asked,
    type: "web",
    dataState: "all",
    ...(filters ? { dimensionFilterGroups: [{ groupType: "and", filters }] } : {}),
  };
  const answer = await call(
    deps,
    config,
    `/sites/${encodeURIComponent(site)}/searchAnalytics/query`,
    body,
    signal,
  );
  if (!answer.ok) return answer;
  const rows = (answer.value as { rows?: unknown })?.rows;
  if (rows !== undefined && !Array.isArray(rows)) {
    return fail("search-console", "provider-down", "Search Console answered rows in an unexpected format");
  }
  const clean = (rows ?? []).filter(
    (r): r is GscRow =>
      Array.isArray(r?.keys) && typeof r.impressions === "number" && typeof r.position === "number",
  );
  return ok("search-console", clean, answer.at);
}

/** The last `days` days ending the day before `now` (Search Console lags 2-3 days). */
export function dateRange(now: Date, days = 28): { startDate: string; endDate: string } {
  const day = 86_400_000;
  const end = new Date(now.getTime() - day);
  const start = new Date(end.getTime() - (days - 1) * day);
  return { startDate: start.toISOString().slice(0, 10), endDate: end.toISOString().slice(0, 10) };
}
