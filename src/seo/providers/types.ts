/**
 * The interface every provider module shares: what it is given and what it answers.
 * A provider never throws for a provider-side problem; it answers `unavailable` with a reason
 * an agent can act on.
 * @module
 */
import type { ProviderId, UnavailableCode } from "../provenance.ts";

/** What a provider may use; injected so the core stays runtime-free and testable. */
export interface ProviderDeps {
  fetch: typeof fetch;
  now(): Date;
  /** Waits `ms` (for Retry-After and throttling); rejects when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export type ProviderResult<T> =
  | { ok: true; value: T; source: ProviderId; at: string }
  | { ok: false; source: ProviderId; code: UnavailableCode; reason: string };

export const ok = <T>(source: ProviderId, value: T, at: string): ProviderResult<T> => ({
  ok: true,
  value,
  source,
  at,
});

export const fail = <T = never>(
  source: ProviderId,
  code: UnavailableCode,
  reason: string,
): ProviderResult<T> => ({ ok: false, source, code, reason });

/** Reports progress of long work (requests done of total) to the client. */
export type Progress = (done: number, total: number, message: string) => void;

/** Runs `work` over `items` with at most `limit` in flight; results keep the input order. */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
