import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { gzipSync } from "node:zlib";
import { type RunningWorker, startWorker } from "../../shared/workerd.ts";
import { KEYS } from "../../seo/fakes/providers.ts";
import { ensureBuilt } from "../../seo/fakes/stdio.ts";
import { mcpClient, refusedUrls, startWorld, type World } from "../../seo/http/harness.ts";

// Responses are read loosely in assertions.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const BUNDLE = "dist/seo-gateway.js";
const TOKEN = "workers-token-0123456789abcdef";
/** Workers free plan: 3 MB per Worker after compression. */
const FREE_PLAN_GZIP_LIMIT = 3 * 1024 * 1024;

let world: World;
let worker: RunningWorker;
const auth = { authorization: `Bearer ${TOKEN}` };

/** `key = "value"` settings of wrangler.toml (top level and [vars]; no TOML feature beyond that is used). */
function wranglerSettings(): Record<string, string> {
  const text = readFileSync("wrangler.toml", "utf8");
  return Object.fromEntries(
    [...text.matchAll(/^([a-z_A-Z]+)\s*=\s*(?:"([^"]*)"|(true|false))\s*$/gm)].map((m) => [
      m[1] as string,
      (m[2] ?? m[3]) as string,
    ]),
  );
}

before(async () => {
  ensureBuilt("seo-gateway", BUNDLE);
  world = await startWorld();
  const settings = wranglerSettings();
  worker = await startWorker({
    scriptPath: settings.main as string,
    compatibilityDate: settings.compatibility_date as string,
    bindings: {
      ...world.fakes.env,
      SEO_TRANCO_INTERVAL_MS: "0",
      SEO_PROVIDER_TIMEOUT_MS: "3000",
      GATEWAY_AUTH_TOKEN: TOKEN,
      GATEWAY_ALLOWED_ORIGINS: "https://app.example",
      GATEWAY_RATE_LIMIT: settings.GATEWAY_RATE_LIMIT as string,
    },
  });
});
after(async () => {
  await worker?.dispose();
  await world?.close();
});

test("wrangler.toml deploys the built bundle as is: one ES module, no node: imports, within the free plan", () => {
  const settings = wranglerSettings();
  assert.equal(settings.main, BUNDLE);
  assert.equal(settings.no_bundle, "true");
  assert.match(settings.compatibility_date ?? "", /^\d{4}-\d{2}-\d{2}$/);
  assert.match(readFileSync("wrangler.toml", "utf8"), /^command = ".*scripts\/build\.ts seo-gateway"$/m);
  const code = readFileSync(BUNDLE);
  assert.doesNotMatch(code.toString(), /["'`]node:/, "no node: import");
  assert.doesNotMatch(code.toString(), /\b__require\b/, "no run-time require shim");
  assert.match(code.toString(), /export\s*\{[^}]*\bas default\b[^}]*\}\s*;?\s*$/, "an ES module with a default export");
  assert.ok(gzipSync(code).byteLength < FREE_PLAN_GZIP_LIMIT);
});

test("workerd: /healthz open, every other route behind the bearer token, JSON-RPC 401 on /mcp", async () => {
  const health = await fetch(`${worker.url}/healthz`);
  assert.equal(health.status, 200);
  assert.deepEqual(await health.json(), { ok: true, stage: 5 });
  const rest = await fetch(`${worker.url}/api/v1/keyword-ideas?q=ev`);
  assert.equal(rest.status, 401);
  assert.equal(((await rest.json()) as Loose).error.code, "UNAUTHORIZED");
  await assert.rejects(mcpClient(worker.url), /UNAUTHORIZED/);
  const wrong = await fetch(`${worker.url}/api/v1/openapi.json`, { headers: { authorization: "Bearer nope-nope-nope-nope" } });
  assert.equal(wrong.status, 401);
  assert.equal((await fetch(`${worker.url}/api/v1/openapi.json`, { headers: auth })).status, 200);
});

test("workerd: MCP SDK client over HTTP lists the tools, calls one against the fake providers, gets LOCAL_ONLY", async () => {
  const from = world.fakes.log.length;
  const session = await mcpClient(worker.url, { ...auth, "x-seo-opr-key": KEYS.opr });
  try {
    const { tools } = await session.client.listTools();
    assert.equal(tools.length, 5);
    const progress: number[] = [];
    const ideas = await session.client.callTool(
      { name: "seo_keyword_ideas", arguments: { query: "ev charging", expand: true } },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    );
    assert.equal(ideas.isError, undefined);
    assert.ok(progress.length >= 5, "progress streamed through workerd");
    const authority = await session.call("seo_authority", { domains: ["example.com"] });
    assert.match(authority.text, /Open PageRank 5\.27/);
    const audit = await session.call("seo_audit_site", { url: "https://example.com/" });
    assert.equal(audit.isError, true);
    assert.match(audit.text, /^LOCAL_ONLY: .*seo-audit-mcp mcp.*npx -y .\/dist\/npm\/seo-audit-mcp-<version>\.tgz mcp/);
  } finally {
    await session.close();
  }
  const opr = world.fakes.log.slice(from).filter((e) => e.provider === "opr");
  assert.deepEqual(
    opr.map((e) => e.headers["api-opr"]),
    [KEYS.opr],
  );
  assert.ok(world.fakes.log.slice(from).some((e) => e.provider === "gac"), "autocomplete reached from workerd");
});

test("workerd: CORS reflects only the listed origin and keeps statuses; GET /mcp is 405", async () => {
  const listed = await fetch(`${worker.url}/nowhere`, { headers: { ...auth, origin: "https://app.example" } });
  assert.equal(listed.status, 404);
  assert.equal(listed.headers.get("access-control-allow-origin"), "https://app.example");
  const other = await fetch(`${worker.url}/healthz`, { headers: { origin: "https://evil.example" } });
  assert.equal(other.headers.get("access-control-allow-origin"), null);
  const preflight = await fetch(`${worker.url}/api/v1/page-report`, {
    method: "OPTIONS",
    headers: { origin: "https://app.example", "access-control-request-method": "GET" },
  });
  assert.equal(preflight.status, 204);
  assert.match(preflight.headers.get("access-control-allow-headers") ?? "", /authorization.*x-seo-gsc-credentials/);
  const get = await fetch(`${worker.url}/mcp`, { headers: auth });
  assert.equal(get.status, 405);
  assert.match(((await get.json()) as Loose).error.message, /use POST \/mcp/);
});

test("workerd: the egress guard refuses loopback, private, metadata and local names with no connection made", async () => {
  const before = world.trap.requests.length;
  for (const url of refusedUrls(world.trap.url)) {
    const answer = await fetch(`${worker.url}/api/v1/page-report?url=${encodeURIComponent(url)}`, { headers: auth });
    const body = (await answer.json()) as Loose;
    assert.equal(answer.status, 403, `${url}: ${JSON.stringify(body)}`);
    assert.equal(body.error.code, "UPSTREAM_BLOCKED");
  }
  assert.equal(world.trap.requests.length, before, "the loopback site saw no request");
});

test("workerd: a bad GATEWAY_* value answers a typed error naming the variable, never its value", async () => {
  const broken = await startWorker({
    scriptPath: BUNDLE,
    compatibilityDate: wranglerSettings().compatibility_date as string,
    bindings: { GATEWAY_AUTH_TOKEN: "short" },
  });
  try {
    const answer = await fetch(`${broken.url}/healthz`);
    assert.equal(answer.status, 500);
    const error = ((await answer.json()) as Loose).error;
    assert.equal(error.code, "INTERNAL");
    assert.match(error.message, /misconfigured.*GATEWAY_AUTH_TOKEN must be at least 16 characters/);
    assert.doesNotMatch(error.message, /short/);
  } finally {
    await broken.dispose();
  }
});
