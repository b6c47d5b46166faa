import assert from "node:assert/strict";
import { test } from "node:test";
import { createCors } from "../../../src/shared/http/cors.ts";
import { createPipeline, DEFAULT_MAX_BODY_BYTES, type PipelineOptions } from "../../../src/shared/http/pipeline.ts";
import { createRateLimiter } from "../../../src/shared/http/rate-limit.ts";
import type { Route } from "../../../src/shared/http/route-table.ts";

const ok = () => new Response("ok");
const ROUTES: Route<URL>[] = [
  { method: "GET", path: "/healthz", handle: ok, open: true, unmetered: true },
  { method: "GET", path: "/docs/:page", handle: ok, open: true },
  { method: "GET", path: "/private", handle: ok },
  { method: "POST", path: "/echo", handle: async (request) => new Response(await request.text()) },
  {
    method: "POST",
    path: "/rpc",
    handle: () => {
      throw new Error("boom");
    },
    everyMethod: true,
    failure: (err) => new Response(`rpc ${(err as Error).message}`, { status: 200 }),
  },
];

function pipeline(extra: Partial<PipelineOptions> = {}) {
  const unexpected: string[] = [];
  const handler = createPipeline({
    routes: ROUTES,
    cors: createCors({ origins: "*" }),
    noRoute: "No such route",
    unexpected: (err) => unexpected.push((err as Error).message),
    ...extra,
  });
  return { handler, unexpected };
}

const codeOf = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;

test("open rows pass the key gate, fixed or with params; others and unknown paths do not", async () => {
  const { handler } = pipeline({ key: { keys: ["k-0123456789abcdef"], realm: "t", missing: "send a key", invalid: "wrong key" } });
  const statuses = [];
  for (const path of ["/healthz", "/healthz/", "/docs/a", "/docs/a/b", "/private"]) {
    statuses.push((await handler(new Request(`http://x${path}`))).status);
  }
  assert.deepEqual(statuses, [200, 401, 200, 401, 401]);
  const refused = await handler(new Request("http://x/private"));
  assert.equal(refused.headers.get("www-authenticate"), 'Bearer realm="t"');
  const passed = await handler(new Request("http://x/private", { headers: { "x-api-key": "k-0123456789abcdef" } }));
  assert.equal(passed.status, 200);
});

test("the rate limit counts every row but the unmetered ones, and names its limit", async () => {
  const limiter = createRateLimiter({ limit: 1, windowMs: 60_000, maxClients: 10 });
  const { handler } = pipeline({ rateLimit: { limiter, perMinute: 1 } });
  const peer = { clientAddress: "198.51.100.1" };
  assert.equal((await handler(new Request("http://x/private"), peer)).status, 200);
  const limited = await handler(new Request("http://x/docs/a"), peer);
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get("retry-after"), "60");
  assert.equal((await handler(new Request("http://x/healthz"), peer)).status, 200, "unmetered");
});

test("every metered answer, failures included, carries the draft's RateLimit and RateLimit-Policy; unmetered ones none", async () => {
  let now = 0;
  const limiter = createRateLimiter({ limit: 2, windowMs: 60_000, maxClients: 10, now: () => now });
  const { handler } = pipeline({ rateLimit: { limiter, perMinute: 2 } });
  const peer = { clientAddress: "198.51.100.2" };
  const first = await handler(new Request("http://x/private"), peer);
  assert.equal(first.headers.get("ratelimit-policy"), '"per-minute";q=2;w=60');
  assert.equal(first.headers.get("ratelimit"), '"per-minute";r=1;t=60');
  now = 20_000;
  const missing = await handler(new Request("http://x/nope"), peer);
  assert.equal(missing.status, 404);
  assert.equal(missing.headers.get("ratelimit"), '"per-minute";r=0;t=40');
  const limited = await handler(new Request("http://x/private"), peer);
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get("ratelimit"), '"per-minute";r=0;t=40');
  assert.equal(limited.headers.get("retry-after"), "40");
  const health = await handler(new Request("http://x/healthz"), peer);
  assert.equal(health.headers.get("ratelimit"), null);
});

test("the body cap, the row's own failure answer, 404, and unexpected failures reported once", async () => {
  const { handler, unexpected } = pipeline({ maxBodyBytes: 8 });
  const big = await handler(new Request("http://x/echo", { method: "POST", body: "123456789" }));
  assert.equal(await codeOf(big), "PAYLOAD_TOO_LARGE");
  assert.equal(await (await handler(new Request("http://x/echo", { method: "POST", body: "small" }))).text(), "small");
  assert.equal(await (await handler(new Request("http://x/rpc", { method: "POST" }))).text(), "rpc boom");
  assert.deepEqual(unexpected, ["boom"]);
  const missing = await handler(new Request("http://x/nope"));
  assert.equal(missing.status, 404);
  assert.equal(await codeOf(missing), "NOT_FOUND");
  assert.equal(DEFAULT_MAX_BODY_BYTES, 65_536);
});

test("a preflight is answered before any guard, and every answer carries CORS headers", async () => {
  const limiter = { hit: async () => ({ allowed: false, retryAfterSeconds: 1, remaining: 0 }) } as never;
  const { handler } = pipeline({ rateLimit: { limiter, perMinute: 1 } });
  const origin = { origin: "https://a.example" };
  const preflight = await handler(
    new Request("http://x/private", { method: "OPTIONS", headers: { ...origin, "access-control-request-method": "GET" } }),
  );
  assert.equal(preflight.status, 204);
  const limited = await handler(new Request("http://x/private", { headers: origin }));
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get("access-control-allow-origin"), "*");
});

test("a query string that is not well percent-encoded UTF-8 answers INVALID_ARGUMENTS before any route reads it", async () => {
  const { handler } = pipeline({});
  for (const query of ["?q=%zz", "?q=50%", "?q=%FF", "?%C3=x", "?a=1&b=%E2%82"]) {
    const refused = await handler(new Request(`http://x/docs/a${query}`));
    assert.equal(refused.status, 400, query);
    assert.equal(await codeOf(refused), "INVALID_ARGUMENTS", query);
  }
  for (const query of ["?q=%25", "?q=caf%C3%A9+x", "?q=a%2Cb&r=", "?"]) {
    assert.equal((await handler(new Request(`http://x/docs/a${query}`))).status, 200, query);
  }
});
