/**
 * What integrators expect: the OpenAPI 3.1 document (valid, generated from the request
 * schemas), GeoJSON answers with the attribution kept, entity tags with 304, cache-control for
 * a static cut, and gzip/brotli compression (in-process, and through the built server's socket).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { validate } from "@readme/openapi-parser";
import { SitesQuery } from "../../../../src/charging/operations/rest-queries.ts";
import { startBuilt, stop } from "../../../../scripts/smoke.ts";
import { ensureBuilt, rawHttp } from "../../built.ts";
import { base, make } from "./harness.ts";

const SITES_PARAMS = Object.keys(SitesQuery.entries);

// The generated document is read loosely in assertions.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const get = (handler: ReturnType<typeof make>, path: string, headers: Record<string, string> = {}) =>
  handler(new Request(base + path, { headers }), { clientAddress: "127.0.0.1" });

test("GET /api/v1/openapi.json is valid OpenAPI 3.1 generated from the request schemas", async () => {
  const response = await get(make(), "/api/v1/openapi.json");
  assert.equal(response.status, 200);
  const doc = (await response.json()) as Loose;
  const result = await validate(structuredClone(doc));
  assert.equal(result.valid, true, JSON.stringify(result));
  assert.equal(doc.openapi, "3.1.0");
  const search = doc.paths["/api/v1/sites"].get;
  assert.deepEqual(
    search.parameters.map((p: { name: string }) => p.name),
    SITES_PARAMS,
    "every query parameter the handler accepts, and only those",
  );
  const format = search.parameters.find((p: { name: string }) => p.name === "format");
  assert.deepEqual(format.schema.enum, ["json", "geojson"]);
  const limit = search.parameters.find((p: { name: string }) => p.name === "limit");
  assert.deepEqual(limit.schema, { type: "integer", minimum: 1, maximum: 100, default: 20 }, "a number, as a generated client types it");
  assert.ok(search.responses["200"].content["application/geo+json"]);
  assert.equal(doc.paths["/api/v1/sites/{id}"].get.parameters[0].in, "path");
  assert.deepEqual(doc.security, [], "no gate: no security requirement");
  assert.equal(doc.components.securitySchemes, undefined, "and no scheme");
  // Every documented GET path answers (not 404) when called as documented.
  const handler = make({ ratePerMinute: 1000 });
  for (const path of Object.keys(doc.paths).filter((p) => doc.paths[p].get)) {
    const real = path.replace("{id}", "ocm%3A1");
    assert.notEqual((await get(handler, real)).status, 404, path);
  }
});

test("with a key gate the document declares it and stays readable without a key", async () => {
  const handler = make({ apiKeys: ["key-aaaaaaaaaaaaaaaa"] });
  const response = await get(handler, "/api/v1/openapi.json");
  assert.equal(response.status, 200);
  const doc = (await response.json()) as Loose;
  assert.deepEqual(doc.security, [{ apiKey: [] }, { bearer: [] }]);
  assert.equal(doc.components.securitySchemes.apiKey.name, "x-api-key");
  assert.equal((await validate(structuredClone(doc))).valid, true);
  assert.equal((await get(handler, "/api/v1/sites")).status, 401, "the data itself stays gated");
  assert.match((await get(handler, "/api/v1/sites", { "x-api-key": "key-aaaaaaaaaaaaaaaa" })).headers.get("cache-control") ?? "", /^private, max-age=300$/);
});

test("GeoJSON: format=geojson or Accept: application/geo+json, attribution kept as a foreign member", async () => {
  const handler = make();
  const json = (await (await get(handler, "/api/v1/sites?bbox=13,52,14,53")).json()) as Loose;
  for (const [path, headers] of [
    ["/api/v1/sites?bbox=13,52,14,53&format=geojson", {}],
    ["/api/v1/sites?bbox=13,52,14,53", { accept: "application/geo+json" }],
  ] as const) {
    const response = await get(handler, path, headers);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "application/geo+json");
    const geo = (await response.json()) as Loose;
    assert.equal(geo.type, "FeatureCollection");
    assert.deepEqual(
      geo.features.map((f: Loose) => [f.type, f.id, f.geometry.type, f.geometry.coordinates]),
      json.data.map((s: Loose) => ["Feature", s.id, "Point", [s.lon, s.lat]]),
    );
    assert.deepEqual(geo.features[0].properties, json.data[0]);
    assert.deepEqual(geo.attribution, json.attribution);
    assert.deepEqual(geo.page, json.page);
  }
  const one = await get(handler, "/api/v1/sites/ocm%3A1?format=geojson");
  const feature = (await one.json()) as Loose;
  assert.equal(feature.type, "Feature");
  assert.deepEqual(feature.geometry.coordinates, [13.4, 52.5]);
  assert.equal(typeof feature.attribution.text, "string");
  assert.equal((await get(handler, "/api/v1/sites?format=xml")).status, 400);
  assert.equal((await get(handler, "/api/v1/sites/ocm%3A1?format=kml")).status, 400);
  assert.equal((await get(handler, "/api/v1/sites/ocm%3A1?limit=5")).status, 400, "the site route takes only format");
  assert.equal((await get(handler, "/api/v1/status/ocm%3A1?format=geojson")).status, 400, "the status route takes none");
  const plain = await get(handler, "/api/v1/sites/ocm%3A1", { accept: "application/json" });
  assert.equal(plain.headers.get("content-type"), "application/json; charset=utf-8");
});

test("entity tags: 304 for a matching if-none-match, new tags per query and format; status and health are not cached", async () => {
  const handler = make();
  const first = await get(handler, "/api/v1/sites?limit=3");
  const etag = first.headers.get("etag") ?? "";
  assert.match(etag, /^"[0-9a-f]{8}-[0-9a-f]{8}"$/);
  assert.equal(first.headers.get("cache-control"), "public, max-age=300");
  assert.match(first.headers.get("vary") ?? "", /accept/);
  for (const tag of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
    const again = await get(handler, "/api/v1/sites?limit=3", { "if-none-match": tag });
    assert.equal(again.status, 304, tag);
    assert.equal(await again.text(), "");
    assert.equal(again.headers.get("etag"), etag);
  }
  assert.equal((await get(handler, "/api/v1/sites?limit=3", { "if-none-match": '"nope"' })).status, 200);
  const other = await get(handler, "/api/v1/sites?limit=4");
  assert.notEqual(other.headers.get("etag"), etag);
  const geo = await get(handler, "/api/v1/sites?limit=3&format=geojson");
  assert.notEqual(geo.headers.get("etag"), etag);
  const site = await get(handler, "/api/v1/sites/ocm%3A1");
  assert.equal((await get(handler, "/api/v1/sites/ocm%3A1", { "if-none-match": site.headers.get("etag") ?? "" })).status, 304);
  const status = await get(handler, "/api/v1/status/ocm%3A1");
  assert.equal(status.headers.get("etag"), null);
  assert.equal(status.headers.get("cache-control"), "no-cache");
  assert.equal((await get(handler, "/healthz")).headers.get("cache-control"), "no-store");
  const bad = await get(handler, "/api/v1/sites?limit=0");
  assert.equal(bad.headers.get("etag"), null, "errors carry no tag");
});

test("compression in-process: gzip when accepted, identity for small bodies and q=0", async () => {
  const handler = make();
  const identity = await (await get(handler, "/api/v1/sites?limit=20")).arrayBuffer();
  assert.ok(identity.byteLength > 1024);
  const gz = await get(handler, "/api/v1/sites?limit=20", { "accept-encoding": "gzip, deflate" });
  assert.equal(gz.headers.get("content-encoding"), "gzip");
  assert.match(gz.headers.get("etag") ?? "", /-gzip"$/);
  const unpacked = gunzipSync(Buffer.from(await gz.arrayBuffer()));
  assert.deepEqual(new Uint8Array(unpacked), new Uint8Array(identity));
  assert.equal((await get(handler, "/api/v1/sites?limit=20", { "accept-encoding": "br" })).headers.get("content-encoding"), null, "brotli is not offered by default");
  assert.equal((await get(handler, "/api/v1/sites?limit=20", { "accept-encoding": "gzip;q=0" })).headers.get("content-encoding"), null);
  assert.equal((await get(handler, "/api/v1/sites?limit=1&bbox=0,0,1,1", { "accept-encoding": "gzip" })).headers.get("content-encoding"), null, "a small body goes as it is");
  const br = make({ encodings: ["br", "gzip"] });
  const both = await get(br, "/api/v1/sites?limit=20", { "accept-encoding": "gzip, br" });
  assert.equal(both.headers.get("content-encoding"), "br", "the offer order breaks the tie");
  assert.deepEqual(new Uint8Array(brotliDecompressSync(Buffer.from(await both.arrayBuffer()))), new Uint8Array(identity));
  const preferred = await get(br, "/api/v1/sites?limit=20", { "accept-encoding": "br;q=0.5, gzip" });
  assert.equal(preferred.headers.get("content-encoding"), "gzip", "q-values decide");
});

let server: Awaited<ReturnType<typeof startBuilt>>;
before(async () => {
  ensureBuilt();
  server = await startBuilt({ CHARGING_RATE_LIMIT: "100000" });
});
after(() => stop(server.child));

const raw = (path: string, headers: Record<string, string> = {}, method = "GET") => rawHttp(`${server.url}${path}`, headers, method);

test("through dist/charging.js: brotli and gzip on the wire, 304 with no body, HEAD with the same headers", async () => {
  const identity = await raw("/api/v1/sites?limit=50", {});
  for (const [accept, unpack] of [
    ["br", brotliDecompressSync],
    ["gzip", gunzipSync],
  ] as const) {
    const packed = await raw("/api/v1/sites?limit=50", { "accept-encoding": accept });
    assert.equal(packed.headers["content-encoding"], accept);
    assert.equal(Number(packed.headers["content-length"]), packed.body.byteLength);
    assert.ok(packed.body.byteLength < identity.body.byteLength / 3, `${accept} shrinks the answer`);
    assert.deepEqual(unpack(packed.body), identity.body);
  }
  const etag = String(identity.headers.etag);
  const notModified = await raw("/api/v1/sites?limit=50", { "if-none-match": etag });
  assert.equal(notModified.status, 304);
  assert.equal(notModified.body.byteLength, 0);
  const viaFetch = await fetch(`${server.url}/api/v1/sites?limit=50&format=geojson`);
  assert.equal(viaFetch.headers.get("content-type"), "application/geo+json");
  assert.equal(((await viaFetch.json()) as Loose).type, "FeatureCollection", "fetch decodes what it asked for");
  const head = await raw("/api/v1/sites?limit=50", {}, "HEAD");
  assert.equal(head.headers.etag, etag);
  assert.equal(head.headers["content-length"], identity.headers["content-length"]);
  assert.equal(head.body.byteLength, 0);
});
