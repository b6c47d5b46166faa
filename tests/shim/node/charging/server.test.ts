/**
 * The built server (`dist/charging.js`) through a real socket: routes, NOT_FOUND, 405, every
 * INVALID_ARGUMENTS case, start-up errors and shutdown (guards: server-guards.test.ts).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { startBuilt, stop } from "../../../../scripts/smoke.ts";
import { ensureBuilt, getJson as get } from "../../../charging/built.ts";
import { INVALID } from "../../../charging/transports/http/cases.ts";

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
