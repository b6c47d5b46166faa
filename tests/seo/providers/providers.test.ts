import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { suggest } from "../../../src/seo/providers/autocomplete.ts";
import { bingDate, keywordStats, queryStats, userSites } from "../../../src/seo/providers/bing-webmaster.ts";
import { TtlCache } from "../../../src/seo/providers/cache.ts";
import { parseCrux, queryCrux } from "../../../src/seo/providers/crux.ts";
import { gscAccessToken } from "../../../src/seo/providers/google-auth.ts";
import { getPageRank } from "../../../src/seo/providers/open-pagerank.ts";
import { parsePageSpeed, runPageSpeed } from "../../../src/seo/providers/pagespeed.ts";
import {
  dateRange,
  listSites,
  propertiesFor,
  searchAnalytics,
} from "../../../src/seo/providers/search-console.ts";
import { parseTranco, trancoRank } from "../../../src/seo/providers/tranco.ts";
import { type Fakes, KEYS, psiBody, startFakes } from "../fakes/providers.ts";
import { configFor, recordingDeps, serviceAccount } from "../fakes/setup.ts";

let fakes: Fakes;
const account = serviceAccount();
before(async () => {
  fakes = await startFakes({
    gscPublicKey: account.publicKey,
    gscSites: ["sc-domain:example.com", "https://other.org/"],
  });
});
after(() => fakes.close());

test("PSI: both categories requested with the key; lab metrics, SEO audits and embedded field data parsed", async () => {
  const config = configFor(fakes, true);
  const r = await runPageSpeed(recordingDeps(), config, "https://example.com/psi-1", "mobile");
  assert.ok(r.ok);
  assert.equal(r.value.performanceScore, 0.71);
  assert.equal(r.value.seoScore, 0.83);
  assert.deepEqual(
    r.value.lab.map((m) => m.id),
    ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift"],
  );
  assert.deepEqual(
    r.value.seoAudits.map((a) => [a.id, a.passed]),
    [
      ["document-title", true],
      ["meta-description", false],
    ],
  );
  assert.equal(r.value.field?.metrics.CUMULATIVE_LAYOUT_SHIFT_SCORE?.percentile, 5);
  assert.equal(r.at, "2026-11-20T10:00:00.000Z");
  const sent = new URL(fakes.log.at(-1)?.url ?? "", "http://x");
  assert.deepEqual(sent.searchParams.getAll("category"), ["performance", "seo"]);
  assert.equal(sent.searchParams.get("strategy"), "mobile");
  const again = fakes.log.length;
  assert.ok((await runPageSpeed(recordingDeps(), config, "https://example.com/psi-1", "mobile")).ok);
  assert.equal(fakes.log.length, again, "the second call is served from the cache");
});

test("PSI: no key means no request and a no-key reason; a bad key is key-rejected", async () => {
  const before = fakes.log.length;
  const none = await runPageSpeed(
    recordingDeps(),
    configFor(fakes, false),
    "https://example.com/",
    "desktop",
  );
  assert.equal(!none.ok && none.code, "no-key");
  assert.match(!none.ok ? none.reason : "", /SEO_PSI_KEY/);
  assert.equal(fakes.log.length, before);
  const config = { ...configFor(fakes, true), keys: { psi: "wrong-key-123" } };
  const bad = await runPageSpeed(recordingDeps(), config, "https://example.com/psi-2", "desktop");
  assert.equal(!bad.ok && bad.code, "key-rejected");
  assert.match(!bad.ok ? bad.reason : "", /API key not valid/);
  assert.equal(parsePageSpeed({}, "mobile"), undefined);
  assert.equal(parsePageSpeed(psiBody("u", "desktop"), "desktop")?.performanceScore, 0.93);
});

test("CrUX: URL and origin records with p75 (CLS from a string) and histograms; 404 is no-data", async () => {
  const config = configFor(fakes, true);
  const url = await queryCrux(recordingDeps(), config, "url", "https://example.com/crux");
  assert.ok(url.ok);
  assert.equal(url.value.metrics.cumulative_layout_shift?.p75, 0.05);
  assert.equal(url.value.metrics.largest_contentful_paint?.histogram.length, 3);
  assert.deepEqual(url.value.collectionPeriod, { firstDate: "2026-10-22", lastDate: "2026-11-18" });
  assert.equal(url.at, "2026-11-18");
  const sent = fakes.log.at(-1);
  assert.equal(sent?.method, "POST");
  assert.deepEqual(Object.keys(JSON.parse(sent?.body ?? "{}")), ["url", "metrics"]);
  const missing = await queryCrux(recordingDeps(), config, "origin", "https://nodata.example");
  assert.equal(!missing.ok && missing.code, "no-data");
  assert.match(!missing.ok ? missing.reason : "", /no field data for this origin/);
  const none = await queryCrux(recordingDeps(), configFor(fakes, false), "url", "https://example.com/");
  assert.equal(!none.ok && none.code, "no-key");
  assert.equal(parseCrux({}, "url", "x"), undefined);
});

test("Open PageRank: one batched request with the API-OPR header; unknown domains per row", async () => {
  const config = configFor(fakes, true);
  const before = fakes.log.length;
  const r = await getPageRank(recordingDeps(), config, ["example.com", "unknown-site.org"]);
  assert.ok(r.ok);
  assert.equal(fakes.log.length - before, 1);
  assert.equal(fakes.log.at(-1)?.headers["api-opr"], KEYS.opr);
  assert.deepEqual(r.value.rows[0], {
    domain: "example.com",
    found: true,
    pageRankDecimal: 5.27,
    pageRankInteger: 5,
    rank: 1234,
  });
  assert.equal(r.value.rows[1]?.found, false);
  assert.equal(r.value.lastUpdated, "2026-06-13");
  const cached = await getPageRank(recordingDeps(), config, ["example.com"]);
  assert.ok(cached.ok && cached.value.rows[0]?.found);
  assert.equal(fakes.log.length - before, 1, "cached rows need no request");
  const bad = await getPageRank(recordingDeps(), { ...config, keys: { opr: "nope-nope" } }, ["fresh.org"]);
  assert.equal(!bad.ok && bad.code, "key-rejected");
});

test("Tranco: the newest list's rank with its date; unranked domains; a persistent store", async () => {
  const config = configFor(fakes, false);
  const r = await trancoRank(recordingDeps(), config, "example.com");
  assert.ok(r.ok);
  assert.deepEqual(r.value, { domain: "example.com", rank: 498, listDate: "2026-11-20" });
  assert.equal(r.at, "2026-11-20");
  const unknown = await trancoRank(recordingDeps(), config, "unknown-tranco.org");
  assert.ok(unknown.ok && unknown.value.rank === undefined);
  const saved = new Map<string, { value: { domain: string; rank?: number }; savedAt: string }>();
  const store = {
    get: async (d: string) => saved.get(d),
    set: async (d: string, value: { domain: string }, savedAt: string) =>
      void saved.set(d, { value, savedAt }),
  };
  await trancoRank(recordingDeps(), config, "stored.org", store);
  assert.equal(saved.get("stored.org")?.value.rank, 498);
  saved.set("disk-only.org", {
    value: { domain: "disk-only.org", rank: 7 },
    savedAt: new Date().toISOString(),
  });
  const before = fakes.log.length;
  const fromDisk = await trancoRank(recordingDeps(), config, "disk-only.org", store);
  assert.ok(fromDisk.ok && fromDisk.value.rank === 7);
  assert.equal(fakes.log.length, before);
  assert.equal(parseTranco({}, "x"), undefined);
});

test("Tranco requests are spaced by the configured interval", async () => {
  const deps = recordingDeps();
  const config = { ...configFor(fakes, false), trancoIntervalMs: 5000 };
  await Promise.all([trancoRank(deps, config, "space-1.org"), trancoRank(deps, config, "space-2.org")]);
  assert.ok(
    deps.waits.some((w) => w > 4000),
    `waits: ${deps.waits}`,
  );
});

test("Search Console: JWT signed with WebCrypto, verified by the token endpoint; sites and analytics", async () => {
  const config = configFor(fakes, false, account.json);
  const token = await gscAccessToken(recordingDeps(), config);
  assert.ok(token.ok);
  const sites = await listSites(recordingDeps(), config);
  assert.ok(sites.ok);
  assert.deepEqual(propertiesFor(sites.value, "www.example.com"), ["sc-domain:example.com"]);
  assert.deepEqual(propertiesFor(sites.value, "other.org"), ["https://other.org/"]);
  assert.deepEqual(propertiesFor(sites.value, "nope.net"), []);
  const rows = await searchAnalytics(recordingDeps(), config, "sc-domain:example.com", {
    ...dateRange(new Date("2026-11-21T12:00:00Z")),
    dimensions: ["query"],
    filters: [{ dimension: "query", operator: "contains", expression: "ev" }],
    rowLimit: 10,
  });
  assert.ok(rows.ok && rows.value.length === 2);
  const sent = JSON.parse(fakes.log.at(-1)?.body ?? "{}");
  assert.equal(sent.startDate, "2026-10-24");
  assert.equal(sent.endDate, "2026-11-20");
  const other = serviceAccount();
  const wrong = await gscAccessToken(recordingDeps(), {
    ...config,
    endpoints: { ...config.endpoints, SEO_GSC_TOKEN_ENDPOINT: `${fakes.url}/token?other` },
    gsc: { account: JSON.parse(other.json) },
  });
  assert.equal(!wrong.ok && wrong.code, "key-rejected");
  const none = await listSites(recordingDeps(), configFor(fakes, false));
  assert.equal(!none.ok && none.code, "no-key");
});

test("Bing Webmaster: keyword stats, user sites and query stats in the d-list format", async () => {
  const config = configFor(fakes, true);
  const weeks = await keywordStats(recordingDeps(), config, "ev charging", "us", "en-US");
  assert.ok(weeks.ok && weeks.value.length === 2);
  assert.equal(weeks.value[0]?.date, "2025-11-05");
  const sites = await userSites(recordingDeps(), config);
  assert.ok(sites.ok && sites.value[0]?.verified);
  const stats = await queryStats(recordingDeps(), config, "https://example.com/");
  assert.ok(stats.ok && stats.value.length === 3);
  assert.equal(bingDate("garbage"), undefined);
  const none = await keywordStats(recordingDeps(), configFor(fakes, false), "x", "us", "en-US");
  assert.equal(!none.ok && none.code, "no-key");
});

test("autocomplete: the OpenSearch shape from all three sources; unexpected shapes are outages", async () => {
  const config = configFor(fakes, false);
  const locale = { country: "us", language: "en" };
  const g = await suggest(recordingDeps(), config, "google-autocomplete", "ev", locale);
  assert.deepEqual(g.ok && g.value, ["ev near me", "ev cost", "ev map"]);
  assert.match(fakes.log.at(-1)?.url ?? "", /client=firefox&q=ev&hl=en&gl=us/);
  const b = await suggest(recordingDeps(), config, "bing-autocomplete", "ev", locale);
  assert.match(fakes.log.at(-1)?.url ?? "", /market=en-US/);
  assert.ok(b.ok);
  fakes.mode.dac = "malformed";
  const d = await suggest(recordingDeps(), config, "duckduckgo-autocomplete", "ev2", locale);
  fakes.mode.dac = "ok";
  assert.equal(!d.ok && d.code, "provider-down");
});

test("TtlCache expires entries and bounds its size", () => {
  let now = 0;
  const cache = new TtlCache<number>(2, () => now);
  cache.set("a", 1, 100);
  cache.set("b", 2, 100);
  cache.set("c", 3, 100);
  assert.equal(cache.get("a"), undefined);
  assert.equal(cache.size, 2);
  now = 150;
  assert.equal(cache.get("b"), undefined);
});
