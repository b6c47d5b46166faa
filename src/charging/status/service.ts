/**
 * Site status: a live observation when a deployer configured a live feed and it answered
 * within the refresh SLO, otherwise the registry status of the static cut, judged for
 * staleness against the 60-minute SLO with the injected clock.
 * @module
 */
import { ApiError } from "../../shared/errors.ts";
import type { Attribution, StatusValue } from "../data/model.ts";
import { type Store, unknownSite } from "../search/store.ts";
import { Lru } from "../../shared/lru.ts";
import { isoMillis, REFRESH_SLO_MS, staleness } from "./staleness.ts";

export interface StatusRecord {
  id: string;
  status: StatusValue;
  /** `live`: observed by the live feed; `registry`: what the open data says. */
  kind: "live" | "registry";
  retrievedAt: string;
  /** Source label: the site's source (`ocm`, `osm`) for registry data, the feed's label for live data. */
  source: string;
  stale: boolean;
  staleReason?: string;
  attribution: Attribution;
}

export interface LiveObservation {
  status: StatusValue;
  /** When the observation was fetched (ISO 8601 UTC). */
  retrievedAt: string;
}

/** A live status source. `lookup` answers undefined when it has nothing for the site and throws on failure. */
export interface LiveFeed {
  label: string;
  attribution: Attribution;
  lookup(id: string, signal?: AbortSignal): Promise<LiveObservation | undefined>;
}

interface StatusDeps {
  now(): Date;
  live?: LiveFeed;
  /** Dataset import time: `retrievedAt` of rows that carry no date of their own. */
  importedAt?: string;
  /** A cached live value younger than this is served without asking the feed again (default 60 s). */
  liveReuseMs?: number;
  /** Sites whose last good live value is kept (default 10,000). */
  cacheSize?: number;
}

export interface StatusService {
  statusOf(id: string, signal?: AbortSignal): Promise<StatusRecord>;
}

/** The record of a live observation (fresh: the reader keeps only values within the SLO). */
function liveRecord(id: string, live: LiveFeed, seen: LiveObservation): StatusRecord {
  return {
    id,
    status: seen.status,
    kind: "live",
    retrievedAt: seen.retrievedAt,
    source: live.label,
    stale: false,
    attribution: live.attribution,
  };
}

type LiveRead = { seen: LiveObservation; why?: undefined } | { seen?: undefined; why: string };

/**
 * Reads a site's live value: a cached one younger than `liveReuseMs`, else the feed's answer
 * (kept as the site's last good value), else on a feed failure the last good value while it is
 * within the SLO; otherwise the reason there is none (for the stale reason).
 */
function createLiveReader(live: LiveFeed, deps: StatusDeps): (id: string, signal?: AbortSignal) => Promise<LiveRead> {
  const cache = new Lru<string, LiveObservation>(deps.cacheSize ?? 10_000);
  const reuseMs = deps.liveReuseMs ?? 60_000;
  const ageMs = (seen: LiveObservation) => deps.now().getTime() - Date.parse(seen.retrievedAt);
  return async (id, signal) => {
    const cached = cache.get(id);
    if (cached && ageMs(cached) <= reuseMs) return { seen: cached };
    try {
      const seen = await live.lookup(id, signal);
      if (!seen) return { why: "the live feed has no status for this site" };
      cache.set(id, seen);
      return { seen };
    } catch (err) {
      if (err instanceof ApiError && err.code === "UPSTREAM_BLOCKED") throw err;
      if (cached && ageMs(cached) <= REFRESH_SLO_MS) return { seen: cached };
      // Feed errors name themselves ("Live feed: HTTP 500"); the reason says it once.
      const detail = err instanceof Error ? err.message.replace(/^live feed:\s*/i, "") : "unknown error";
      return { why: `live feed unavailable: ${detail}` };
    }
  };
}

export function createStatusService(store: Store, deps: StatusDeps): StatusService {
  const fallbackTime = isoMillis(deps.importedAt ?? new Date(0));
  const { live } = deps;
  const readLive = live && createLiveReader(live, deps);
  return {
    async statusOf(id, signal) {
      const site = store.get(id);
      if (!site) throw unknownSite(id);
      let why: string | undefined;
      if (live && readLive) {
        const result = await readLive(id, signal);
        if (result.seen) return liveRecord(id, live, result.seen);
        why = result.why;
      }
      const retrievedAt = site.lastUpdated ? isoMillis(site.lastUpdated) : fallbackTime;
      return {
        id,
        status: site.status,
        kind: "registry",
        retrievedAt,
        source: site.source,
        ...staleness(retrievedAt, deps.now(), why),
        attribution: store.attributionFor(site),
      };
    },
  };
}
