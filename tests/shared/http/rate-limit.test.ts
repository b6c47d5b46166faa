import assert from "node:assert/strict";
import { test } from "node:test";
import { createRateLimiter, createSharedRateLimiter } from "../../../src/shared/http/rate-limit.ts";

test("createRateLimiter() allows `limit` requests per window, then refuses with seconds to wait", async () => {
  let now = 1_000_000;
  const limiter = createRateLimiter({ limit: 60, windowMs: 60_000, maxClients: 10, now: () => now });
  for (let i = 0; i < 60; i++) assert.equal((await limiter.hit("a")).allowed, true);
  now += 15_500;
  const refused = await limiter.hit("a");
  assert.equal(refused.allowed, false);
  assert.equal(refused.retryAfterSeconds, 45);
  assert.equal(refused.remaining, 0);
  assert.equal((await limiter.hit("b")).allowed, true, "another client has its own window");
  now += 44_500;
  assert.equal((await limiter.hit("a")).allowed, true, "a new window starts once the old one is over");
});

test("createRateLimiter() keeps memory bounded with 100k distinct clients", async () => {
  let now = 0;
  const limiter = createRateLimiter({ limit: 60, windowMs: 60_000, maxClients: 1000, now: () => now });
  for (let i = 0; i < 100_000; i++) {
    await limiter.hit(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    if (i % 1000 === 0) now += 1;
  }
  assert.ok(limiter.size <= 1000, `size ${limiter.size}`);
  now += 60_000;
  await limiter.hit("fresh");
  assert.equal(limiter.size, 1, "expired windows are dropped first");
});

test("createRateLimiter() keeps a hot client's count while others churn, until it is the oldest", async () => {
  const now = 0;
  const limiter = createRateLimiter({ limit: 2, windowMs: 60_000, maxClients: 3, now: () => now });
  await limiter.hit("hot");
  await limiter.hit("hot");
  assert.equal((await limiter.hit("hot")).allowed, false);
  await limiter.hit("x");
  await limiter.hit("y");
  assert.equal((await limiter.hit("hot")).allowed, false);
  await limiter.hit("z");
  assert.equal(limiter.size, 3);
  assert.equal((await limiter.hit("hot")).allowed, true, "evicted as the oldest window, it starts afresh");
});

test("createSharedRateLimiter() counts in the shared store, falls back to the local limit once, and recovers", async () => {
  const counts = new Map<string, number>();
  let up = true;
  let clock = 0;
  let calls = 0;
  const store = {
    label: "test store",
    async increment(key: string) {
      calls++;
      if (!up) throw new Error("connection refused");
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return { count: counts.get(key) as number, msLeft: 30_500 };
    },
  };
  const lines: string[] = [];
  const limiter = createSharedRateLimiter({ limit: 2, windowMs: 60_000, maxClients: 10, store, log: (l) => lines.push(l), now: () => clock });
  assert.deepEqual(await limiter.hit("a"), { allowed: true, retryAfterSeconds: 31, remaining: 1 });
  counts.set("a", 5);
  assert.equal((await limiter.hit("a")).allowed, false, "the store's count decides, whoever counted it");
  up = false;
  assert.equal((await limiter.hit("a")).allowed, true, "store down: the local window of this instance");
  const probes = calls;
  assert.equal((await limiter.hit("a")).allowed, true);
  assert.equal((await limiter.hit("a")).allowed, false, "the local limit still holds");
  assert.equal(calls, probes, "while down, requests do not wait on the store");
  assert.deepEqual(lines, ["rate limit: test store unreachable (connection refused); counting per instance until it answers"]);
  up = true;
  await limiter.hit("b");
  assert.equal(lines.length, 1, "not probed again within a second");
  clock += 1000;
  assert.equal((await limiter.hit("b")).allowed, true);
  assert.equal(lines.length, 2);
  assert.match(lines[1] as string, /test store answers again; counting shared/);
  up = false;
  await limiter.hit("c");
  assert.equal(lines.length, 3, "a second outage is reported again");
});
