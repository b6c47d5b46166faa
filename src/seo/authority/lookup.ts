/**
 * Authority signals for a list of domains: Open PageRank (one batched request) and the
 * Tranco rank (one spaced request per domain), each value labelled with its source and date.
 * @module
 */
import type { SeoConfig } from "../config.ts";
import type { Labelled } from "../provenance.ts";
import { labelled, mergeStatuses, type SourceStatus, statusOf } from "../providers/labels.ts";
import { getPageRank, type PageRankBatch } from "../providers/open-pagerank.ts";
import { type RankStore, trancoRank } from "../providers/tranco.ts";
import type { Progress, ProviderDeps, ProviderResult } from "../providers/types.ts";

export interface DomainAuthority {
  domain: string;
  /** Open PageRank, 0-10 with decimals. */
  pageRank: Labelled<number>;
  /** Open PageRank as an integer 0-10. */
  pageRankInteger: Labelled<number>;
  /** Open PageRank's global rank of the domain (1 = strongest). */
  openPageRankRank: Labelled<number>;
  /** Rank on the Tranco research list (1 = most popular); the date is the list's. */
  trancoRank: Labelled<number>;
}

interface AuthorityReport {
  domains: DomainAuthority[];
  sources: SourceStatus[];
}

export interface AuthorityDeps {
  provider: ProviderDeps;
  config: SeoConfig;
  rankStore?: RankStore;
}

function withDate(batch: ProviderResult<PageRankBatch>): ProviderResult<PageRankBatch> {
  // Open PageRank's data date ("13th Jun 2025") is more telling than our fetch time.
  return batch.ok && batch.value.lastUpdated ? { ...batch, at: batch.value.lastUpdated } : batch;
}

/** Looks up every domain (normalised, deduplicated) in both sources. */
export async function lookupAuthority(
  deps: AuthorityDeps,
  domains: readonly string[],
  signal?: AbortSignal,
  progress: Progress = () => {},
): Promise<AuthorityReport> {
  let done = 0;
  const [opr, tranco] = await Promise.all([
    getPageRank(deps.provider, deps.config, domains, signal).then(withDate),
    // Tranco is asked one domain a second: report each answer.
    Promise.all(
      domains.map((d) =>
        trancoRank(deps.provider, deps.config, d, deps.rankStore, signal).then((rank) => {
          progress(++done, domains.length, `Tranco: ${done} of ${domains.length} domains`);
          return rank;
        }),
      ),
    ),
  ]);
  const rows = domains.map((domain, i) => {
    const row = opr.ok ? opr.value.rows.find((r) => r.domain === domain) : undefined;
    const notRanked = `Open PageRank has no data for ${domain}`;
    const rank = tranco[i] as (typeof tranco)[number];
    return {
      domain,
      pageRank: labelled(opr, () => row?.pageRankDecimal, notRanked),
      pageRankInteger: labelled(opr, () => row?.pageRankInteger, notRanked),
      openPageRankRank: labelled(opr, () => row?.rank, notRanked),
      trancoRank: labelled(
        rank,
        (r) => r.rank,
        `${domain} is not on the recent Tranco lists (top 1 million)`,
      ),
    };
  });
  return { domains: rows, sources: mergeStatuses([statusOf(opr), ...tranco.map(statusOf)]) };
}
