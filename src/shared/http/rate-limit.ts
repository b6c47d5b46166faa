/**
 * Per-client request rate limit with a fixed window that starts at the client's first request.
 *
 * Two limiters share one interface (`hit` is async):
 * - `createRateLimiter`: in memory, per process (the default, and what Workers builds use).
 *   Memory stays bounded: at most `maxClients` windows are kept; when full, expired windows go
 *   first, then the oldest one (that client simply starts a fresh window).
 * - `createSharedRateLimiter`: counts in a `RateLimitStore` shared by every instance (Redis in
 *   the Node adapter), so N instances together allow `limit` per window, not N × `limit`.
 *   When the store fails, each instance falls back to its own in-memory limit and says so once;
 *   while it is down, one request a second probes it and the others count locally at once (a
 *   hung store would otherwise cost every request its timeout); when the store answers again,
 *   it says so and counts shared again. A store failure is never a failed request.
 * @module
 */
import { messageOf } from "../errors.ts";

interface RateLimitOptions {
  /** Requests allowed per window and client. */
  limit: number;
  windowMs: number;
  /** Upper bound on the number of clients remembered at once. */
  maxClients: number;
  /** Milliseconds clock (injected for tests). */
  now?: () => number;
}

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until the client's window resets (at least 1). */
  retryAfterSeconds: number;
  remaining: number;
}

export interface RateLimiter {
  /** Counts one request of `client` and says whether it may proceed. */
  hit(client: string): Promise<RateDecision>;
}

/** The in-memory limiter also tells how many clients it remembers. */
interface MemoryRateLimiter extends RateLimiter {
  readonly size: number;
}

interface Window {
  start: number;
  count: number;
}

function decide(limit: number, count: number, msLeft: number): RateDecision {
  return {
    allowed: count <= limit,
    retryAfterSeconds: Math.max(1, Math.ceil(msLeft / 1000)),
    remaining: Math.max(0, limit - count),
  };
}

/** Creates an in-memory limiter; `hit` counts one request and says whether it may proceed. */
export function createRateLimiter(options: RateLimitOptions): MemoryRateLimiter {
  const { limit, windowMs, maxClients, now = Date.now } = options;
  // Insertion order equals window start order, so expired windows sit at the front.
  const windows = new Map<string, Window>();

  const makeRoom = (at: number) => {
    for (const [key, window] of windows) {
      if (windows.size < maxClients && at - window.start < windowMs) return;
      windows.delete(key);
    }
  };

  const count = (client: string): RateDecision => {
    const at = now();
    let window = windows.get(client);
    if (window === undefined || at - window.start >= windowMs) {
      if (window !== undefined) windows.delete(client);
      else if (windows.size >= maxClients) makeRoom(at);
      window = { start: at, count: 0 };
      windows.set(client, window);
    }
    window.count++;
    return decide(limit, window.count, window.start + windowMs - at);
  };

  return {
    hit: (client) => Promise.resolve(count(client)),
    get size() {
      return windows.size;
    },
  };
}

/** A counter shared by every instance: one fixed window per key, counted atomically. */
export interface RateLimitStore {
  /** Where it is, for log lines (never credentials). */
  readonly label: string;
  /**
   * Counts one request for `key`; the window starts with the key's first request and lasts
   * `windowMs`. Answers the count in the window so far and the milliseconds it has left.
   * Rejects when the store cannot answer (unreachable, timed out).
   */
  increment(key: string, windowMs: number): Promise<{ count: number; msLeft: number }>;
}

interface SharedRateLimitOptions extends RateLimitOptions {
  store: RateLimitStore;
  /** Where the fall-back and recovery notices go. */
  log: (line: string) => void;
  /** While the store is down, how often one request probes it (default 1000 ms). */
  probeEveryMs?: number;
}

/** A limiter counting in `store`, with the in-memory limiter as the fall-back while the store fails. */
export function createSharedRateLimiter(options: SharedRateLimitOptions): RateLimiter {
  const { store, log, limit, windowMs, now = Date.now, probeEveryMs = 1000 } = options;
  const local = createRateLimiter(options);
  let falling = false;
  let probeAt = 0;

  const hit = async (client: string): Promise<RateDecision> => {
    if (falling && now() < probeAt) return local.hit(client);
    let counted: { count: number; msLeft: number };
    try {
      counted = await store.increment(client, windowMs);
    } catch (err) {
      probeAt = now() + probeEveryMs;
      if (!falling) {
        falling = true;
        const why = messageOf(err);
        log(`rate limit: ${store.label} unreachable (${why}); counting per instance until it answers`);
      }
      return local.hit(client);
    }
    if (falling) {
      falling = false;
      log(`rate limit: ${store.label} answers again; counting shared across instances`);
    }
    return decide(limit, counted.count, counted.msLeft);
  };

  return { hit };
}
