/** `charging route`: --polyline or --geojson FILE, filters, table and JSON, in-process and with --url. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { type CliDeps, runCli } from "../../../../src/charging/transports/cli/run.ts";
import { createChargingHandler } from "../../../../src/charging/handler.ts";
import { createStatusService } from "../../../../src/charging/status/service.ts";
import { storeOfSites } from "../../../../src/charging/search/store.ts";
import { site } from "../../data/helpers.ts";
import { encodePolyline } from "../../../../src/charging/operations/polyline.ts";

const store = storeOfSites([
  site("ocm:1", { lon: 10.9, lat: 50.01, maxPowerKw: 150 }),
  site("ocm:2", { lon: 10.1, lat: 50.0, maxPowerKw: 50 }),
  site("ocm:3", { lon: 10.5, lat: 50.3, maxPowerKw: 150 }),
]);
const handler = createChargingHandler({ store, status: createStatusService(store, { now: () => new Date("2026-01-01T00:00:00Z") }) });
const polyline = encodePolyline([[10, 50], [11, 50]]);
const FILES: Record<string, string> = {
  "route.geojson": JSON.stringify({ type: "LineString", coordinates: [[10, 50], [11, 50]] }),
  "point.geojson": JSON.stringify({ type: "Point", coordinates: [10, 50] }),
};

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const requests: string[] = [];
  const deps: CliDeps = {
    env: { CHARGING_API_KEY: "k".repeat(16) },
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    local: async () => handler,
    fetch: async (input, init) => {
      requests.push(`${init?.method} ${String(input)} ${JSON.stringify(init?.headers)}`);
      return handler(new Request(input as URL, init));
    },
    serve: async () => 0,
    runImport: async () => 0,
    runRefresh: async () => 0,
    readText: async (path) => {
      const text = FILES[path];
      if (text === undefined) throw new Error(`ENOENT: no such file ${path}`);
      return text;
    },
  };
  const code = await runCli(argv, deps);
  return { code, out: out.join(""), err: err.join(""), requests };
}

test("charging route --polyline prints the sites in route order with ALONG KM and OFF KM", async () => {
  const { code, out } = await run("route", "--polyline", polyline);
  assert.equal(code, 0);
  assert.match(out, /ID\s+NAME\s+KW\s+CONNECTORS\s+STATUS\s+ALONG KM\s+OFF KM\s+PLACE/);
  assert.ok(out.indexOf("ocm:2") < out.indexOf("ocm:1") && !out.includes("ocm:3"), out);
  assert.match(out, /sites 1-2 of 2/);
});

test("--geojson FILE, --corridor-km and the filters; --json prints the API answer; --url posts it with the key", async () => {
  const wide = await run("route", "--geojson", "route.geojson", "--corridor-km", "50", "--min-power", "100", "--json");
  assert.equal(wide.code, 0, wide.err);
  const body = JSON.parse(wide.out) as { data: { id: string; alongKm: number }[]; page: { total: number } };
  assert.deepEqual(body.data.map((s) => s.id), ["ocm:3", "ocm:1"]);
  const remote = await run("route", "--polyline", polyline, "--url", "http://api.test", "--json");
  assert.equal(remote.code, 0, remote.err);
  assert.match(remote.requests[0] ?? "", /^POST http:\/\/api\.test\/api\/v1\/route .*"x-api-key":"k{16}"/);
  assert.match(remote.requests[0] ?? "", /"content-type":"application\/json"/);
});

test("bad routes and flags exit 2 with the CLI's words", async () => {
  const bad = await run("route", "--polyline", "ab cd");
  assert.equal(bad.code, 2);
  assert.match(bad.err, /^INVALID_ARGUMENTS: route: --polyline has " " at character 3.*see charging route --help/);
  const none = await run("route");
  assert.match(none.err, /exactly one of --polyline \(encoded\) or --geojson/);
  assert.equal((await run("route", "--polyline", polyline, "--corridor-km", "0")).code, 2);
  // Read before the route is sent (a number out of range, text for a number): exit 2 all the same.
  for (const flags of [["--limit", "500"], ["--limit", "abc"], ["--min-power", "-1"], ["--corridor-km", "abc"]]) {
    const refused = await run("route", "--polyline", polyline, ...flags);
    assert.equal(refused.code, 2, flags.join(" "));
    assert.match(refused.err, /^INVALID_ARGUMENTS: --(limit|min-power|corridor-km) .*see charging route --help\n$/);
  }
  assert.match((await run("route", "--geojson", "point.geojson")).err, /route is a GeoJSON Point/);
  const missing = await run("route", "--geojson", "nowhere.geojson");
  assert.equal(missing.code, 2);
  assert.match(missing.err, /INVALID_USAGE: cannot read --geojson nowhere\.geojson: ENOENT/);
  assert.match((await run("route", "--near", "50,10", "--polyline", polyline)).err, /INVALID_USAGE: .*--near/);
  assert.match((await run("route", "extra", "--polyline", polyline)).err, /route takes no arguments/);
  assert.match((await run("route", "--help")).out, /Usage: charging route \(--polyline TEXT \| --geojson FILE\)/);
});
