/**
 * Issue 22's filters, reference data, data set and freshness through every transport, on the
 * embedded real data: the substring defects reproduced, the exact filters giving the right
 * plug, the reference and dataset routes, Last-Modified with If-Modified-Since, a sync paged
 * by cursor over HTTP, the MCP tools' enums and resources, and the CLI flags.
 * @module
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { serve } from "../../../shim/node/serve.ts";
import { parseDatasetFile } from "../../../src/charging/data/dataset.ts";
import type { Site } from "../../../src/charging/data/model.ts";
import { createChargingHandler } from "../../../src/charging/handler.ts";
import { createChargingServices } from "../../../src/charging/services.ts";
import { storeOfSites } from "../../../src/charging/search/store.ts";
import { type CliDeps, runCli } from "../../../src/charging/transports/cli/run.ts";

const file = parseDatasetFile(JSON.parse(readFileSync(new URL("../../../fixtures/charging/sites.json", import.meta.url), "utf8")));
const store = storeOfSites(file.sites, file.header);
const services = createChargingServices(store, { now: () => new Date("2026-11-27T00:00:00Z") });
const handler = createChargingHandler({ ...services, ratePerMinute: 1_000_000 });

type Page = { data: Site[]; page: { limit: number; offset: number; total: number; nextCursor?: string } };

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await handler(new Request(`http://api.test${path}`, { headers }), { clientAddress: "127.0.0.1" });
  const text = await response.text();
  return { response, status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

const page = async (path: string) => {
  const { status, body } = await get(path);
  assert.equal(status, 200, `${path}: ${JSON.stringify(body)}`);
  return body as unknown as Page;
};

const types = (s: Site) => s.connectors.map((c) => c.type);

test("the substring defects stay as the spec's rule; connectorType and current give the right plug", async () => {
  // connector=Type 1 also finds CCS (Type 1)-only DC sites: "type 1" is in their label.
  const substring = await page("/api/v1/sites?connector=Type%201&limit=100&offset=0");
  const ccsOnly = (s: Site) => !types(s).includes("type1");
  const all: Site[] = [];
  for (let offset = 0; offset < substring.page.total; offset += 100) {
    all.push(...(await page(`/api/v1/sites?connector=Type%201&limit=100&offset=${offset}`)).data);
  }
  assert.ok(all.some(ccsOnly), "connector=Type 1 reaches a site without a Type 1 plug");
  // connector=AC finds Superchargers ("ac" inside "NACS" or a label).
  const ac = await page("/api/v1/sites?connector=AC&limit=100");
  assert.ok(ac.page.total > 0);

  const exact = await page("/api/v1/sites?connectorType=Type%201&limit=100");
  assert.ok(exact.page.total > 0);
  for (const s of exact.data) assert.ok(types(s).includes("type1"), s.id);
  assert.ok(exact.page.total < substring.page.total, "the exact filter drops the CCS (Type 1)-only sites");
  for (const alias of ["J1772", "SAE%20J1772", "type1", "TYPE-1"]) {
    assert.equal((await page(`/api/v1/sites?connectorType=${alias}&limit=1`)).page.total, exact.page.total, alias);
  }
  const ccs = await page("/api/v1/sites?connectorType=CCS&limit=100");
  for (const s of ccs.data) assert.ok(types(s).some((t) => t === "ccs1" || t === "ccs2"), s.id);
  const type2 = await page("/api/v1/sites?connectorType=Type-2&limit=100");
  assert.ok(type2.page.total > 0, "Type-2 finds Type 2 sites (the substring finds none)");
  assert.equal((await page("/api/v1/sites?connectorType=Mennekes&limit=1")).page.total, type2.page.total);

  const dc = await page("/api/v1/sites?current=DC&limit=100");
  for (const s of dc.data) assert.ok(s.connectors.some((c) => c.current === "DC"), s.id);
  const acSites = await page("/api/v1/sites?current=ac&limit=100");
  for (const s of acSites.data) assert.ok(s.connectors.some((c) => c.current === "AC"), s.id);
  // Tesla DC: the same connector is Tesla and DC (Superchargers, not destination chargers).
  const superchargers = await page("/api/v1/sites?connectorType=Tesla&current=DC&limit=100");
  assert.ok(superchargers.page.total > 0);
  for (const s of superchargers.data) assert.ok(s.connectors.some((c) => c.type === "tesla" && c.current === "DC"), s.id);
});

test("an unknown value answers INVALID_ARGUMENTS listing the vocabulary", async () => {
  const cases: [string, RegExp][] = [
    ["connectorType=Type%209", /connectorType "Type 9" is not one of ccs2, ccs1, chademo, type2, type1, nacs/],
    ["connectorType=type2,", /connectorType must not have an empty item/],
    ["current=XC", /current "XC" is not one of AC, DC/],
    ["current=AC,DC", /current must be one of AC, DC \(one value\)/],
    ["access=everyone", /access "everyone" is not one of public, customers, membership, private, unknown/],
    ["status=open", /status "open" is not one of AVAILABLE/],
    ["country=DEU", /country must be ISO 3166-1 alpha-2/],
    ["operator=nobody-at-all", /operator "nobody-at-all" is no operator of this data set; use an id or name from GET \/api\/v1\/reference/],
    ["updatedSince=yesterday", /updatedSince must be an ISO 8601 date/],
    ["updatedSince=2025-02-30", /updatedSince must be a real date|ISO/],
    ["cursor=bad%24cursor", /cursor is not one this API gave/],
  ];
  for (const [query, message] of cases) {
    const { status, body } = await get(`/api/v1/sites?${query}`);
    assert.equal(status, 400, query);
    const error = (body as { error: { code: string; message: string } }).error;
    assert.equal(error.code, "INVALID_ARGUMENTS", query);
    assert.match(error.message, message, query);
  }
});

test("country, operator, access and status combine with bbox, near and each other; totals are exact", async () => {
  const reference = (await get("/api/v1/reference")).body as { data: { operators: { id: string; name: string; count: number }[]; countries: { code: string; count: number }[] } };
  const us = reference.data.countries.find((c) => c.code === "US");
  assert.ok(us);
  assert.equal((await page("/api/v1/sites?country=us&limit=1")).page.total, us.count);
  const gb = reference.data.countries.find((c) => c.code === "GB")?.count ?? 0;
  assert.equal((await page("/api/v1/sites?country=US,GB&limit=1")).page.total, us.count + gb);
  const top = reference.data.operators[0];
  assert.ok(top);
  assert.equal((await page(`/api/v1/sites?operator=${encodeURIComponent(top.name)}&limit=1`)).page.total, top.count);
  assert.equal((await page(`/api/v1/sites?operator=${top.id}&limit=1`)).page.total, top.count);

  const everything = [...store.sites()];
  const expect = (keep: (s: Site) => boolean) => everything.filter(keep).length;
  const publicOpen = await page("/api/v1/sites?access=public&status=AVAILABLE&limit=5");
  assert.equal(publicOpen.page.total, expect((s) => s.access === "public" && s.status === "AVAILABLE"));
  // openOnly keeps AVAILABLE sites, private and customers-only ones included; access narrows it.
  const openOnly = await page("/api/v1/sites?openOnly=true&limit=1");
  const privateOpen = expect((s) => s.status === "AVAILABLE" && (s.access === "private" || s.access === "customers"));
  assert.ok(privateOpen > 0);
  assert.equal(openOnly.page.total, expect((s) => s.status === "AVAILABLE"));
  assert.equal((await page("/api/v1/sites?openOnly=true&access=private,customers&limit=1")).page.total, privateOpen);

  const box = "-123,37,-121,38.5";
  const boxed = await page(`/api/v1/sites?bbox=${box}&country=US&connectorType=type1&access=public,unknown&limit=100`);
  const inBox = (s: Site) => s.lon >= -123 && s.lon <= -121 && s.lat >= 37 && s.lat <= 38.5;
  assert.equal(
    boxed.page.total,
    expect((s) => inBox(s) && s.address?.countryCode === "US" && types(s).includes("type1") && (s.access === "public" || s.access === null)),
  );
  const near = await page("/api/v1/sites?near=51.5,-0.12&radiusKm=50&country=GB&status=AVAILABLE,UNKNOWN&limit=100");
  for (const s of near.data) assert.ok(s.address?.countryCode === "GB" && s.distanceKm !== undefined && s.distanceKm <= 50, s.id);
});

test("GET /api/v1/reference and /api/v1/dataset: vocabularies with counts, the data set with its sources", async () => {
  const { status, body, response } = await get("/api/v1/reference");
  assert.equal(status, 200);
  const data = (body as { data: Record<string, { count: number }[]> }).data;
  for (const key of ["connectorTypes", "currentTypes", "operators", "countries", "access", "statuses"]) {
    assert.ok(Array.isArray(data[key]) && (data[key] as unknown[]).length > 0, key);
  }
  const total = (data.access as { count: number }[]).reduce((sum, a) => sum + a.count, 0);
  assert.equal(total, store.size, "every site has one access value (unknown included)");
  assert.equal((data.statuses as { count: number }[]).reduce((sum, a) => sum + a.count, 0), store.size);
  assert.ok(response.headers.get("etag"));
  assert.equal((await get("/api/v1/reference?format=json")).status, 400, "these routes take no parameter");

  const dataset = (await get("/api/v1/dataset")).body as { data: { id: string; importedAt: string; sites: number; sources: { licence: string; count: number }[]; files: unknown[] } };
  assert.equal(dataset.data.id, store.version);
  assert.equal(dataset.data.importedAt, file.header.importedAt);
  assert.equal(dataset.data.sites, store.size);
  assert.equal(dataset.data.sources.reduce((sum, s) => sum + s.count, 0), store.size);
  assert.ok(dataset.data.sources.every((s) => s.licence.length > 0));
  assert.ok(dataset.data.files.length > 0);
});

test("Last-Modified is the import time; If-Modified-Since answers 304, If-None-Match wins over it", async () => {
  const first = await get("/api/v1/sites?country=GB&limit=2");
  const lastModified = first.response.headers.get("last-modified");
  assert.equal(lastModified, new Date(file.header.importedAt).toUTCString());
  const etag = first.response.headers.get("etag") as string;
  assert.equal((await get("/api/v1/sites?country=GB&limit=2", { "if-modified-since": lastModified as string })).status, 304);
  assert.equal((await get("/api/v1/sites/ocm%3A2388", { "if-modified-since": "Fri, 27 Nov 2026 00:00:00 GMT" })).status, 304);
  assert.equal((await get("/api/v1/dataset", { "if-modified-since": lastModified as string })).status, 304);
  assert.equal((await get("/api/v1/sites?country=GB&limit=2", { "if-modified-since": "Thu, 01 Jan 2026 00:00:00 GMT" })).status, 200);
  assert.equal((await get("/api/v1/sites?country=GB&limit=2", { "if-modified-since": "not a date" })).status, 200);
  // If-None-Match present: If-Modified-Since is not evaluated (RFC 9110 13.2.2).
  const mismatch = { "if-none-match": '"other"', "if-modified-since": lastModified as string };
  assert.equal((await get("/api/v1/sites?country=GB&limit=2", mismatch)).status, 200);
  assert.equal((await get("/api/v1/sites?country=GB&limit=2", { "if-none-match": etag })).status, 304);
  assert.equal((await get("/api/v1/status/ocm%3A2388")).response.headers.get("last-modified"), null, "a live status has none");
});

test("a sync over HTTP: updatedSince, then page.nextCursor until none; each site once", async () => {
  const since = "2024-01-01T00:00:00Z";
  const seen: string[] = [];
  let cursor: string | undefined;
  let total: number;
  let last = "";
  do {
    const path: string = `/api/v1/sites?updatedSince=${since}&country=US&limit=100${cursor ? `&cursor=${cursor}` : ""}`;
    const answer = await page(path);
    total = answer.page.total;
    for (const s of answer.data) {
      const key = `${s.lastUpdated}`;
      assert.ok(key >= last, "oldest change first");
      assert.ok(key >= since.replace("Z", ""), s.id);
      last = key;
    }
    seen.push(...answer.data.map((s) => s.id));
    cursor = answer.page.nextCursor;
  } while (cursor);
  assert.equal(new Set(seen).size, seen.length, "no duplicates");
  assert.equal(seen.length, total);
  const expected = [...store.sites()].filter((s) => s.address?.countryCode === "US" && Date.parse(s.lastUpdated ?? "") >= Date.parse(since));
  assert.equal(total, expected.length);
});

test("MCP: still four tools, whose inputs carry the new filters with enums; the reference and dataset are resources", async () => {
  const serving = await serve(handler, { port: 0 });
  const client = new Client({ name: "t", version: "1" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${serving.url}/mcp`)));
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ["find_nearby_sites", "get_site", "get_site_status", "search_sites"]);
    for (const name of ["search_sites", "find_nearby_sites"]) {
      const props = (tools.find((t) => t.name === name)?.inputSchema.properties ?? {}) as Record<string, { items?: { enum?: string[] }; enum?: string[] }>;
      assert.ok(props.connectorType?.items?.enum?.includes("type1"), name);
      assert.deepEqual(props.current?.enum, ["AC", "DC"], name);
      assert.ok(props.access?.items?.enum?.includes("unknown"), name);
      assert.ok(props.status?.items?.enum?.includes("AVAILABLE"), name);
      assert.ok(props.country && props.operator, name);
    }
    const search = await client.callTool({ name: "search_sites", arguments: { connectorType: ["tesla"], current: "DC", country: ["US"], limit: 5 } });
    const structured = search.structuredContent as Page;
    assert.ok(structured.page.total > 0);
    for (const s of structured.data) assert.ok(s.connectors.some((c) => c.type === "tesla" && c.current === "DC"));
    const refused = await client.callTool({ name: "search_sites", arguments: { connectorType: ["Type 1"] } });
    assert.equal(refused.isError, true);
    assert.match(JSON.stringify(refused.content), /connectorType must be one of ccs2, ccs1/);

    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate).sort(), ["charging://dataset", "charging://reference"]);
    const read = await client.readResource({ uri: "charging://reference" });
    const reference = JSON.parse((read.contents[0] as { text: string }).text) as { data: { connectorTypes: unknown[] } };
    assert.deepEqual(reference, (await get("/api/v1/reference")).body);
    const dataset = await client.readResource({ uri: "charging://dataset" });
    assert.match((dataset.contents[0] as { text: string }).text, /"importedAt":"2026-11-21T05:00:00.000Z"/);
    await assert.rejects(client.readResource({ uri: "charging://nothing" }), /No resource at charging:\/\/nothing/);
  } finally {
    await client.close();
    await serving.close();
  }
});

test("CLI: charging search --connector-type ... --current ... --country ... reaches the same operation", async () => {
  const out: string[] = [];
  const err: string[] = [];
  const deps: CliDeps = {
    env: {},
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    local: async () => handler,
    fetch: async () => {
      throw new Error("no network");
    },
    serve: async () => 0,
    runImport: async () => 0,
    runRefresh: async () => 0,
  } as CliDeps;
  const args = ["--connector-type", "Type 1", "--current", "AC", "--country", "us", "--access", "public", "--status", "AVAILABLE", "--limit", "3"];
  assert.equal(await runCli(["search", ...args, "--json"], deps), 0, err.join(""));
  const viaCli = JSON.parse(out.join("")) as Page;
  const viaRest = await page("/api/v1/sites?connectorType=Type%201&current=AC&country=us&access=public&status=AVAILABLE&limit=3");
  assert.deepEqual(viaCli, viaRest);
  out.length = 0;
  assert.equal(await runCli(["search", "--updated-since", "2020-01-01", "--operator", "ChargePoint", "--limit", "2"], deps), 0, err.join(""));
  assert.match(out.join(""), /next page: --cursor [A-Za-z0-9_-]+/);
  assert.equal(await runCli(["search", "--connector-type", "warp"], deps), 2);
  assert.match(err.join(""), /--connector-type "warp" is not one of/);
});
