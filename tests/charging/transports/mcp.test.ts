/** The MCP tools in-process (served by the Node adapter in this process), over the SDK client. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { serve } from "../../../shim/node/serve.ts";
import { createChargingHandler } from "../../../src/charging/handler.ts";
import { createChargingServices } from "../../../src/charging/services.ts";
import { createOcpiFeed } from "../../../src/charging/status/ocpi-feed.ts";
import { storeOfSites } from "../../../src/charging/search/store.ts";
import { SITES } from "./http/sites.ts";

async function withClient(
  live: Parameters<typeof createChargingServices>[1]["live"],
  body: (client: Client) => Promise<void>,
): Promise<void> {
  const services = createChargingServices(
    storeOfSites(SITES),
    { now: () => new Date("2020-01-01T00:10:00.000Z"), ...(live ? { live } : {}) },
  );
  const serving = await serve(createChargingHandler(services), { port: 0 });
  const client = new Client({ name: "t", version: "1" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${serving.url}/mcp`)));
    await body(client);
  } finally {
    await client.close();
    await serving.close();
  }
}

const text = (result: unknown) => JSON.stringify((result as { content?: unknown }).content);

test("search_sites and find_nearby_sites answer pages with attribution; text mirrors the structure", async () => {
  await withClient(undefined, async (client) => {
    const search = await client.callTool({
      name: "search_sites",
      arguments: {
        bbox: { minLon: 13, minLat: 52, maxLon: 14, maxLat: 53 },
        connector: "type",
        minPowerKw: 20,
        openOnly: true,
      },
    });
    const page = search.structuredContent as {
      data: { id: string }[];
      page: unknown;
      attribution: unknown[];
    };
    assert.deepEqual(
      page.data.map((s) => s.id),
      ["ocm:1"],
    );
    assert.deepEqual(page.page, { limit: 20, offset: 0, total: 1 });
    assert.deepEqual(
      JSON.parse((search.content as { text: string }[])[0]?.text ?? ""),
      search.structuredContent,
    );
    const near = await client.callTool({
      name: "find_nearby_sites",
      arguments: {
        lat: 48.85,
        lon: 2.35,
        radiusKm: 5,
        connector: "type2",
        minPowerKw: 1,
        openOnly: true,
        limit: 1,
      },
    });
    const nearest = near.structuredContent as {
      data: { id: string; distanceKm: number }[];
      page: { total: number };
    };
    assert.deepEqual(
      nearest.data.map((s) => s.id),
      ["osm:node/10"],
    );
    assert.equal(nearest.page.total, 1);
  });
});

test("get_site and get_site_status answer records; a fresh registry status is not stale", async () => {
  await withClient(undefined, async (client) => {
    const site = await client.callTool({ name: "get_site", arguments: { id: "osm:way/20" } });
    assert.equal((site.structuredContent as { data: { id: string } }).data.id, "osm:way/20");
    const status = await client.callTool({ name: "get_site_status", arguments: { id: "ocm:2" } });
    const record = (status.structuredContent as { data: { status: string; stale: boolean } }).data;
    assert.equal(record.status, "OUTOFORDER");
    assert.equal(record.stale, false);
    const missing = await client.callTool({ name: "get_site_status", arguments: { id: "ocm:404" } });
    assert.match(text(missing), /NOT_FOUND: .*call search_sites or find_nearby_sites first/);
    const unknown = await client.callTool({ name: "get_site", arguments: { id: "osm:node/404" } });
    assert.match(text(unknown), /NOT_FOUND: No open site has id/);
    const inverted = await client.callTool({
      name: "search_sites",
      arguments: { bbox: { minLon: 0, minLat: 10, maxLon: 1, maxLat: 5 } },
    });
    assert.match(text(inverted), /INVALID_ARGUMENTS: bbox minLat must not exceed maxLat/);
  });
});

test("get_site_status reports UPSTREAM_BLOCKED with a next step when the live feed is refused", async () => {
  const live = createOcpiFeed({
    baseUrl: "http://169.254.169.254/latest",
    policy: { allowHosts: ["169.254.169.254"], resolve: async () => [] },
    fetchImpl: () => Promise.reject(new Error("must not be called")),
    now: () => new Date(),
  });
  await withClient(live, async (client) => {
    const blocked = await client.callTool({ name: "get_site_status", arguments: { id: "ocm:1" } });
    assert.equal(blocked.isError, true);
    assert.match(
      text(blocked),
      /UPSTREAM_BLOCKED: .*Do not retry; get_site still returns the registry status/,
    );
  });
});

test("a misspelt tool argument is refused, not ignored (minPower for minPowerKw would widen a search)", async () => {
  await withClient(undefined, async (client) => {
    const tools = (await client.listTools()).tools;
    for (const tool of tools) assert.equal(tool.inputSchema.additionalProperties, false, tool.name);
    for (const [name, args] of [
      ["search_sites", { minPower: 50 }],
      ["search_sites", { bbox: { minLon: 0, minLat: 0, maxLon: 1, maxLat: 1, srs: "3857" } }],
      ["find_nearby_sites", { lat: 48.85, lon: 2.35, radius: 2 }],
      ["get_site", { id: "ocm:1", verbose: true }],
      ["get_site_status", { id: "ocm:1", live: true }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      assert.equal(result.isError, true, name);
      assert.match(text(result), /INVALID_ARGUMENTS: (bbox\.)?(minPower|srs|radius|verbose|live): unknown argument/);
    }
  });
});

test("a blank connector is refused by the tools as by REST (it would match every label with a space)", async () => {
  await withClient(undefined, async (client) => {
    const result = await client.callTool({ name: "search_sites", arguments: { connector: "  " } });
    assert.equal(result.isError, true);
    assert.match(text(result), /INVALID_ARGUMENTS: connector must not be blank/);
  });
});
