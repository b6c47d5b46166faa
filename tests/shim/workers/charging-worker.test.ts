/**
 * The Workers build (`dist/charging-worker.js`) inside a real workerd (miniflare, offline):
 * the embedded real data, every route, MCP over Streamable HTTP with the SDK client, gzip on
 * the wire, entity tags, GeoJSON, the OpenAPI document, the per-isolate rate limit, the key
 * gate from bindings, and a misconfiguration answered with the envelope.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { validate } from "@readme/openapi-parser";
import { type RunningWorker, startWorker } from "../../shared/workerd.ts";
import { ensureBuilt, rawHttp } from "../../charging/built.ts";
import { mapAssets } from "../../../shim/embedded/charging-map.ts";
import { DEFAULT_MAP_TILES } from "../../../src/charging/config.ts";
import { mapPageHtml } from "../../../src/charging/transports/http/map-page.ts";

// Answers are read loosely in assertions.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const SCRIPT = "dist/charging-worker.js";
let worker: RunningWorker;

before(async () => {
  ensureBuilt();
  worker = await startWorker({ scriptPath: SCRIPT, bindings: { CHARGING_RATE_LIMIT: "100000" } });
});
after(() => worker.dispose());

const get = async (path: string, init?: RequestInit) => {
  const response = await fetch(worker.url + path, init);
  const text = await response.text();
  return { response, status: response.status, body: text ? (JSON.parse(text) as Loose) : null };
};

test("workerd serves the embedded real data on every route", async () => {
  assert.deepEqual((await get("/healthz")).body, { ok: true, stage: 5 });
  const sites = await get("/api/v1/sites?connector=ccs&minPower=50&limit=3");
  assert.equal(sites.status, 200);
  assert.equal(sites.body.data.length, 3);
  assert.ok(sites.body.data.every((s: Loose) => s.maxPowerKw >= 50));
  const all = await get("/api/v1/sites?limit=1");
  assert.equal(all.body.page.total, 4461, "the embedded real data set");
  const near = await get("/api/v1/sites?near=30.27,-97.74&radiusKm=5&limit=5");
  assert.ok(near.body.data.length === 5 && near.body.data[0].distanceKm <= near.body.data[4].distanceKm);
  const site = await get("/api/v1/sites/ocm%3A2388");
  assert.equal(site.body.data.id, "ocm:2388");
  assert.equal(typeof site.body.attribution.text, "string");
  const status = await get("/api/v1/status/ocm%3A2388");
  assert.equal(status.body.data.stale, true);
  assert.equal(status.body.data.kind, "registry");
  const missing = await get("/api/v1/sites/ocm%3A2398");
  assert.deepEqual([missing.status, missing.body.error.code], [404, "NOT_FOUND"]);
  const wrong = await get("/api/v1/sites", { method: "POST", body: "{}" });
  assert.deepEqual([wrong.status, wrong.body.error.code, wrong.response.headers.get("allow")], [405, "METHOD_NOT_ALLOWED", "GET, HEAD"]);
  const bad = await get("/api/v1/sites?limit=1000");
  assert.deepEqual([bad.status, bad.body.error.code], [400, "INVALID_ARGUMENTS"]);
  const mcpGet = await get("/mcp");
  assert.equal(mcpGet.status, 405);
  assert.match(mcpGet.body.error.message, /use POST \/mcp/);
});

test("MCP over Streamable HTTP in workerd: tools/list and tools/call with the SDK client", async () => {
  const client = new Client({ name: "t", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${worker.url}/mcp`)));
  try {
    const tools = await client.listTools();
    assert.deepEqual(tools.tools.map((t) => t.name).sort(), ["find_nearby_sites", "get_site", "get_site_status", "search_sites"]);
    const result = (await client.callTool({ name: "find_nearby_sites", arguments: { lat: 30.27, lon: -97.74, radiusKm: 3, limit: 2 } })) as Loose;
    assert.equal(result.isError, undefined);
    assert.equal(result.structuredContent.data.length, 2);
  } finally {
    await client.close();
  }
});

const raw = (path: string, headers: Record<string, string> = {}, method = "GET") => rawHttp(`${worker.url}${path}`, headers, method);

test("compression left to the platform (once), 304 for a matching tag, GeoJSON and a valid OpenAPI document", async () => {
  const expected = (await get("/api/v1/sites?limit=40")).body;
  const packed = await raw("/api/v1/sites?limit=40", { "accept-encoding": "gzip" });
  const text = packed.headers["content-encoding"] === "gzip" ? gunzipSync(packed.body) : packed.body;
  assert.deepEqual(JSON.parse(text.toString("utf8")), expected, "one layer of encoding at most");
  const etag = String(packed.headers.etag);
  assert.match(etag, /^"[0-9a-f]{8}-[0-9a-f]{8}"$/, "the handler itself did not encode");
  const again = await raw("/api/v1/sites?limit=40", { "if-none-match": etag });
  assert.equal(again.status, 304);
  const geo = await get("/api/v1/sites?limit=2", { headers: { accept: "application/geo+json" } });
  assert.equal(geo.body.type, "FeatureCollection");
  assert.ok(geo.body.attribution.length >= 1);
  const doc = (await get("/api/v1/openapi.json")).body;
  assert.equal((await validate(structuredClone(doc))).valid, true);
});

test("workerd serves the map page the Node server serves, its files immutable and named by their content", async () => {
  const page = await fetch(`${worker.url}/`);
  assert.equal(page.status, 200);
  assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
  assert.match(page.headers.get("content-security-policy") ?? "", /connect-src 'self' https:\/\/tile\.openstreetmap\.org;/);
  const html = await page.text();
  // The same page as the Node wiring's but for the files' hashes (a bundle built before an edit differs only there).
  const unhashed = (text: string) => text.replace(/-[0-9a-f]{12}\.(js|css|mjs)/g, "-<hash>.$1");
  assert.equal(unhashed(html), unhashed(mapPageHtml(mapAssets(), DEFAULT_MAP_TILES)));
  const names = [...html.matchAll(/map\/([\w-]+\.(?:js|css|mjs))/g)].map((m) => m[1] as string);
  assert.equal(names.length, 3, html);
  for (const name of names) {
    const file = await fetch(`${worker.url}/map/${name}`);
    assert.equal(file.headers.get("cache-control"), "public, max-age=31536000, immutable", name);
    assert.match(file.headers.get("content-type") ?? "", name.endsWith(".css") ? /^text\/css/ : /^text\/javascript/);
    const digest = createHash("sha256").update(await file.text()).digest("hex").slice(0, 12);
    assert.ok(name.includes(`-${digest}.`), `${name} is named by its content`);
  }
});

test("bindings: per-isolate rate limit, key gate, and a misconfiguration answered with the envelope", async () => {
  const limited = await startWorker({ scriptPath: SCRIPT, bindings: { CHARGING_RATE_LIMIT: "3", CHARGING_API_KEYS: "key-aaaaaaaaaaaaaaaa" } });
  try {
    const key = { "x-api-key": "key-aaaaaaaaaaaaaaaa" };
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await fetch(`${limited.url}/api/v1/sites?limit=1`, { headers: key })).status);
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    const limitedAnswer = await fetch(`${limited.url}/api/v1/openapi.json`);
    assert.ok(Number(limitedAnswer.headers.get("retry-after")) >= 1);
    assert.equal(limitedAnswer.headers.get("ratelimit-policy"), '"per-minute";q=3;w=60');
    assert.equal((await fetch(`${limited.url}/healthz`)).status, 200, "liveness is not counted");
  } finally {
    await limited.dispose();
  }
  const gated = await startWorker({ scriptPath: SCRIPT, bindings: { CHARGING_API_KEYS: "key-aaaaaaaaaaaaaaaa" } });
  try {
    const refused = await fetch(`${gated.url}/api/v1/sites`);
    assert.equal(refused.status, 401);
    assert.equal(((await refused.json()) as Loose).error.code, "UNAUTHORIZED");
    assert.equal((await fetch(`${gated.url}/api/v1/sites`, { headers: { authorization: "Bearer key-aaaaaaaaaaaaaaaa" } })).status, 200);
  } finally {
    await gated.dispose();
  }
  const broken = await startWorker({ scriptPath: SCRIPT, bindings: { CHARGING_LIVE_URL: "https://feed.example/ocpi" } });
  try {
    const answer = await fetch(`${broken.url}/healthz`);
    assert.equal(answer.status, 500);
    assert.deepEqual(Object.keys(((await answer.json()) as Loose).error), ["code", "message"]);
  } finally {
    await broken.dispose();
  }
});
