/**
 * The rate limit shared through a real redis-server: two built server processes together allow
 * 60 requests a minute per client, not 120; Redis going away is never a failed request (each
 * instance counts locally and says so once on stderr) and counting is shared again once it is back.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startBuilt, stop } from "../../../scripts/smoke.ts";
import { type RunningRedis, startRedis } from "../../shared/redis.ts";
import { ensureBuilt } from "../../charging/built.ts";

type Started = Awaited<ReturnType<typeof startBuilt>>;

let redis: RunningRedis;
let a: Started;
let b: Started;

before(async () => {
  ensureBuilt();
  redis = await startRedis();
  [a, b] = await Promise.all([
    startBuilt({ CHARGING_REDIS_URL: redis.url, CHARGING_TRUST_PROXY: "1" }),
    startBuilt({ CHARGING_REDIS_URL: redis.url, CHARGING_TRUST_PROXY: "1" }),
  ]);
});
after(async () => {
  await Promise.all([stop(a.child), stop(b.child)]);
  await redis.stop();
});

/** A metered route (liveness, /healthz, is not counted). */
const METERED = "/api/v1/sites?limit=1";

/** One request as `client` (both servers trust one proxy hop, so each test has its own client). */
async function hit(server: Started, client: string, path = METERED) {
  const response = await fetch(server.url + path, { headers: { "x-forwarded-for": client } });
  return { status: response.status, retry: response.headers.get("retry-after"), body: await response.text() };
}

/** `count` requests from `client`, alternating between the two instances; the statuses. */
async function alternate(client: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await hit(i % 2 === 0 ? a : b, client)).status);
  return statuses;
}

const allowed = (statuses: number[]) => statuses.filter((s) => s === 200).length;

async function until(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

test("two instances sharing one redis-server allow 60 a minute per client in total, not 120", async () => {
  assert.match(a.stderr(), new RegExp(`rate limit shared via redis at 127\\.0\\.0\\.1:${redis.port}`));
  const statuses = await alternate("10.0.0.1", 70);
  assert.equal(allowed(statuses), 60, statuses.join(","));
  assert.deepEqual(statuses.slice(60), Array(10).fill(429));
  const refused = await hit(b, "10.0.0.1", "/api/v1/sites?limit=1");
  assert.equal(refused.status, 429);
  assert.equal(JSON.parse(refused.body).error.code, "RATE_LIMITED");
  const retry = Number(refused.retry);
  assert.ok(retry >= 1 && retry <= 60, `retry-after ${refused.retry}`);
  assert.equal((await hit(a, "10.0.0.9")).status, 200, "another client has its own shared window");
});

test("redis killed: no 5xx, each instance counts locally and says so once; restarted: shared again", async () => {
  await redis.kill();
  const during = await alternate("10.0.0.2", 70);
  assert.equal(allowed(during), 70, `each instance allows 60 on its own: ${during.join(",")}`);
  const local = [];
  for (let i = 0; i < 26; i++) local.push((await hit(a, "10.0.0.2")).status);
  assert.equal(allowed(local), 25, "instance a's local window of 60 still holds");
  assert.equal(local.at(-1), 429);
  for (const server of [a, b]) {
    const notices = server.stderr().match(/rate limit: redis at [^ ]+ unreachable/g) ?? [];
    assert.equal(notices.length, 1, server.stderr());
  }
  await redis.restart();
  // ioredis reconnects within a second; the first request counted in redis logs the recovery.
  await until(async () => {
    await Promise.all([hit(a, "10.9.9.9"), hit(b, "10.9.9.9")]);
    return /answers again/.test(a.stderr()) && /answers again/.test(b.stderr());
  }, "both instances to count in redis again");
  const statuses = await alternate("10.0.0.3", 70);
  assert.equal(allowed(statuses), 60, `shared again: ${statuses.join(",")}`);
});

test("a redis that is not there at start-up: the server starts, says so, and limits per instance", async () => {
  const spare = await startRedis();
  await spare.stop();
  const lonely = await startBuilt({ CHARGING_REDIS_URL: spare.url });
  try {
    assert.match(lonely.stderr(), /redis at 127\.0\.0\.1:\d+ unreachable: rate limit per instance until it answers/);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await fetch(lonely.url + METERED)).status);
    assert.equal(allowed(statuses), 60);
    assert.equal(statuses.at(-1), 429);
    assert.equal(lonely.stderr().match(/unreachable \(/g)?.length, 1, "the fall-back is reported once");
  } finally {
    await stop(lonely.child);
  }
});
