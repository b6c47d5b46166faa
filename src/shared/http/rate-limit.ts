/**
 * Per-client request rate limit with a fixed window that starts at the client's first request.
 * Memory stays bounded: at most `maxClients` windows are kept; when full, expired windows go
 * first, then the oldest one (that client simply starts a fresh window).
 * @module
 */

export interface RateLimitOptions {
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
  hit(client: string): RateDecision;
  /** Clients currently remembered. */
  readonly size: number;
}

interface Window {
  start: number;
  count: number;
}

/** Creates a limiter; `hit` counts one request and says whether it may proceed. */
export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const { limit, windowMs, maxClients, now = Date.now } = options;
  // Insertion order equals window start order, so expired windows sit at the front.
  const windows = new Map<string, Window>();

  const makeRoom = (at: number) => {
    for (const [key, window] of windows) {
      if (windows.size < maxClients && at - window.start < windowMs) return;
      windows.delete(key);
    }
  };

  const hit = (client: string): RateDecision => {
    const at = now();
    let window = windows.get(client);
    if (window === undefined || at - window.start >= windowMs) {
      if (window !== undefined) windows.delete(client);
      else if (windows.size >= maxClients) makeRoom(at);
      window = { start: at, count: 0 };
      windows.set(client, window);
    }
    window.count++;
    const retryAfterSeconds = Math.max(1, Math.ceil((window.start + windowMs - at) / 1000));
    return {
      allowed: window.count <= limit,
      retryAfterSeconds,
      remaining: Math.max(0, limit - window.count),
    };
  };

  return {
    hit,
    get size() {
      return windows.size;
    },
  };
}
