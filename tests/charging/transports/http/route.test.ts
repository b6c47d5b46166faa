/**
 * Search along a route through the handler: GET with a polyline or a GeoJSON LineString, POST
 * with a JSON body, MCP search_sites with a route: the same answers; filters and paging; every
 * bad route refused with INVALID_ARGUMENTS naming what is wrong.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createChargingHandler } from "../../../../src/charging/handler.ts";
import type { Site } from "../../../../src/charging/data/model.ts";
import { createStatusService } from "../../../../src/charging/status/service.ts";
import { storeOfSites } from "../../../../src/charging/search/store.ts";
import type { LonLat } from "../../../../src/charging/search/route.ts";
import { encodePolyline } from "../../../../src/charging/operations/polyline.ts";
import { site } from "../../data/helpers.ts";

const fast = (id: string, lon: number, lat: number, maxPowerKw: number) =>
  site(id, {
    lon,
    lat,
    maxPowerKw,
    connectors: [{ type: "ccs2", label: "CCS (Type 2)", powerKw: maxPowerKw, quantity: 1, current: "DC" }],
  });

// A route along the parallel 50°N from 10°E to 11°E, then back north-west across itself.
const SITES: Site[] = [
  fast("ocm:1", 10.9, 50.01, 150),
  fast("ocm:2", 10.1, 50.0, 50),
  fast("ocm:3", 10.5, 49.99, 300),
  fast("ocm:4", 10.5, 50.3, 150), // 33 km off: outside a 5 km corridor
  fast("ocm:5", 179.95, 0.01, 22), // near the antimeridian
  fast("osm:node/6", 10.3, 50.0, 11),
];
const store = storeOfSites(SITES);
const services = { store, status: createStatusService(store, { now: () => new Date("2026-01-01T00:00:00.000Z") }) };
const handler = createChargingHandler(services);

const LINE: LonLat[] = [
  [10, 50],
  [11, 50],
];
const polyline = encodePolyline(LINE);
const lineString = { type: "LineString", coordinates: LINE };

type Page = {
  data: (Site & { alongKm: number; offRouteKm: number })[];
  page: { limit: number; offset: number; total: number };
  attribution: unknown[];
};

async function call(path: string, init: RequestInit = {}) {
  const response = await handler(new Request(`http://api.test${path}`, init), { clientAddress: "127.0.0.1" });
  const text = await response.text();
  return { response, status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

const get = (query: Record<string, string>) => call(`/api/v1/route?${new URLSearchParams(query)}`);
const post = (body: unknown, query = "") =>
  call(`/api/v1/route${query}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

const ids = (page: unknown) => (page as Page).data.map((s) => s.id);
const refusal = (answer: { status: number; body: unknown }) => {
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  const { code, message } = (answer.body as { error: { code: string; message: string } }).error;
  assert.equal(code, "INVALID_ARGUMENTS");
  return message;
};

test("GET ?polyline= answers the corridor's sites in order along the route, each with alongKm and offRouteKm", async () => {
  const { status, body, response } = await get({ polyline });
  assert.equal(status, 200);
  const page = body as Page;
  assert.deepEqual(ids(page), ["ocm:2", "osm:node/6", "ocm:3", "ocm:1"]);
  assert.deepEqual(page.page, { limit: 20, offset: 0, total: 4 });
  const [first] = page.data;
  // The great circle from 10°E to 11°E runs a little north of the parallel (43 m at 10.1°E).
  assert.ok(first && Math.abs(first.alongKm - 7.15) < 0.05 && Math.abs(first.offRouteKm - 0.043) < 0.002, JSON.stringify(first));
  assert.ok(page.data.every((s, k) => k === 0 || s.alongKm >= (page.data[k - 1]?.alongKm ?? 0)));
  assert.ok(response.headers.get("etag"), "a GET answer is cacheable like a search");
  assert.equal(page.attribution.length, 2, "one credit line per partition on the page");
});

test("GET ?geojson=, POST with a polyline or a LineString, and search_sites over MCP answer alike", async () => {
  const expected = (await get({ polyline, corridorKm: "3", limit: "2", offset: "1" })).body;
  assert.deepEqual(ids(expected), ["osm:node/6", "ocm:3"]);
  assert.deepEqual((await get({ geojson: JSON.stringify(lineString), corridorKm: "3", limit: "2", offset: "1" })).body, expected);
  assert.deepEqual((await post({ route: polyline, corridorKm: 3, limit: 2, offset: 1 })).body, expected);
  const posted = await post({ route: lineString, corridorKm: 3, limit: 2, offset: 1 });
  assert.deepEqual(posted.body, expected);
  assert.equal(posted.response.headers.get("cache-control"), "no-store");
  const mcp = await call("/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "search_sites", arguments: { route: polyline, corridorKm: 3, limit: 2, offset: 1 } },
    }),
  });
  assert.deepEqual((mcp.body as { result: { structuredContent: unknown } }).result.structuredContent, expected);
});

test("every filter of the search combines with a route; bbox is one more filter", async () => {
  assert.deepEqual(ids((await get({ polyline, minPower: "100" })).body), ["ocm:3", "ocm:1"]);
  assert.deepEqual(ids((await get({ polyline, connector: "ccs", limit: "1" })).body), ["ocm:2"]);
  assert.deepEqual(ids((await get({ polyline, bbox: "10.4,49,11,51" })).body), ["ocm:3", "ocm:1"]);
  assert.deepEqual(ids((await post({ route: polyline, minPowerKw: 100, bbox: { minLon: 10.4, minLat: 49, maxLon: 10.6, maxLat: 51 } })).body), ["ocm:3"]);
  assert.deepEqual(ids((await get({ polyline, corridorKm: "50" })).body), ["ocm:2", "osm:node/6", "ocm:3", "ocm:4", "ocm:1"]);
});

test("format=geojson answers a FeatureCollection on GET and POST", async () => {
  const got = await get({ polyline, format: "geojson", limit: "1" });
  assert.equal(got.response.headers.get("content-type"), "application/geo+json");
  const features = (got.body as { features: { id: string; properties: { alongKm: number } }[] }).features;
  assert.equal(features[0]?.id, "ocm:2");
  assert.ok((features[0]?.properties.alongKm ?? 0) > 0);
  const posted = await post({ route: polyline, limit: 1 }, "?format=geojson");
  assert.equal(posted.response.headers.get("content-type"), "application/geo+json");
  assert.deepEqual(posted.body, got.body);
});

test("a self-intersecting route lists a site once, at its nearest projection; a route across the antimeridian takes the short way", async () => {
  const loop: LonLat[] = [[10, 50], [11, 50], [10.5, 49.9], [10.5, 50.1]];
  const page = (await get({ polyline: encodePolyline(loop) })).body as Page;
  assert.equal(new Set(ids(page)).size, ids(page).length);
  // ocm:3 is 1.2 km from the first pass and on the last segment (the meridian 10.5°E): that is where it counts.
  const crossing = page.data.find((s) => s.id === "ocm:3");
  assert.ok(crossing && crossing.offRouteKm < 0.001 && crossing.alongKm > 100, JSON.stringify(crossing));
  // Out and back along one great circle: as near on both passes, a site counts where it is first met.
  const back = (await get({ polyline: encodePolyline([[10, 50], [11, 50], [10, 50]]) })).body as Page;
  assert.deepEqual(ids(back), ["ocm:2", "osm:node/6", "ocm:3", "ocm:1"]);
  assert.ok((back.data[3]?.alongKm ?? 99) < 72);
  const across = (await get({ polyline: encodePolyline([[179.9, 0], [-179.9, 0]]) })).body as Page;
  assert.deepEqual(ids(across), ["ocm:5"]);
});

test("a 10,000-point route goes by POST; 10,001 points are refused", async () => {
  const points: LonLat[] = Array.from({ length: 10_000 }, (_, k) => [10 + k * 0.0001, 50]);
  const answer = await post({ route: encodePolyline(points) });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.deepEqual(ids(answer.body), ["ocm:2", "osm:node/6", "ocm:3", "ocm:1"]);
  points.push([11, 50]);
  assert.match(refusal(await post({ route: encodePolyline(points) })), /route has more than 10000 points; simplify it/);
});

test("bad routes and arguments answer INVALID_ARGUMENTS naming what is wrong", async () => {
  assert.match(refusal(await get({})), /exactly one of polyline \(encoded\) or geojson/);
  assert.match(refusal(await get({ polyline, geojson: JSON.stringify(lineString) })), /exactly one of polyline/);
  assert.match(refusal(await get({ polyline: "_p~iF ~ps|U" })), /route: polyline has " " at character 6/);
  assert.match(refusal(await get({ polyline: "_p~iF~ps|" })), /polyline ends inside a value/);
  assert.match(refusal(await get({ polyline: encodePolyline([[10, 50]]) })), /route has 1 point; a route needs at least 2/);
  assert.match(refusal(await get({ geojson: '{"type":"Point","coordinates":[10,50]}' })), /route is a GeoJSON Point; send a GeoJSON LineString/);
  assert.match(refusal(await get({ geojson: "[10,50" })), /geojson must be JSON text/);
  assert.match(refusal(await get({ polyline, corridorKm: "0" })), /corridorKm must be more than 0 and at most 50/);
  assert.match(refusal(await get({ polyline, corridorKm: "51" })), /corridorKm must be more than 0 and at most 50/);
  assert.match(refusal(await get({ polyline, corridorKm: "1e3" })), /corridorKm must be a plain decimal/);
  assert.match(refusal(await get({ polyline, near: "50,10" })), /Unknown query parameter "near"/);
  assert.match(refusal(await post("")), /POST needs a JSON body/);
  assert.match(refusal(await post("{route")), /The body must be JSON/);
  assert.match(refusal(await post({ route: 5 })), /route must be an encoded polyline string or a GeoJSON LineString object/);
  assert.match(refusal(await post({ route: { type: "MultiLineString", coordinates: [] } })), /route is a GeoJSON MultiLineString/);
  assert.match(refusal(await post({ polyline })), /route/);
  assert.match(refusal(await post({ route: polyline, near: { lat: 50, lon: 10 } })), /near: unknown argument/);
  assert.match(refusal(await post({ route: polyline }, "?limit=5")), /Unknown query parameter "limit"/);
  assert.match(refusal(await get({ polyline, updatedSince: "2020-01-01T00:00:00Z" })), /Unknown query parameter "updatedSince"/);
  assert.match(refusal(await post({ route: polyline, updatedSince: "2020-01-01T00:00:00Z" })), /a route search takes neither updatedSince nor cursor/);
});

test("the route path answers GET, HEAD and POST; a body over the cap is 413", async () => {
  const put = await call(`/api/v1/route?polyline=${encodeURIComponent(polyline)}`, { method: "PUT" });
  assert.equal(put.status, 405);
  assert.equal(put.response.headers.get("allow"), "GET, HEAD, POST");
  const head = await call(`/api/v1/route?polyline=${encodeURIComponent(polyline)}`, { method: "HEAD" });
  assert.equal(head.status, 200);
  const small = createChargingHandler({ ...services, maxBodyBytes: 1024 });
  const big = await small(
    new Request("http://api.test/api/v1/route", { method: "POST", body: JSON.stringify({ route: "?".repeat(2000) }) }),
    { clientAddress: "127.0.0.1" },
  );
  assert.equal(big.status, 413);
});

test("corridorKm without a route is refused on search_sites", async () => {
  const mcp = await call("/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "search_sites", arguments: { corridorKm: 3 } } }),
  });
  const result = (mcp.body as { result: { isError?: boolean; content: { text: string }[] } }).result;
  assert.equal(result.isError, true);
  assert.match(result.content[0]?.text ?? "", /INVALID_ARGUMENTS.*corridorKm needs route/);
});

test("the OpenAPI document has the route as GET (query) and POST (JSON body), answering like the search", async () => {
  const doc = (await call("/api/v1/openapi.json")).body as {
    paths: Record<string, Record<string, { operationId: string; parameters?: { name: string }[]; requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } }>>;
  };
  const { get: read, post: sent } = doc.paths["/api/v1/route"] ?? {};
  assert.equal(read?.operationId, "searchRoute");
  assert.ok(read?.parameters?.some((p) => p.name === "polyline") && read.parameters.some((p) => p.name === "corridorKm"));
  assert.equal(sent?.operationId, "searchRoutePost");
  assert.deepEqual(sent?.parameters?.map((p) => p.name), ["format"]);
  const body = sent?.requestBody?.content["application/json"]?.schema.properties ?? {};
  assert.ok("route" in body && "corridorKm" in body && "minPowerKw" in body, Object.keys(body).join());
});

test("MCP still lists four tools; search_sites declares route and corridorKm", async () => {
  const listed = await call("/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }),
  });
  const tools = (listed.body as { result: { tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[] } }).result.tools;
  assert.deepEqual(tools.map((t) => t.name), ["search_sites", "find_nearby_sites", "get_site", "get_site_status"]);
  const input = tools[0]?.inputSchema.properties ?? {};
  assert.ok("route" in input && "corridorKm" in input, Object.keys(input).join());
});
