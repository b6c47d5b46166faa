/** The four MCP tools through the official SDK client over a real socket to dist/charging.js. */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startBuilt, stop } from "../../../../scripts/smoke.ts";
import { ensureBuilt } from "../../built.ts";

type Started = Awaited<ReturnType<typeof startBuilt>>;
type Site = { id: string; lat: number; lon: number; maxPowerKw: number | null; distanceKm?: number };
type Page = {
  data: Site[];
  page: { limit: number; offset: number; total: number };
  attribution: { text: string }[];
};

let server: Started;
const client = new Client({ name: "charging-test", version: "1" });

before(async () => {
  ensureBuilt();
  server = await startBuilt({ CHARGING_RATE_LIMIT: "100000" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
});
after(async () => {
  await client.close();
  await stop(server.child);
});

const text = (result: unknown) => JSON.stringify((result as { content?: unknown }).content);

test("tools/list shows four read-only tools with input and output schemas", async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [
    "find_nearby_sites",
    "get_site",
    "get_site_status",
    "search_sites",
  ]);
  for (const tool of tools) {
    assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
    assert.equal(tool.annotations?.openWorldHint, false, tool.name);
    assert.equal(tool.outputSchema?.type, "object", tool.name);
    assert.ok((tool.description ?? "").length > 80, tool.name);
  }
  const nearby = tools.find((t) => t.name === "find_nearby_sites");
  assert.deepEqual(nearby?.inputSchema.required, ["lat", "lon"]);
  assert.equal((nearby?.inputSchema.properties?.lat as { type: string }).type, "number");
});

test("search_sites pages typed filters; get_site and get_site_status follow an id from it", async () => {
  const result = await client.callTool({
    name: "search_sites",
    arguments: { connector: "ccs", minPowerKw: 50, limit: 3 },
  });
  assert.equal(result.isError, undefined);
  const page = result.structuredContent as Page;
  assert.equal(page.data.length, 3);
  assert.deepEqual(page.page.limit, 3);
  assert.ok(page.data.every((s) => (s.maxPowerKw ?? 0) >= 50));
  assert.ok(page.attribution.length > 0);
  const id = (page.data[0] as Site).id;

  const site = await client.callTool({ name: "get_site", arguments: { id } });
  assert.equal((site.structuredContent as { data: Site }).data.id, id);
  assert.ok((site.structuredContent as { attribution: { url: string } }).attribution.url.startsWith("http"));

  const status = await client.callTool({ name: "get_site_status", arguments: { id } });
  const record = (status.structuredContent as { data: { id: string; stale: boolean; staleReason: string } })
    .data;
  assert.equal(record.id, id);
  assert.equal(record.stale, true);
  assert.match(record.staleReason, /60-minute/);

  const box = await client.callTool({
    name: "search_sites",
    arguments: { bbox: { minLon: -9.2, minLat: 38.7, maxLon: -9.0, maxLat: 38.9 }, limit: 5 },
  });
  assert.ok((box.structuredContent as Page).data.every((s) => s.lon >= -9.2 && s.lon <= -9.0));
});

test("find_nearby_sites returns sites inside the radius, nearest first", async () => {
  const result = await client.callTool({
    name: "find_nearby_sites",
    arguments: { lat: 38.72, lon: -9.14, radiusKm: 5, limit: 5 },
  });
  const { data } = result.structuredContent as Page;
  assert.ok(data.length > 0);
  const distances = data.map((s) => s.distanceKm as number);
  assert.deepEqual(
    distances,
    [...distances].sort((a, b) => a - b),
  );
  assert.ok(distances.every((d) => d <= 5));
});

test("tool errors tell the agent what to do next", async () => {
  const missing = await client.callTool({ name: "get_site", arguments: { id: "ocm:5452" } });
  assert.equal(missing.isError, true);
  assert.match(
    text(missing),
    /NOT_FOUND: No open site has id \\"ocm:5452\\".*call search_sites or find_nearby_sites first/,
  );
  const statusMissing = await client.callTool({ name: "get_site_status", arguments: { id: "osm:node/1" } });
  assert.match(text(statusMissing), /NOT_FOUND/);
  const typed = await client.callTool({ name: "search_sites", arguments: { limit: "5" } });
  assert.equal(typed.isError, true);
  assert.match(text(typed), /INVALID_ARGUMENTS: limit: /);
  const inverted = await client.callTool({
    name: "search_sites",
    arguments: { bbox: { minLon: 0, minLat: 10, maxLon: 1, maxLat: 5 } },
  });
  assert.match(text(inverted), /bbox minLat must not exceed maxLat/);
  const far = await client.callTool({ name: "find_nearby_sites", arguments: { lat: 95, lon: 0 } });
  assert.match(text(far), /INVALID_ARGUMENTS: lat: /);
});
