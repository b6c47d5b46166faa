/**
 * Best-effort rank check: Google from Search Console, Bing from Bing Webmaster, for sites the
 * configured credentials can see. Search result pages are never scraped (against the engines'
 * terms), so without those keys the answer is an honest "unavailable" naming the key to set.
 * @module
 */
import type { SeoConfig } from "../config.ts";
import type { Labelled } from "../provenance.ts";
import { unavailable } from "../provenance.ts";
import type { SourceStatus } from "../providers/labels.ts";
import type { ProviderDeps } from "../providers/types.ts";
import { bingRank } from "./bing.ts";
import { type EngineRank, googleRank } from "./google.ts";

interface RankReport {
  keyword: string;
  domain: string;
  /** The best available answer: Google's when it has one, else Bing's. */
  position: Labelled<number>;
  engine?: "google" | "bing";
  google: EngineRank;
  bing: EngineRank;
  sources: SourceStatus[];
}

export async function checkRank(
  deps: { provider: ProviderDeps; config: SeoConfig },
  keyword: string,
  domain: string,
  signal?: AbortSignal,
): Promise<RankReport> {
  const [google, bing] = await Promise.all([
    googleRank(deps, keyword, domain, signal),
    bingRank(deps, keyword, domain, signal),
  ]);
  const engine =
    google.rank.position.value !== null ? "google" : bing.rank.position.value !== null ? "bing" : undefined;
  const position = engine
    ? engine === "google"
      ? google.rank.position
      : bing.rank.position
    : noAnswer(google, bing);
  return {
    keyword,
    domain,
    position,
    ...(engine ? { engine } : {}),
    google: google.rank,
    bing: bing.rank,
    sources: [google.status, bing.status],
  };
}

function noAnswer(...engines: { status: SourceStatus }[]): Labelled<number> {
  const keyless = engines.every((e) => e.status.code === "no-key");
  const why = engines.map((e) => e.status.reason).join(" ");
  return unavailable(
    keyless
      ? "No rank source is configured: set SEO_GSC_CREDENTIALS (Google Search Console, for your verified properties) or SEO_BING_KEY (Bing Webmaster, for your verified sites). Result pages are not scraped"
      : `No source knows this position. ${why}`,
    keyless ? "no-key" : "no-data",
  );
}
