/**
 * Bing position of a keyword for a domain, from Bing Webmaster `GetQueryStats` of a site the
 * key has verified: the impression-weighted mean of the weekly average positions.
 * @module
 */
import type { SeoConfig } from "../config.ts";
import { derived } from "../provenance.ts";
import { queryStats, userSites } from "../providers/bing-webmaster.ts";
import { type SourceStatus, statusOf } from "../providers/labels.ts";
import { fail, type ProviderDeps } from "../providers/types.ts";
import { type EngineRank, noRank } from "./google.ts";

const hostOf = (url: string) => URL.parse(url)?.hostname.toLowerCase().replace(/^www\./, "") ?? "";

export async function bingRank(
  deps: { provider: ProviderDeps; config: SeoConfig },
  keyword: string,
  domain: string,
  signal?: AbortSignal,
): Promise<{ rank: EngineRank; status: SourceStatus }> {
  const sites = await userSites(deps.provider, deps.config, signal);
  if (!sites.ok) return { rank: noRank(sites.reason, sites.code), status: statusOf(sites) };
  const site = sites.value.find((s) => s.verified && hostOf(s.url) === domain);
  if (!site) {
    const reason = `Bing Webmaster: ${domain} is not a verified site of this SEO_BING_KEY; add and verify it in Bing Webmaster Tools`;
    return { rank: noRank(reason), status: statusOf(fail("bing-webmaster", "no-data", reason)) };
  }
  const stats = await queryStats(deps.provider, deps.config, site.url, signal);
  if (!stats.ok) return { rank: noRank(stats.reason, stats.code), status: statusOf(stats) };
  const wanted = keyword.trim().toLowerCase();
  const rows = stats.value.filter((r) => r.query.trim().toLowerCase() === wanted && r.avgImpressionPosition);
  const impressions = rows.reduce((sum, r) => sum + r.impressions, 0);
  if (rows.length === 0 || impressions === 0) {
    const reason = `"${keyword}" is not among Bing's query stats for ${site.url} (no impressions recently)`;
    return { rank: { ...noRank(reason), property: site.url }, status: statusOf(stats) };
  }
  const position = rows.reduce((sum, r) => sum + (r.avgImpressionPosition ?? 0) * r.impressions, 0) / impressions;
  const dates = rows.flatMap((r) => (r.date ? [r.date] : [])).sort();
  const period = dates.length ? `${dates[0]}/${dates[dates.length - 1]}` : undefined;
  const label = <T>(value: T, basis: string) => {
    const l = derived(value, basis, "bing-webmaster");
    return period ? { ...l, provenance: { ...l.provenance, at: period } } : l;
  };
  const clicks = rows.reduce((sum, r) => sum + r.clicks, 0);
  return {
    rank: {
      position: label(Math.round(position * 10) / 10, "impression-weighted mean of weekly AvgImpressionPosition"),
      clicks: label(clicks, "sum of weekly clicks"),
      impressions: label(impressions, "sum of weekly impressions"),
      property: site.url,
    },
    status: statusOf(stats),
  };
}
