/**
 * The keyed keyword sources: the user's own Search Console queries containing the seed
 * (clicks, impressions, CTR, position) and Bing Webmaster weekly demand for exact keywords.
 * @module
 */

import { normaliseDomain } from "../authority/domains.ts";
import type { SeoConfig } from "../config.ts";
import { derived, type Labelled, type Provenance } from "../provenance.ts";
import { keywordStats } from "../providers/bing-webmaster.ts";
import { labelled, type SourceStatus, statusOf } from "../providers/labels.ts";
import { dateRange, type GscRow, listSites, propertiesFor, searchAnalytics } from "../providers/search-console.ts";
import { fail, mapBounded, type ProviderDeps, type ProviderResult } from "../providers/types.ts";

type Deps = { provider: ProviderDeps; config: SeoConfig };

/** A Search Console row (its keys read as the query) on the property that answered it. */
export interface ConsoleQuery extends Omit<GscRow, "keys"> {
  query: string;
  property: string;
  provenance: Provenance;
}

/** At most this many properties are queried when the caller names no site. */
const MAX_PROPERTIES = 3;

/** Search Console queries containing `seed` on `site`'s properties (or the first visible ones). */
export async function consoleQueries(
  deps: Deps,
  seed: string,
  site: string | undefined,
  limit: number,
  signal?: AbortSignal,
): Promise<{ rows: ConsoleQuery[]; status: SourceStatus }> {
  const found = await propertiesToAsk(deps, site, signal);
  if ("status" in found) return { rows: [], status: found.status };
  const range = dateRange(deps.provider.now());
  const answers = await mapBounded(found.properties, 2, (property) =>
    searchAnalytics(
      deps.provider,
      deps.config,
      property,
      {
        ...range,
        dimensions: ["query"],
        filters: [{ dimension: "query", operator: "contains", expression: seed }],
        rowLimit: limit,
      },
      signal,
    ).then((r) => ({ property, r })),
  );
  const at = `${range.startDate}/${range.endDate}`;
  const rows = answers.flatMap(({ property, r }) => (r.ok ? r.value.map((row) => consoleQuery(row, property, at)) : []));
  const failed = answers.find((a) => !a.r.ok);
  const status =
    failed && rows.length === 0 ? statusOf(failed.r) : statusOf(answers[0]?.r as ProviderResult<unknown>);
  return { rows: rows.sort((a, b) => b.impressions - a.impressions).slice(0, limit), status };
}

/**
 * The properties to query (at most MAX_PROPERTIES), or the status that says why there are none:
 * the credentials failed, or they see no property (of `site`, when named).
 */
async function propertiesToAsk(
  deps: Deps,
  site: string | undefined,
  signal?: AbortSignal,
): Promise<{ properties: string[] } | { status: SourceStatus }> {
  const sites = await listSites(deps.provider, deps.config, signal);
  if (!sites.ok) return { status: statusOf(sites) };
  // An unusable site name matches no property, which is then reported, never widened to all.
  const domain = site ? (normaliseDomain(site) ?? site.trim()) : undefined;
  const properties = domain ? propertiesFor(sites.value, domain) : sites.value.slice(0, MAX_PROPERTIES);
  if (properties.length === 0) {
    const why = domain
      ? `the credentials see no Search Console property for ${domain}; add the service account's client_email as a user of that property`
      : "the credentials see no Search Console property; add the service account's client_email as a user of your property";
    return { status: statusOf(fail("search-console", "no-data", `Search Console: ${why}`)) };
  }
  return { properties: properties.slice(0, MAX_PROPERTIES) };
}

/** One Search Console row as a labelled query of `property` over the date range `at`. */
function consoleQuery(row: GscRow, property: string, at: string): ConsoleQuery {
  return {
    query: row.keys[0] ?? "",
    property,
    clicks: row.clicks,
    impressions: row.impressions,
    ctr: row.ctr,
    position: row.position,
    provenance: { kind: "provider", source: "search-console", at },
  };
}

/** Mean weekly Bing impressions of each exact keyword (bounded: the first `max`). */
export async function bingDemand(
  deps: Deps,
  keywords: readonly string[],
  country: string,
  language: string,
  signal?: AbortSignal,
): Promise<{ demand: Map<string, Labelled<number>>; status: SourceStatus }> {
  const market = `${language}-${country.toUpperCase()}`;
  const answers = await mapBounded(keywords, 2, (k) =>
    keywordStats(deps.provider, deps.config, k, country, market, signal),
  );
  const demand = new Map<string, Labelled<number>>();
  keywords.forEach((keyword, i) => {
    const answer = answers[i] as (typeof answers)[number];
    const label = labelled(
      answer,
      (weeks) =>
        weeks.length > 0 ? weeks.reduce((sum, w) => sum + w.impressions, 0) / weeks.length : undefined,
      `Bing Webmaster has no impressions for "${keyword}" (too rare in this market)`,
    );
    demand.set(
      keyword,
      label.value === null
        ? label
        : {
            ...derived(
              Math.round(label.value),
              "mean weekly Bing impressions over the weeks returned",
              "bing-webmaster",
            ),
          },
    );
  });
  const firstFailure = answers.find((a) => !a.ok);
  return { demand, status: statusOf(firstFailure ?? (answers[0] as ProviderResult<unknown>)) };
}
