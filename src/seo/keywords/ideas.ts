/**
 * Keyword ideas from every configured source: keyless autocomplete always; the user's own
 * Search Console queries with SEO_GSC_CREDENTIALS; Bing Webmaster demand with SEO_BING_KEY.
 * @module
 */
import type { SeoConfig } from "../config.ts";
import type { Labelled, Provenance, ProviderId } from "../provenance.ts";
import type { Locale } from "../providers/autocomplete.ts";
import type { SourceStatus } from "../providers/labels.ts";
import type { Progress, ProviderDeps } from "../providers/types.ts";
import { autocompleteIdeas } from "./autocomplete-ideas.ts";
import { expansions, keywordKey } from "./expand.ts";
import { bingDemand, type ConsoleQuery, consoleQueries } from "./keyed-sources.ts";

/** Bing demand is looked up for the seed and this many top ideas (one request each). */
const BING_LOOKUPS = 5;

export interface Idea {
  keyword: string;
  /** The first source that suggested it. */
  provenance: Provenance;
  alsoFrom?: ProviderId[];
  searchConsole?: Omit<ConsoleQuery, "query">;
  bingWeeklyImpressions?: Labelled<number>;
}

type Deps = { provider: ProviderDeps; config: SeoConfig };

export interface IdeasRequest {
  query: string;
  locale: Locale;
  limit: number;
  expand: boolean;
  site?: string;
}

export interface IdeasReport {
  query: string;
  seedBingWeeklyImpressions?: Labelled<number>;
  ideas: Idea[];
  sources: SourceStatus[];
  expansionQueries: number;
}

export async function keywordIdeas(
  deps: Deps,
  request: IdeasRequest,
  signal?: AbortSignal,
  progress?: Progress,
): Promise<IdeasReport> {
  const queries = expansions(request.query, request.locale.language, request.expand);
  const [auto, gsc] = await Promise.all([
    autocompleteIdeas(deps, queries, request.locale, signal, progress),
    deps.config.gsc ? consoleQueries(deps, request.query, request.site, request.limit, signal) : undefined,
  ]);
  const ideas = ownQueriesFirst(gsc?.rows ?? [], suggestions(auto.ideas)).slice(0, request.limit);
  const sources = [...auto.sources, ...(gsc ? [gsc.status] : [])];
  const bing = deps.config.keys.bing ? await addBingDemand(deps, request, ideas, signal) : undefined;
  if (bing) sources.push(bing.status);
  return {
    query: request.query,
    ...(bing?.seed ? { seedBingWeeklyImpressions: bing.seed } : {}),
    ideas,
    sources,
    expansionQueries: queries.length,
  };
}

/** Autocomplete's ideas by keyword key, each labelled with the first source that suggested it. */
function suggestions(raw: readonly { keyword: string; sources: ProviderId[] }[]): Map<string, Idea> {
  const byKey = new Map<string, Idea>();
  for (const idea of raw) {
    const [first, ...rest] = idea.sources as [ProviderId, ...ProviderId[]];
    byKey.set(keywordKey(idea.keyword), {
      keyword: idea.keyword,
      provenance: { kind: "provider", source: first },
      ...(rest.length ? { alsoFrom: rest } : {}),
    });
  }
  return byKey;
}

/**
 * The user's own queries with real impressions outrank suggestions: they come first, each
 * taking over the suggestion of the same keyword (its sources kept in alsoFrom).
 */
function ownQueriesFirst(rows: readonly ConsoleQuery[], byKey: Map<string, Idea>): Idea[] {
  const own: Idea[] = [];
  for (const row of rows) {
    const { query, ...metrics } = row;
    const key = keywordKey(query);
    const seen = byKey.get(key);
    byKey.delete(key);
    own.push({
      keyword: query,
      provenance: row.provenance,
      ...(seen ? { alsoFrom: [seen.provenance.source as ProviderId, ...(seen.alsoFrom ?? [])] } : {}),
      searchConsole: metrics,
    });
  }
  return [...own, ...byKey.values()];
}

/** Bing demand for the seed (returned) and the top ideas (set on them): one request each, so only a few. */
async function addBingDemand(deps: Deps, request: IdeasRequest, ideas: Idea[], signal?: AbortSignal) {
  const targets = [request.query, ...ideas.slice(0, BING_LOOKUPS).map((i) => i.keyword)];
  const bing = await bingDemand(deps, targets, request.locale.country, request.locale.language, signal);
  for (const idea of ideas) {
    const label = bing.demand.get(idea.keyword);
    if (label) idea.bingWeeklyImpressions = label;
  }
  return { seed: bing.demand.get(request.query), status: bing.status };
}
