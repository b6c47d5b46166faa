/**
 * The built server (`dist/charging.js`) through a real socket: routes, every error code,
 * the egress guard against a counting loopback listener, start-up errors and shutdown.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { startBuilt, stop } from "../../../scripts/smoke.ts";
import { ensureBuilt } from "../built.ts";
import { INVALID } from "./cases.ts";

type Envelope = { error: { code: string; message: string } };
type Started = Awaited<ReturnType<typeof startBuilt>>;

/** An OCM row delisted as decommissioned in the real 2020 export (SubmissionStatusTypeID 1002). */
const CLOSED_ID = "ocm:5452";
const KNOWN_ID = "ocm:2388";
const OSM_ID = "osm:node/1537912651";

let main: Started;
before(async () => {
  ensureBuilt();
  main = await startBuilt({ CHARGING_RATE_LIMIT: "100000" });
});
after(() => stop(main.child));

async function get(url: string, init?: RequestInit) {
  const response = await fetch(url, init);
  const text = await response.text();
  return {
    response,
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

test("dist/charging.js logs its URL and site count and serves every route", async () => {
  assert.match(main.stderr(), /charging: listening on http:\/\/127\.0\.0\.1:\d+ \(\d{3,} sites\)/);
  const health = await get(`${main.url}/healthz`);
  assert.equal(health.status, 200);
  assert.equal(health.body?.ok, true);
  assert.equal(health.body?.stage, JSON.parse(readFileSync("package.json", "utf8")).stage);

  const sites = await get(`${main.url}/api/v1/sites?connector=ccs&minPower=50&limit=3`);
  assert.equal(sites.status, 200);
  const page = sites.body as {
    data: { maxPowerKw: number }[];
    page: { total: number };
    attribution: unknown[];
  };
  assert.equal(page.data.length, 3);
  assert.ok(page.data.every((s) => s.maxPowerKw >= 50));
  assert.ok(page.page.total >= 3);
  assert.ok(page.attribution.length >= 1);

  for (const id of [KNOWN_ID, OSM_ID]) {
    for (const path of [encodeURIComponent(id), id.replace(":", "%3A"), id]) {
      const site = await get(`${main.url}/api/v1/sites/${path}`);
      assert.equal(site.status, 200, path);
      const data = site.body?.data as { id: string; source: string; licence: string };
      assert.equal(data.id, id);
      assert.equal(data.source, id.slice(0, 3));
      assert.ok(data.licence.length > 0);
    }
  }
  const status = await get(`${main.url}/api/v1/status/${encodeURIComponent(KNOWN_ID)}`);
  assert.equal(status.status, 200);
  const record = status.body?.data as Record<string, unknown>;
  assert.equal(record.id, KNOWN_ID);
  assert.match(String(record.retrievedAt), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(record.stale, true, "fixture rows predate the SLO");
  assert.match(String(record.staleReason), /60-minute/);

  const head = await fetch(`${main.url}/api/v1/sites?limit=1`, { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.ok(Number(head.headers.get("content-length")) > 0);
});

test("NOT_FOUND for unknown routes, unknown ids and a closed site; 405 for wrong methods", async () => {
  for (const path of [
    "/nope",
    "/api/v1/sites/ocm%3A0",
    `/api/v1/sites/${encodeURIComponent(CLOSED_ID)}`,
    `/api/v1/status/${CLOSED_ID}`,
    "/api/v1/status/osm%3Anode%2F1",
  ]) {
    const res = await get(main.url + path);
    assert.equal(res.status, 404, path);
    assert.equal((res.body as Envelope).error.code, "NOT_FOUND", path);
  }
  const del = await get(`${main.url}/api/v1/sites`, { method: "DELETE" });
  assert.equal(del.status, 405);
  assert.equal(del.response.headers.get("allow"), "GET, HEAD");
  const mcp = await get(`${main.url}/mcp`);
  assert.equal(mcp.status, 405);
  assert.match(JSON.stringify(mcp.body), /use POST \/mcp/);
});

test("every INVALID_ARGUMENTS case answers 400 through the socket", async () => {
  for (const [query, message] of INVALID) {
    const res = await get(`${main.url}/api/v1/sites?${query}`);
    assert.equal(res.status, 400, query);
    assert.equal((res.body as Envelope).error.code, "INVALID_ARGUMENTS", query);
    assert.match((res.body as Envelope).error.message, message, query);
  }
});

test("RATE_LIMITED with retry-after after the per-IP limit, CORS headers kept", async () => {
  const limited = await startBuilt({ CHARGING_RATE_LIMIT: "3" });
  try {
    for (let i = 0; i < 3; i++) assert.equal((await get(`${limited.url}/healthz`)).status, 200);
    const res = await get(`${limited.url}/api/v1/sites`, { headers: { origin: "https://map.example" } });
    assert.equal(res.status, 429);
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
    assert.equal((JSON.parse(declared.body) as Envelope).error.code, "PAYLOAD_TOO_LARGE");
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

function runServer(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["dist/charging.js"], {
      env: { ...process.env, PORT: "0", ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    let signalled = false;
    child.stderr.setEncoding("utf8").on("data", (c: string) => {
      stderr += c;
      if (!signalled && stderr.includes("listening on")) signalled = child.kill("SIGTERM");
    });
    child.on("exit", (code) => resolve({ code, stderr }));
  });
}

test("bad configuration stops start-up with exit code 2 and a message naming the variable", async () => {
  const dir = mkdtempSync(join(tmpdir(), "charging-env-"));
  try {
    writeFileSync(join(dir, "bad.json"), JSON.stringify({ format: "nope", sites: [] }));
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ PORT: "eighty" }, /PORT must be an integer from 0 to 65535/],
      [{ CHARGING_RATE_LIMIT: "0" }, /CHARGING_RATE_LIMIT/],
      [{ CHARGING_DATA: join(dir, "missing.json") }, /CHARGING_DATA: cannot read .*missing\.json \(ENOENT\)/],
      [{ CHARGING_DATA: join(dir, "bad.json") }, /CHARGING_DATA: .*bad\.json: charging dataset is malformed/],
    ];
    for (const [env, message] of cases) {
      const { code, stderr } = await runServer(env);
      assert.equal(code, 2, JSON.stringify(env));
      assert.match(stderr, message);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("CHARGING_DATA serves a deployer's own dataset; SIGTERM drains and exits 0", async () => {
  const dir = mkdtempSync(join(tmpdir(), "charging-data-"));
  try {
    const full = JSON.parse(readFileSync("fixtures/charging/sites.json", "utf8")) as { sites: unknown[] };
    writeFileSync(join(dir, "two.json"), JSON.stringify({ ...full, sites: full.sites.slice(0, 2) }));
    const { code, stderr } = await runServer({ CHARGING_DATA: join(dir, "two.json") });
    assert.match(stderr, /\(2 sites\)/);
    assert.match(stderr, /SIGTERM: draining connections/);
    assert.equal(code, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
