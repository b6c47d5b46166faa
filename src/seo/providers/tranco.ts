/**
 * Tranco research ranking (no key): `GET /api/ranks/domain/{domain}` answers the domain's rank
 * on recent daily lists. Requests are spaced (the API's free limit is about one a second), and
 * answers may also be kept in an injected persistent store (the shim keeps them on disk, dated).
 * https://tranco-list.eu/
 * @module
 */
import type { SeoConfig } from "../config.ts";
import { TtlCache } from "./cache.ts";
import { requestJson } from "./request.ts";
import { fail, ok, type ProviderDeps, type ProviderResult } from "./types.ts";

export interface TrancoRank {
  domain: string;
  /** Rank on the newest list that has the domain; undefined when the domain is not ranked. */
  rank?: number;
  /** Date of that list (YYYY-MM-DD): the provenance date of the rank. */
  listDate?: string;
}

/** A persistent store of answers (the Node shim keeps a JSON file); optional. */
export interface RankStore {
  get(domain: string): Promise<{ value: TrancoRank; savedAt: string } | undefined>;
  set(domain: string, value: TrancoRank, savedAt: string): Promise<void>;
}

const cache = new TtlCache<TrancoRank>(2000);
// A new list is published daily.
const TTL_MS = 24 * 60 * 60_000;
const TIMEOUT_MS = 15_000;
let lastRequest = 0;
let queue: Promise<void> = Promise.resolve();

/** Parses `{domain, ranks:[{date, rank}]}`, keeping the newest list's rank. */
export function parseTranco(body: unknown, domain: string): TrancoRank | undefined {
  const ranks = (body as { ranks?: unknown })?.ranks;
  if (!Array.isArray(ranks)) return undefined;
  const valid = ranks.filter(
    (r): r is { date: string; rank: number } =>
      typeof r?.date === "string" && typeof r?.rank === "number" && r.rank > 0,
  );
  const newest = valid.sort((a, b) => b.date.localeCompare(a.date))[0];
  return newest ? { domain, rank: newest.rank, listDate: newest.date } : { domain };
}

// Serialises requests so that consecutive ones are at least `gap` ms apart.
function spaced<T>(
  deps: ProviderDeps,
  gap: number,
  work: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const turn = queue.then(async () => {
    const wait = lastRequest + gap - deps.now().getTime();
    if (wait > 0) await deps.sleep(wait, signal);
    lastRequest = deps.now().getTime();
  });
  queue = turn.catch(() => {});
  return turn.then(work);
}

/** The Tranco rank of one normalised domain. */
export async function trancoRank(
  deps: ProviderDeps,
  config: SeoConfig,
  domain: string,
  store?: RankStore,
  signal?: AbortSignal,
): Promise<ProviderResult<TrancoRank>> {
  const base = config.endpoints.SEO_TRANCO_ENDPOINT;
  const hit = cache.get(`${base} ${domain}`);
  if (hit) return ok("tranco", hit, hit.listDate ?? deps.now().toISOString());
  const stored = await store?.get(domain).catch(() => undefined);
  if (stored && deps.now().getTime() - Date.parse(stored.savedAt) < TTL_MS) {
    return ok("tranco", stored.value, stored.value.listDate ?? stored.savedAt);
  }
  const answer = await spaced(
    deps,
    config.trancoIntervalMs,
    () =>
      requestJson(deps, {
        source: "tranco",
        name: "Tranco",
        url: `${base}/ranks/domain/${encodeURIComponent(domain)}`,
        init: { headers: { accept: "application/json" } },
        timeoutMs: config.timeoutMs ?? TIMEOUT_MS,
        secrets: config.secrets,
        signal,
      }),
    signal,
  );
  if (!answer.ok) return answer;
  const rank = parseTranco(answer.value, domain);
  if (!rank) return fail("tranco", "provider-down", "Tranco answered without a ranks list");
  cache.set(`${base} ${domain}`, rank, TTL_MS);
  await store?.set(domain, rank, answer.at).catch(() => {});
  return ok("tranco", rank, rank.listDate ?? answer.at);
}
