/**
 * Google position of a keyword for a domain, from Search Console: the average position of the
 * exact query on the property covering the domain over the last 28 days, plus its top pages.
 * Only properties the credentials can see answer: anything more would mean scraping result
 * pages, which the engines' terms forbid.
 * @module
 */
import type { SeoConfig } from "../config.ts";
import { type Labelled, type UnavailableCode, unavailable } from "../provenance.ts";
import { type SourceStatus, statusOf } from "../providers/labels.ts";
import { dateRange, type GscRow, listSites, propertiesFor, searchAnalytics } from "../providers/search-console.ts";
import { fail, type ProviderDeps } from "../providers/types.ts";

export interface EngineRank {
  position: Labelled<number>;
  clicks: Labelled<number>;
  impressions: Labelled<number>;
  /** Where the number comes from: a Search Console property or a Bing Webmaster site. */
  property?: string;
  topPages?: { page: string; position: number; impressions: number; clicks: number }[];
}

export const noRank = (reason: string, code: UnavailableCode = "no-data"): EngineRank => ({
  position: unavailable(reason, code),
  clicks: unavailable(reason, code),
  impressions: unavailable(reason, code),
});

type Deps = { provider: ProviderDeps; config: SeoConfig };

const tenths = (value: number) => Math.round(value * 10) / 10;

function topPagesOf(rows: GscRow[]): Pick<EngineRank, "topPages"> {
  if (rows.length === 0) return {};
  return {
    topPages: rows.map((p) => ({
      page: p.keys[0] ?? "",
      position: tenths(p.position),
      impressions: p.impressions,
      clicks: p.clicks,
    })),
  };
}

/** The rank from the query's one row over `range`, with the pages it ranks with when known. */
function rankOf(row: GscRow, property: string, range: { startDate: string; endDate: string }, pages: GscRow[]): EngineRank {
  const provenance = {
    kind: "provider" as const,
    source: "search-console" as const,
    at: `${range.startDate}/${range.endDate}`,
  };
  return {
    position: { value: tenths(row.position), provenance: { ...provenance, basis: "average position over the period" } },
    clicks: { value: row.clicks, provenance },
    impressions: { value: row.impressions, provenance },
    property,
    ...topPagesOf(pages),
  };
}

export async function googleRank(
  deps: Deps,
  keyword: string,
  domain: string,
  signal?: AbortSignal,
): Promise<{ rank: EngineRank; status: SourceStatus }> {
  const sites = await listSites(deps.provider, deps.config, signal);
  if (!sites.ok) return { rank: noRank(sites.reason, sites.code), status: statusOf(sites) };
  const property = propertiesFor(sites.value, domain)[0];
  if (!property) {
    const reason = `Search Console: the credentials see no property for ${domain}; add the service account's client_email as a user of it`;
    return { rank: noRank(reason), status: statusOf(fail("search-console", "no-data", reason)) };
  }
  const range = dateRange(deps.provider.now());
  const filters = [{ dimension: "query", operator: "equals" as const, expression: keyword }];
  const query = (dimension: "query" | "page", rowLimit: number) =>
    searchAnalytics(deps.provider, deps.config, property, { ...range, dimensions: [dimension], filters, rowLimit }, signal);
  const [overall, pages] = await Promise.all([query("query", 1), query("page", 5)]);
  if (!overall.ok) return { rank: noRank(overall.reason, overall.code), status: statusOf(overall) };
  const row = overall.value[0];
  if (!row) {
    const reason = `"${keyword}" had no Google impressions for ${property} from ${range.startDate} to ${range.endDate} (not ranking, or below Search Console's anonymisation floor)`;
    return { rank: { ...noRank(reason), property }, status: statusOf(overall) };
  }
  return { rank: rankOf(row, property, range, pages.ok ? pages.value : []), status: statusOf(overall) };
}
