/**
 * The built server's guards through a real socket: rate limit, key gate, body cap, and the
 * egress guard against a counting loopback listener.
 */
import assert from "node:assert/strict";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { before, test } from "node:test";
import { startBuilt, stop } from "../../../../scripts/smoke.ts";
import { ensureBuilt, getJson as get } from "../../built.ts";
import { assertJsonRpcRefusal } from "./harness.ts";

type Envelope = { error: { code: string; message: string } };
const KNOWN_ID = "ocm:2388";

before(() => ensureBuilt());

test("RATE_LIMITED with retry-after after the per-IP limit, CORS headers kept", async () => {
  const limited = await startBuilt({ CHARGING_RATE_LIMIT: "3" });
  try {
    for (let i = 0; i < 3; i++) assert.equal((await get(`${limited.url}/api/v1/openapi.json`)).status, 200);
    const res = await get(`${limited.url}/api/v1/sites`, { headers: { origin: "https://map.example" } });
    assert.equal(res.status, 429);
    assert.match(res.response.headers.get("ratelimit") ?? "", /^"per-minute";r=0;t=\d+$/);
    assert.equal((await get(`${limited.url}/healthz`)).status, 200, "liveness is not counted");
    assert.equal((res.body as Envelope).error.code, "RATE_LIMITED");
    const wait = Number(res.response.headers.get("retry-after"));
    assert.ok(wait >= 1 && wait <= 60, String(wait));
    assert.equal(res.response.headers.get("access-control-allow-origin"), "*");
  } finally {
    await stop(limited.child);
  }
});

test("UNAUTHORIZED with the key gate on; keys never reach the log", async () => {
  const key = "charging-test-key-0123456789";
  const gated = await startBuilt({ CHARGING_API_KEYS: `${key},another-key-9876543210` });
  try {
    assert.match(gated.stderr(), /key gate on \(2 keys\)/);
    const missing = await get(`${gated.url}/api/v1/sites`);
    assert.equal(missing.status, 401);
    assert.equal((missing.body as Envelope).error.code, "UNAUTHORIZED");
    assert.equal(
      (await get(`${gated.url}/api/v1/sites`, { headers: { "x-api-key": "wrong-key-wrong-key" } })).status,
      401,
    );
    assert.equal((await get(`${gated.url}/api/v1/sites?api_key=${key}`)).status, 401, "never from the query");
    assert.equal((await get(`${gated.url}/api/v1/sites`, { headers: { "x-api-key": key } })).status, 200);
    assert.equal(
      (await get(`${gated.url}/api/v1/sites`, { headers: { authorization: `Bearer ${key}` } })).status,
      200,
    );
    assert.doesNotMatch(gated.stderr(), new RegExp(key));
  } finally {
    await stop(gated.child);
  }
});

function rawPost(
  url: string,
  chunks: string[],
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: "POST", headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        body += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

test("PAYLOAD_TOO_LARGE by content-length and by counting a chunked body without one", async () => {
  const capped = await startBuilt({ CHARGING_MAX_BODY_BYTES: "1024" });
  try {
    const declared = await rawPost(`${capped.url}/mcp`, ["x".repeat(2048)], {
      "content-type": "application/json",
      "content-length": "2048",
    });
    assert.equal(declared.status, 413);
    assertJsonRpcRefusal(JSON.parse(declared.body), "PAYLOAD_TOO_LARGE");
    const chunked = await rawPost(`${capped.url}/mcp`, Array(8).fill("y".repeat(512)), {
      "content-type": "application/json",
      "transfer-encoding": "chunked",
    });
    assert.equal(chunked.status, 413);
    assert.match(chunked.body, /1024-byte cap/);
  } finally {
    await stop(capped.child);
  }
});

async function countingListener(
  answer?: (path: string) => unknown,
): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(answer?.(req.url ?? "") ?? {}));
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections };
}

test("UPSTREAM_BLOCKED for a private and for a non-allowlisted live feed, with no connection made", async () => {
  const feed = await countingListener();
  const privateFeed = await startBuilt({ CHARGING_LIVE_URL: `http://127.0.0.1:${feed.port}/ocpi/locations` });
  const foreignFeed = await startBuilt({
    CHARGING_LIVE_URL: `http://localhost:${feed.port}/ocpi/locations`,
    CHARGING_LIVE_ALLOW_HOSTS: "feed.example",
  });
  try {
    const blocked = await get(`${privateFeed.url}/api/v1/status/${encodeURIComponent(KNOWN_ID)}`);
    assert.equal(blocked.status, 403);
    assert.equal((blocked.body as Envelope).error.code, "UPSTREAM_BLOCKED");
    assert.match((blocked.body as Envelope).error.message, /loopback/);
    const foreign = await get(`${foreignFeed.url}/api/v1/status/${encodeURIComponent(KNOWN_ID)}`);
    assert.equal(foreign.status, 403);
    assert.match((foreign.body as Envelope).error.message, /not on the allowlist/);
    assert.equal(feed.connections(), 0, "the guard refused before connecting");
  } finally {
    await Promise.all([stop(privateFeed.child), stop(foreignFeed.child)]);
    feed.server.close();
  }
});

test("a live feed on a trusted address answers a fresh live status", async () => {
  const seen: string[] = [];
  const feed = await countingListener((path) => {
    seen.push(path);
    return {
      status_code: 1000,
      timestamp: new Date().toISOString(),
      data: { evses: [{ uid: "1", status: "CHARGING" }] },
    };
  });
  const live = await startBuilt({
    CHARGING_LIVE_URL: `http://127.0.0.1:${feed.port}/ocpi/locations`,
    CHARGING_LIVE_ALLOW_ADDRESSES: "127.0.0.1/32",
  });
  try {
    const res = await get(`${live.url}/api/v1/status/${encodeURIComponent(KNOWN_ID)}`);
    assert.equal(res.status, 200);
    const record = res.body?.data as Record<string, unknown>;
    assert.equal(record.status, "CHARGING");
    assert.equal(record.stale, false);
    assert.deepEqual(seen, [`/ocpi/locations/${encodeURIComponent(KNOWN_ID)}`]);
  } finally {
    await stop(live.child);
    feed.server.close();
  }
});

test("a live feed named by a host name connects through the guarded connect-time lookup", async () => {
  const feed = await countingListener(() => ({
    status_code: 1000,
    timestamp: new Date().toISOString(),
    data: { evses: [{ uid: "1", status: "AVAILABLE" }] },
  }));
  const live = await startBuilt({
    CHARGING_LIVE_URL: `http://localhost:${feed.port}/ocpi/locations`,
    CHARGING_LIVE_ALLOW_ADDRESSES: "127.0.0.1/32,::1/128",
  });
  try {
    const res = await get(`${live.url}/api/v1/status/${encodeURIComponent(KNOWN_ID)}`);
    assert.equal(res.status, 200);
    assert.equal((res.body?.data as Record<string, unknown>).kind, "live");
    assert.equal(feed.connections(), 1);
  } finally {
    await stop(live.child);
    feed.server.close();
  }
});
