import assert from "node:assert/strict";
import { test } from "node:test";
import { createChargingHandler } from "../../../../src/charging/handler.ts";
import { v } from "../../../../deps.ts";
import { SearchInput, siteQueryOf } from "../../../../src/charging/operations/inputs.ts";
import { searchOfQuery, SitesQuery } from "../../../../src/charging/operations/rest-queries.ts";
import { parseQuery } from "../../../../src/shared/http/query.ts";
import { STAGE } from "../../../../src/shared/build-info.ts";
import { INVALID } from "./cases.ts";
import { base, call, type Envelope, make, setClock, status, store } from "./harness.ts";
import { SITES } from "./sites.ts";

test("GET /healthz answers ok and the build stage", async () => {
  const { status: code, body } = await call(make(), "/healthz");
  assert.equal(code, 200);
  assert.deepEqual(body, { ok: true, stage: STAGE });
  assert.equal(Number.isInteger(STAGE), true);
});

test("GET /api/v1/sites pages with defaults, totals and per-partition attribution", async () => {
  const { status: code, body } = await call(make(), "/api/v1/sites");
  assert.equal(code, 200);
  const { data, page, attribution } = body as {
    data: { id: string }[];
    page: unknown;
    attribution: unknown[];
  };
  assert.deepEqual(page, { limit: 20, offset: 0, total: SITES.length });
  assert.equal(data.length, 20);
  assert.ok(attribution.length >= 1);
  const next = await call(make(), "/api/v1/sites?limit=5&offset=32");
  assert.deepEqual(next.body?.page, { limit: 5, offset: 32, total: SITES.length });
  assert.equal((next.body?.data as unknown[]).length, 2);
});

test("GET /api/v1/sites filters by bbox, connector, minPower and openOnly", async () => {
  const handler = make();
  const ids = async (query: string) =>
    ((await call(handler, `/api/v1/sites?${query}`)).body?.data as { id: string }[]).map((s) => s.id);
  // Nearest first from the box centre (13.5,52.5): ocm:2 at 13.41,52.51 is nearer than ocm:1 at 13.4,52.5.
  assert.deepEqual(await ids("bbox=13,52,14,53"), ["ocm:2", "ocm:1"]);
  assert.deepEqual(await ids("bbox=13,52,14,53&openOnly=true"), ["ocm:1"]);
  assert.deepEqual(await ids("bbox=13,52,14,53&openOnly=false"), ["ocm:2", "ocm:1"]);
  assert.deepEqual(await ids("connector=CCS"), ["ocm:2"]);
  assert.deepEqual(await ids("minPower=100"), ["ocm:2"]);
  assert.deepEqual(await ids("minPower=22.5&connector=type"), ["ocm:2"]);
  assert.deepEqual(await ids("bbox=2,48,3,49"), ["osm:node/10", "osm:way/20"]);
  const near = (await call(handler, "/api/v1/sites?near=48.85,2.35&radiusKm=5")).body?.data as {
    id: string;
    distanceKm: number;
  }[];
  assert.deepEqual(
    near.map((s) => s.id),
    ["osm:node/10", "osm:way/20"],
  );
  assert.equal(near[0]?.distanceKm, 0);
});

test("GET /api/v1/sites answers INVALID_ARGUMENTS naming the parameter and rule for every bad input", async () => {
  const handler = make({ ratePerMinute: 1000 });
  for (const [query, message] of INVALID) {
    const { status: code, body } = await call(handler, `/api/v1/sites?${query}`);
    assert.equal(code, 400, query);
    assert.equal((body as Envelope).error.code, "INVALID_ARGUMENTS", query);
    assert.match((body as Envelope).error.message, message, query);
  }
});

test("GET /api/v1/sites accepts boundary values and a box across the antimeridian", async () => {
  const handler = make();
  for (const query of [
    "limit=1",
    "limit=100",
    "offset=0",
    "offset=100000",
    "bbox=-180,-90,180,90",
    "bbox=170,-20,-170,-10",
    "minPower=0",
  ]) {
    assert.equal((await call(handler, `/api/v1/sites?${query}`)).status, 200, query);
  }
});

test("GET /api/v1/sites/:id finds ids sent encoded or decoded, and 404s unknown or malformed ids", async () => {
  const handler = make();
  for (const path of [
    "ocm%3A1",
    "ocm:1",
    "osm%3Anode%2F10",
    "osm:node/10",
    "osm%3Anode/10",
    "osm%3away%2F20",
  ]) {
    const { status: code, body } = await call(handler, `/api/v1/sites/${path}`);
    assert.equal(code, 200, path);
    assert.match((body?.data as { id: string }).id, /^(ocm:1|osm:node\/10|osm:way\/20)$/, path);
  }
  for (const path of [
    "ocm%3A999",
    "ocm:abc",
    "xyz:1",
    "osm:node",
    "osm:node/10/extra",
    "%E0%A4%A",
    "osm%253Anode%252F10",
  ]) {
    const { status: code, body } = await call(handler, `/api/v1/sites/${path}`);
    assert.equal(code, 404, path);
    assert.equal((body as Envelope).error.code, "NOT_FOUND", path);
  }
});

test("GET /api/v1/status/:id answers the status record, stale after the 60-minute SLO, and 404s unknown ids", async () => {
  const handler = make();
  setClock("2020-01-01T01:00:00.000Z");
  const fresh = await call(handler, "/api/v1/status/ocm%3A2");
  assert.equal(fresh.status, 200);
  const record = fresh.body?.data as Record<string, unknown>;
  assert.equal(record.id, "ocm:2");
  assert.equal(record.status, "OUTOFORDER");
  assert.equal(record.retrievedAt, "2020-01-01T00:00:00.000Z");
  assert.equal(record.source, "ocm");
  assert.equal(record.stale, false);
  assert.equal("staleReason" in record, false);
  assert.deepEqual(Object.keys(record.attribution as object).sort(), ["text", "url"]);
  setClock("2020-01-01T01:00:00.001Z");
  const stale = (await call(handler, "/api/v1/status/osm:node/10")).body?.data as Record<string, unknown>;
  assert.equal(stale.stale, true);
  assert.match(String(stale.staleReason), /60/);
  for (const id of ["ocm%3A999", "osm%3Anode%2F999", "nope"]) {
    const missing = await call(handler, `/api/v1/status/${id}`);
    assert.equal(missing.status, 404, id);
    assert.equal((missing.body as Envelope).error.code, "NOT_FOUND");
  }
});

test("unknown routes answer NOT_FOUND; wrong methods 405 with allow; HEAD works; GET /mcp is a JSON-RPC 405", async () => {
  const handler = make();
  assert.equal((await call(handler, "/api/v1/sites/")).status, 200, "a trailing slash lists sites");
  for (const path of [
    "/",
    "/api/v1",
    "/api/v2/sites",
    "/api/v1/sitesx",
    "/healthz/x",
    "/api/v1/status/",
    "/mcp/x",
  ]) {
    const { status: code, body } = await call(handler, path);
    assert.equal(code, 404, path);
    assert.equal((body as Envelope).error.code, "NOT_FOUND", path);
  }
  const post = await call(handler, "/api/v1/sites", { method: "POST", body: "{}" });
  assert.equal(post.status, 405);
  assert.equal(post.response.headers.get("allow"), "GET, HEAD");
  assert.equal((post.body as Envelope).error.code, "METHOD_NOT_ALLOWED");
  const head = await handler(new Request(`${base}/api/v1/sites/ocm%3A1`, { method: "HEAD" }));
  assert.equal(head.status, 200);
  const mcp = await call(handler, "/mcp");
  assert.equal(mcp.status, 405);
  assert.match(JSON.stringify(mcp.body), /use POST \/mcp/);
  for (const method of ["PUT", "DELETE"]) assert.equal((await call(handler, "/mcp", { method })).status, 405);
});

test("POST /mcp serves the four tools in-process", async () => {
  const handler = make();
  const response = await handler(
    new Request(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    }),
  );
  assert.equal(response.status, 200);
  const { result } = (await response.json()) as { result: { tools: { name: string }[] } };
  assert.deepEqual(result.tools.map((t) => t.name).sort(), [
    "find_nearby_sites",
    "get_site",
    "get_site_status",
    "search_sites",
  ]);
});

test("repeated search queries are answered from the bounded answer cache from their second request on, errors never cached", async () => {
  let searches = 0;
  const counting = {
    ...store,
    search: (q: Parameters<typeof store.search>[0]) => (searches++, store.search(q)),
  };
  const handler = createChargingHandler({ store: counting, status });
  const first = await call(handler, "/api/v1/sites?bbox=13,52,14,53");
  // A query asked once (a map pan's box) is not kept; asked again, it is.
  const second = await call(handler, "/api/v1/sites?bbox=13,52,14,53");
  assert.equal(searches, 2);
  const third = await call(handler, "/api/v1/sites?bbox=13,52,14,53");
  assert.deepEqual(second.body, first.body);
  assert.deepEqual(third.body, first.body);
  assert.equal(third.response.headers.get("etag"), first.response.headers.get("etag"));
  assert.equal(searches, 2, "the third is answered from the kept answer");
  await call(handler, "/api/v1/sites?bbox=13,52,14,53&limit=1");
  assert.equal(searches, 3);
  assert.equal((await call(handler, "/api/v1/sites?limit=0")).status, 400);
  assert.equal((await call(handler, "/api/v1/sites?limit=0")).status, 400);
  // A sync page is read once: searched each time, not kept, and still tagged per query.
  const sync = "/api/v1/sites?updatedSince=2000-01-01&limit=2";
  const [page, again, more] = [await call(handler, sync), await call(handler, sync), await call(handler, sync)];
  assert.equal(searches, 6);
  assert.deepEqual(more.body, page.body);
  assert.deepEqual(again.body, page.body);
  assert.equal(again.status, 200);
  assert.ok(page.response.headers.get("etag"));
  assert.equal(again.response.headers.get("etag"), page.response.headers.get("etag"));
});

test("assembled answers are byte-for-byte the JSON of the same values", async () => {
  const handler = make();
  for (const query of ["bbox=13,52,14,53", "near=48.85,2.35&radiusKm=5", "connector=zzz"]) {
    const response = await handler(new Request(`${base}/api/v1/sites?${query}`));
    const text = await response.text();
    const parsed = JSON.parse(text) as { page: { limit: number; offset: number } };
    const input = v.parse(SearchInput, searchOfQuery(parseQuery(SitesQuery, new URLSearchParams(query))));
    const expected = await store.search(siteQueryOf(input));
    assert.equal(
      text,
      JSON.stringify({
        data: expected.data,
        page: { ...parsed.page, total: expected.total },
        attribution: expected.attribution,
      }),
      query,
    );
  }
  const one = await handler(new Request(`${base}/api/v1/sites/ocm%3A1`));
  const site = store.get("ocm:1");
  assert.ok(site);
  assert.equal(await one.text(), JSON.stringify({ data: site, attribution: store.attributionFor(site) }));
});

test("an unknown id gets the same NOT_FOUND guidance on both id routes; a huge id is not echoed whole", async () => {
  const handler = make();
  const site = await call(handler, "/api/v1/sites/ocm%3A999");
  const status = await call(handler, "/api/v1/status/ocm%3A999");
  assert.equal(status.status, 404);
  assert.deepEqual(status.body, site.body);
  assert.match((status.body as Envelope).error.message, /Search with GET \/api\/v1\/sites first/);
  for (const route of ["sites", "status"]) {
    const { status: code, body } = await call(handler, `/api/v1/${route}/ocm%3A${"9".repeat(5000)}`);
    assert.equal(code, 404);
    assert.ok((body as Envelope).error.message.length < 300, route);
  }
});

test("connector length counts characters: 64 plugs or umlauts pass, like 64 ASCII letters", async () => {
  const handler = make();
  for (const text of ["%F0%9F%94%8C", "%C3%BC", "x"]) {
    const { status: code, body } = await call(handler, `/api/v1/sites?connector=${text.repeat(64)}`);
    assert.equal(code, 200, text);
    assert.equal((body?.page as { total: number }).total, 0, text);
  }
});

test("GET /api/v1/sites/:id carries the row's credit line, as the status record and get_site do", async () => {
  const { body } = await call(make(), "/api/v1/sites/osm%3Anode%2F10");
  assert.deepEqual(body?.attribution, {
    text: "© OpenStreetMap contributors, ODbL 1.0",
    url: "https://www.openstreetmap.org/copyright",
  });
});
