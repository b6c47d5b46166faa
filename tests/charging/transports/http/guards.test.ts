import assert from "node:assert/strict";
import { test } from "node:test";
import { createChargingHandler } from "../../../../src/charging/handler.ts";
import { assertJsonRpcRefusal, base, call, type Envelope, make, status, store } from "./harness.ts";

/** A metered route that costs nothing to answer. */
const DOC = "/api/v1/openapi.json";

test("the rate limit answers RATE_LIMITED with retry-after per client address", async () => {
  let now = 0;
  const handler = make({ ratePerMinute: 3, now: () => now });
  for (let i = 0; i < 3; i++) assert.equal((await call(handler, DOC, {}, "198.51.100.1")).status, 200);
  const limited = await call(
    handler,
    "/api/v1/sites",
    { headers: { origin: "https://map.example" } },
    "198.51.100.1",
  );
  assert.equal(limited.status, 429);
  assert.equal((limited.body as Envelope).error.code, "RATE_LIMITED");
  assert.equal(limited.response.headers.get("retry-after"), "60");
  assert.equal(limited.response.headers.get("ratelimit"), '"per-minute";r=0;t=60');
  assert.equal(limited.response.headers.get("ratelimit-policy"), '"per-minute";q=3;w=60');
  assert.equal(limited.response.headers.get("access-control-allow-origin"), "*");
  assert.match(limited.response.headers.get("access-control-expose-headers") ?? "", /retry-after, ratelimit, ratelimit-policy/);
  const live = await call(handler, "/healthz", {}, "198.51.100.1");
  assert.equal(live.status, 200, "liveness is exempt: a load balancer's checks share one address");
  assert.equal(live.response.headers.get("ratelimit"), null);
  const mcp = await call(handler, "/mcp", { method: "POST", body: "{}" }, "198.51.100.1");
  assert.equal(mcp.status, 429, "the limit covers /mcp");
  assertJsonRpcRefusal(mcp.body, "RATE_LIMITED");
  assert.equal(mcp.response.headers.get("retry-after"), "60");
  assert.equal((await call(handler, DOC, {}, "198.51.100.2")).status, 200, "another client");
  const spoofed = await call(
    handler,
    DOC,
    { headers: { "x-forwarded-for": "203.0.113.9" } },
    "198.51.100.1",
  );
  assert.equal(spoofed.status, 429, "forwarded-for is ignored unless proxies are trusted");
  now += 60_000;
  assert.equal((await call(handler, DOC, {}, "198.51.100.1")).status, 200);
});

test("with trusted proxies the rate limit counts the forwarded client, not the proxy", async () => {
  const handler = make({ ratePerMinute: 1, trustedProxies: 1 });
  const via = (client: string) =>
    call(handler, DOC, { headers: { "x-forwarded-for": client } }, "10.0.0.1");
  assert.equal((await via("203.0.113.1")).status, 200);
  assert.equal((await via("203.0.113.2")).status, 200);
  assert.equal((await via("203.0.113.1")).status, 429);
});

test("the key gate answers UNAUTHORIZED without a valid key and lets x-api-key or Bearer through", async () => {
  const handler = make({ apiKeys: ["k-one", "k-two"] });
  const missing = await call(handler, "/api/v1/sites");
  assert.equal(missing.status, 401);
  assert.equal((missing.body as Envelope).error.code, "UNAUTHORIZED");
  assert.match((missing.body as Envelope).error.message, /x-api-key/);
  const wrong = await call(handler, "/api/v1/sites", { headers: { "x-api-key": "k-three" } });
  assert.equal(wrong.status, 401);
  assert.doesNotMatch(JSON.stringify(wrong.body), /k-three|k-one/);
  assert.equal((await call(handler, "/api/v1/sites", { headers: { "x-api-key": "k-two" } })).status, 200);
  assert.equal(
    (await call(handler, "/api/v1/sites", { headers: { authorization: "Bearer k-one" } })).status,
    200,
  );
  const mcp = await call(handler, "/mcp", { method: "POST", body: "{}" });
  assert.equal(mcp.status, 401, "gate covers /mcp");
  assertJsonRpcRefusal(mcp.body, "UNAUTHORIZED", -32001);
  assert.match(mcp.response.headers.get("www-authenticate") ?? "", /^Bearer /);
  assert.equal((await call(handler, "/healthz")).status, 200, "liveness stays open");
});

test("bodies over the cap answer PAYLOAD_TOO_LARGE, by content-length and by counting a chunked body", async () => {
  const handler = make({ maxBodyBytes: 1024 });
  const big = "x".repeat(2048);
  const declared = await call(handler, "/mcp", {
    method: "POST",
    body: big,
    headers: { "content-type": "application/json" },
  });
  assert.equal(declared.status, 413);
  assertJsonRpcRefusal(declared.body, "PAYLOAD_TOO_LARGE");
  const stream = new ReadableStream({
    start(c) {
      for (let i = 0; i < 4; i++) c.enqueue(new TextEncoder().encode(big.slice(0, 512)));
      c.close();
    },
  });
  const chunked = await call(handler, "/mcp", {
    method: "POST",
    body: stream,
    duplex: "half",
  } as RequestInit);
  assert.equal(chunked.status, 413);
});

test("CORS headers ride on 200, 400 and 404 answers and preflights get 204", async () => {
  const handler = make({ corsOrigins: ["https://map.example"] });
  const origin = { origin: "https://map.example" };
  for (const [path, code] of [
    ["/api/v1/sites", 200],
    ["/api/v1/sites?limit=0", 400],
    ["/nope", 404],
  ] as const) {
    const res = await call(handler, path, { headers: origin });
    assert.equal(res.status, code, path);
    assert.equal(res.response.headers.get("access-control-allow-origin"), "https://map.example", path);
  }
  const pre = await call(handler, "/api/v1/sites", {
    method: "OPTIONS",
    headers: {
      ...origin,
      "access-control-request-method": "GET",
      "access-control-request-headers": "x-api-key",
    },
  });
  assert.equal(pre.status, 204);
  assert.match(pre.response.headers.get("access-control-allow-headers") ?? "", /x-api-key/);
});

test("the handler never throws: unexpected failures answer INTERNAL without details", async () => {
  const lines: string[] = [];
  const broken = {
    ...store,
    search: () => {
      throw new Error("disk secret");
    },
  };
  const handler = createChargingHandler({ store: broken, status, log: (l) => lines.push(l) });
  const { status: code, body } = await call(handler, "/api/v1/sites");
  assert.equal(code, 500);
  assert.equal((body as Envelope).error.code, "INTERNAL");
  assert.doesNotMatch(JSON.stringify(body), /secret/);
  assert.match(lines.join("\n"), /disk secret/);
});

test("a client hanging up mid-body is not logged as an unexpected failure; a broken body still is", async () => {
  const lines: string[] = [];
  const handler = make({ log: (l) => lines.push(l) });
  const post = (signal: AbortSignal) =>
    new Request(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new ReadableStream({ pull: (controller) => controller.error(new Error("aborted")) }),
      duplex: "half",
      signal,
    } as RequestInit);
  const gone = new AbortController();
  gone.abort();
  assert.equal((await handler(post(gone.signal))).status, 500);
  assert.deepEqual(lines, []);
  assert.equal((await handler(post(new AbortController().signal))).status, 500);
  assert.match(lines.join("\n"), /unexpected aborted/);
});

test("malformed percent-encoding in a query answers INVALID_ARGUMENTS, not a search for the raw text", async () => {
  const handler = make({});
  for (const query of ["connector=Type%2", "connector=%FF", "bbox=1,2,3,4%"]) {
    const refused = await call(handler, `/api/v1/sites?${query}`);
    assert.equal(refused.status, 400, query);
    assert.equal((refused.body as Envelope).error.code, "INVALID_ARGUMENTS", query);
    assert.match((refused.body as Envelope).error.message, /percent-encoding/, query);
  }
  assert.equal((await call(handler, "/api/v1/sites?connector=Type%202")).status, 200);
});
