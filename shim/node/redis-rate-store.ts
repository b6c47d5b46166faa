/**
 * The rate-limit store shared by every instance: Redis through ioredis, one atomic Lua script
 * per request (INCR, and PEXPIRE on the key's first request: a fixed window from the client's
 * first request, as the in-memory limiter counts). ioredis sends it with EVALSHA and falls
 * back to EVAL when the server does not know the script yet (after a restart).
 *
 * Nothing waits on an absent Redis: commands are not queued while disconnected and time out
 * after 500 ms, so the limiter falls back to its local count at once; ioredis keeps
 * reconnecting in the background.
 * @module
 */
import { Redis } from "../../deps-node.ts";
import type { RateLimitStore } from "../../src/shared/http/rate-limit.ts";

const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {count, left}`;

const KEY_PREFIX = "charging:rate:";

export interface RedisRateStore extends RateLimitStore {
  /** Resolves true once connected, false when `waitMs` passed first. */
  ready(waitMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** `redis://user:secret@host:6379/0` shown without credentials. */
export function redisLabel(url: string): string {
  const parsed = new URL(url);
  return `redis at ${parsed.hostname}:${parsed.port || "6379"}`;
}

type HitCommand = (key: string, windowMs: number) => Promise<[number, number]>;

export function createRedisRateStore(url: string): RedisRateStore {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 1000,
    retryStrategy: (times) => Math.min(times * 100, 1000),
  });
  // Outages are reported once by the limiter; ioredis would print every reconnect failure.
  redis.on("error", () => {});
  redis.defineCommand("chargingRateHit", { numberOfKeys: 1, lua: HIT_SCRIPT });
  const hit = (redis as unknown as { chargingRateHit: HitCommand }).chargingRateHit.bind(redis);

  return {
    label: redisLabel(url),
    async increment(key, windowMs) {
      if (redis.status !== "ready") throw new Error(`not connected (${redis.status})`);
      const [count, msLeft] = await hit(KEY_PREFIX + key, windowMs);
      return { count: Number(count), msLeft: Number(msLeft) };
    },
    ready(waitMs) {
      if (redis.status === "ready") return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          redis.off("ready", onReady);
          resolve(false);
        }, waitMs);
        const onReady = () => {
          clearTimeout(timer);
          resolve(true);
        };
        redis.once("ready", onReady);
      });
    },
    async close() {
      redis.disconnect();
    },
  };
}
