import assert from "node:assert/strict";
import { test } from "node:test";
import { createRateLimiter } from "../../src/shared/http/rate-limit.ts";

test("createRateLimiter() allows `limit` requests per window, then refuses with seconds to wait", () => {
  let now = 1_000_000;
  const limiter = createRateLimiter({ limit: 60, windowMs: 60_000, maxClients: 10, now: () => now });
  for (let i = 0; i < 60; i++) assert.equal(limiter.hit("a").allowed, true);
  now += 15_500;
  const refused = limiter.hit("a");
  assert.equal(refused.allowed, false);
  assert.equal(refused.retryAfterSeconds, 45);
  assert.equal(refused.remaining, 0);
  assert.equal(limiter.hit("b").allowed, true, "another client has its own window");
  now += 44_500;
  assert.equal(limiter.hit("a").allowed, true, "a new window starts once the old one is over");
});

test("createRateLimiter() keeps memory bounded with 100k distinct clients", () => {
  let now = 0;
  const limiter = createRateLimiter({ limit: 60, windowMs: 60_000, maxClients: 1000, now: () => now });
  for (let i = 0; i < 100_000; i++) {
    limiter.hit(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    if (i % 1000 === 0) now += 1;
  }
  assert.ok(limiter.size <= 1000, `size ${limiter.size}`);
  now += 60_000;
  limiter.hit("fresh");
  assert.equal(limiter.size, 1, "expired windows are dropped first");
});

test("createRateLimiter() keeps a hot client's count while others churn, until it is the oldest", () => {
  const now = 0;
  const limiter = createRateLimiter({ limit: 2, windowMs: 60_000, maxClients: 3, now: () => now });
  limiter.hit("hot");
  limiter.hit("hot");
  assert.equal(limiter.hit("hot").allowed, false);
  limiter.hit("x");
  limiter.hit("y");
  assert.equal(limiter.hit("hot").allowed, false);
  limiter.hit("z");
  assert.equal(limiter.size, 3);
  assert.equal(limiter.hit("hot").allowed, true, "evicted as the oldest window, it starts afresh");
});
