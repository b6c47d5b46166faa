import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { MAX_RETRY_WAIT_MS, requestJson } from "../../../src/seo/providers/request.ts";
import { type Fakes, startFakes } from "../fakes/providers.ts";
import { recordingDeps } from "../fakes/setup.ts";

let fakes: Fakes;
before(async () => {
  fakes = await startFakes({ slowMs: 2000 });
});
after(() => fakes.close());

const SECRET = "s3cr3t-key-value";
const req = (path: string, extra = {}) => ({
  source: "tranco" as const,
  name: "Tranco",
  url: `${fakes.url}/${path}`,
  timeoutMs: 400,
  keyVar: "SEO_X_KEY",
  secrets: [SECRET],
  ...extra,
});

test("requestJson() answers the parsed JSON on success, once", async () => {
  const deps = recordingDeps();
  const before = fakes.log.length;
  const r = await requestJson(deps, req("tranco/ranks/domain/example.com"));
  assert.equal(r.ok, true);
  assert.equal(r.ok && (r.value as { domain: string }).domain, "example.com");
  assert.equal(fakes.log.length - before, 1);
  assert.deepEqual(deps.waits, []);
});

test("requestJson() retries a 429 once after its Retry-After, then succeeds", async () => {
  fakes.mode.tranco = "429-once";
  const deps = recordingDeps();
  const before = fakes.log.length;
  const r = await requestJson(deps, req("tranco/ranks/domain/retry.example"));
  fakes.mode.tranco = "ok";
  assert.equal(r.ok, true);
  assert.equal(fakes.log.length - before, 2);
  assert.deepEqual(deps.waits, [1000]);
});

test("requestJson() does not wait out a Retry-After beyond the cap: quota, retry later", async () => {
  fakes.mode.tranco = "429";
  const deps = recordingDeps();
  const before = fakes.log.length;
  const r = await requestJson(deps, req("tranco/x"));
  fakes.mode.tranco = "ok";
  assert.ok(120_000 > MAX_RETRY_WAIT_MS);
  assert.equal(fakes.log.length - before, 1);
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.code, "quota");
  assert.match(!r.ok ? r.reason : "", /HTTP 429: Quota exceeded\); retry later/);
});

test("requestJson() maps 5xx (after one retry) to provider-down", async () => {
  fakes.mode.tranco = "5xx";
  const deps = recordingDeps();
  const before = fakes.log.length;
  const r = await requestJson(deps, req("tranco/x"));
  fakes.mode.tranco = "ok";
  assert.equal(fakes.log.length - before, 2);
  assert.equal(!r.ok && r.code, "provider-down");
  assert.match(!r.ok ? r.reason : "", /Tranco failed \(HTTP 503/);
});

test("requestJson() maps malformed JSON to provider-down with a clear reason", async () => {
  fakes.mode.tranco = "malformed";
  const r = await requestJson(recordingDeps(), req("tranco/x"));
  fakes.mode.tranco = "ok";
  assert.equal(!r.ok && r.code, "provider-down");
  assert.match(!r.ok ? r.reason : "", /malformed JSON/);
});

test("requestJson() times out a slow provider, retries once, and says so", async () => {
  fakes.mode.tranco = "slow";
  const before = fakes.log.length;
  const r = await requestJson(recordingDeps(), req("tranco/x"));
  fakes.mode.tranco = "ok";
  assert.equal(fakes.log.length - before, 2);
  assert.equal(!r.ok && r.code, "provider-down");
  assert.match(!r.ok ? r.reason : "", /did not answer within 400 ms/);
});

test("requestJson() maps 403 to key-rejected naming the variable, never the key", async () => {
  fakes.mode.tranco = "4xx";
  const r = await requestJson(recordingDeps(), req(`tranco/x?key=${SECRET}`));
  fakes.mode.tranco = "ok";
  assert.equal(!r.ok && r.code, "key-rejected");
  const reason = !r.ok ? r.reason : "";
  assert.match(reason, /check that SEO_X_KEY is valid/);
  assert.doesNotMatch(reason, new RegExp(SECRET));
});

test("requestJson() maps a no-data status and an unreachable host", async () => {
  const missing = await requestJson(recordingDeps(), req("nowhere", { noDataStatuses: [404] }));
  assert.equal(!missing.ok && missing.code, "no-data");
  const refused = await requestJson(recordingDeps(), { ...req("x"), url: "http://127.0.0.1:1/x" });
  assert.equal(!refused.ok && refused.code, "provider-down");
  assert.match(!refused.ok ? refused.reason : "", /unreachable/);
});

test("requestJson() stops when the caller aborts", async () => {
  fakes.mode.tranco = "slow";
  const controller = new AbortController();
  const pending = requestJson(
    recordingDeps(),
    req("tranco/x", { signal: controller.signal, timeoutMs: 5000 }),
  );
  setTimeout(() => controller.abort(new Error("cancelled by client")), 50);
  await assert.rejects(pending, /cancelled by client/);
  fakes.mode.tranco = "ok";
});

test("requestJson() does not follow a keyed request's redirect, so the key never reaches another address", async () => {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const elsewhere = createServer((r, res) => {
    seen.push({ url: r.url ?? "", headers: r.headers });
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((done) => elsewhere.listen(0, "127.0.0.1", done));
  const target = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/collect`;
  const redirecting = createServer((_r, res) => void res.writeHead(307, { location: target }).end());
  await new Promise<void>((done) => redirecting.listen(0, "127.0.0.1", done));
  const origin = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`;
  try {
    const keyed = await requestJson(recordingDeps(), {
      ...req(""),
      url: `${origin}/api?key=${SECRET}`,
      init: { headers: { "API-OPR": SECRET } },
    });
    assert.equal(keyed.ok, false);
    assert.equal(!keyed.ok && keyed.code, "provider-down");
    assert.match(!keyed.ok ? keyed.reason : "", /redirected the request \(HTTP 307\).*SEO_\*_ENDPOINT/);
    assert.deepEqual(seen, [], "the redirect target heard nothing");
    const { keyVar: _none, ...keyless } = req("");
    const open = await requestJson(recordingDeps(), { ...keyless, url: `${origin}/ac?q=x` });
    assert.equal(open.ok, true, "keyless requests (autocomplete) still follow redirects");
    assert.equal(seen.length, 1);
  } finally {
    elsewhere.close();
    redirecting.close();
  }
});
