/**
 * `charging refresh` with its Node I/O against a fake Open Charge Map and Overpass on loopback
 * (answers in their formats, from fixtures/charging/raw): real downloads to disk (gzip
 * unpacked, bodies streamed in pieces), retries after 503 with retry-after, an answer that
 * stalls, a 404 and a 401, a refused connection; and end to end, a running server that swaps
 * to the refreshed file on its own.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { gzipSync } from "node:zlib";
import { runRefresh } from "../../../../src/charging/mod.ts";
import { snapshotOf } from "../../../../src/charging/snapshot/write.ts";
import { startChargingServer } from "../../../../shim/node/charging/app.ts";
import { nodeRefreshIo } from "../../../../shim/node/charging/refresh-io.ts";
import { site } from "../../../charging/data/helpers.ts";
import { OCM_POI, OCM_REFERENCE, overpassAnswer } from "../../../charging/import/providers.ts";

const dir = mkdtempSync(join(tmpdir(), "charging-refresh-"));
const hits = new Map<string, number>();
let base = "";

/** Sends `bytes` in pieces, so the client reads a stream, not one buffer. */
function inPieces(res: ServerResponse, bytes: Uint8Array, type: string): void {
  res.writeHead(200, { "content-type": type });
  for (let at = 0; at < bytes.length; at += 16_384) res.write(bytes.subarray(at, at + 16_384));
  res.end();
}

const OVERPASS = overpassAnswer();

function provider(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? "/", "http://fake");
  const hit = (hits.get(url.pathname) ?? 0) + 1;
  hits.set(url.pathname, hit);
  const json = "application/json; charset=utf-8";
  if (url.pathname === "/v3/poi") {
    if (req.headers["x-api-key"] !== "test-key") return void res.writeHead(401, { "content-type": json }).end('{"error":"API key required"}');
    return inPieces(res, OCM_POI, json);
  }
  if (url.pathname === "/v3/referencedata") {
    res.writeHead(200, { "content-type": json, "content-encoding": "gzip" });
    return void res.end(gzipSync(OCM_REFERENCE));
  }
  if (url.pathname === "/api/interpreter" && url.searchParams.get("data")?.includes("charging_station")) return inPieces(res, OVERPASS, json);
  if (url.pathname === "/busy" && hit < 3) return void res.writeHead(503, { "retry-after": "0" }).end("rate_limited: too many requests");
  if (url.pathname === "/busy") return inPieces(res, OVERPASS, json);
  if (url.pathname === "/stall") return void res.writeHead(200, { "content-type": json }).write('{"elements":[');
  res.writeHead(404, { "content-type": "text/html" }).end("<html><body><h1>Not Found</h1></body></html>");
}

const server = createServer(provider);
before(async () => {
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

const sources = () => [
  "--ocm-url", `${base}/v3/poi?output=json&compact=true&verbose=false&maxresults=10000000`,
  "--ocm-reference-url", `${base}/v3/referencedata`,
  "--osm-url", `${base}/api/interpreter?data=${encodeURIComponent('[out:json];nwr["amenity"="charging_station"];out center meta;')}`,
];

/** The sources with `--osm-url` replaced (a flag may be given once). */
const withOsm = (url: string) => [...sources().slice(0, 4), "--osm-url", url];

async function refresh(args: string[], env: Record<string, string> = { OCM_API_KEY: "test-key" }) {
  const stderr: string[] = [];
  const stdout: string[] = [];
  const code = await runRefresh(args, nodeRefreshIo(env, { stderr: (l) => stderr.push(l), stdout: (l) => stdout.push(l) }));
  return { code, stderr, stdout };
}

/** Polls `check` every 20 ms; fails naming `what` after 30 s (the machine may be busy). */
async function until(what: string, check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 30_000) assert.fail(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test("refresh downloads, imports and renames over CHARGING_DATA; the running server swaps to it", async () => {
  const out = join(dir, "served.snapshot");
  writeFileSync(out, snapshotOf([site("ocm:1", { name: "old" })], { importedAt: "2026-01-01T00:00:00.000Z", sources: [] }));
  const lines: string[] = [];
  const serving = await startChargingServer({ CHARGING_DATA: out, PORT: "0", HOST: "127.0.0.1" }, (l) => lines.push(l));
  try {
    const run = await refresh(sources(), { CHARGING_DATA: out, OCM_API_KEY: "test-key" });
    assert.equal(run.code, 0, run.stderr.join("\n"));
    assert.deepEqual(JSON.parse(run.stdout.join("")).counts, { sites: 182, ocm: 100, osm: 82 });
    assert.deepEqual(JSON.parse(run.stdout.join("")).previous, { sites: 1, ocm: 1, osm: 0 });
    assert.match(run.stderr.join("\n"), /refresh: ocm-reference\.json: 0\.2 MB\n/, "the gzip answer is saved unpacked");
    await until("the swap", () => lines.some((l) => l.includes("data reloaded")));
    assert.match(lines.find((l) => l.includes("data reloaded")) ?? "", /data reloaded \(served\.snapshot replaced\): 182 sites/);
    const answer = (await (await fetch(`${serving.url}/api/v1/sites?limit=1`)).json()) as { page: { total: number } };
    assert.equal(answer.page.total, 182);
  } finally {
    await serving.close();
  }
  assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith("served")), ["served.snapshot"], "no download, candidate or partial file left");
  assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith(".charging-refresh")), []);
});

test("a 503 with retry-after is retried until it answers", async () => {
  const out = join(dir, "busy.snapshot");
  const run = await refresh([...withOsm(`${base}/busy`), "--out", out, "--backoff", "0.01"]);
  assert.equal(run.code, 0, run.stderr.join("\n"));
  assert.equal(hits.get("/busy"), 3);
  assert.deepEqual(
    run.stderr.filter((l) => l.includes("retry")),
    [1, 2].map((n) => `refresh: GET ${base}/busy: HTTP 503 (rate_limited: too many requests); retry ${n} of 3 in 0.0 s`),
  );
});

test("failed downloads: one line naming the URL and why; nothing replaced", async () => {
  const out = join(dir, "failing.snapshot");
  const closed = createServer();
  await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
  const refused = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/x`;
  await new Promise((done) => closed.close(done));
  const cases: [string[], RegExp][] = [
    [[...withOsm(`${base}/stall`), "--timeout", "0.3", "--retries", "1", "--backoff", "0.01"], /failed 2 times: no data for 0\.3 s; nothing was replaced/],
    [withOsm(`${base}/gone`), /\/gone failed: HTTP 404 \(<html><body><h1>Not Found<\/h1><\/body><\/html>\); nothing was replaced/],
    [[...withOsm(refused), "--retries", "2", "--backoff", "0.01"], /failed 3 times: ECONNREFUSED; nothing was replaced/],
  ];
  for (const [args, line] of cases) {
    const run = await refresh([...args, "--out", out]);
    assert.equal(run.code, 1, args.join(" "));
    assert.match(run.stderr.at(-1) ?? "", /^UPSTREAM_UNAVAILABLE: GET http:\/\/127\.0\.0\.1:\d+\//);
    assert.match(run.stderr.at(-1) ?? "", line);
  }
  assert.equal(hits.get("/gone"), 1, "a 404 is not retried");
  const noKey = await refresh([...sources(), "--out", out], {});
  assert.equal(noKey.code, 1);
  assert.match(noKey.stderr.at(-1) ?? "", /v3\/poi\?.* failed: HTTP 401 \(\{"error":"API key required"\}\); the server wants a key or refuses this client \(OCM: --ocm-key or OCM_API_KEY\)/);
  assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith("failing") || f.startsWith(".charging-refresh")), []);
});
