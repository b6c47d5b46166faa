import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { connect } from "../fakes/client.ts";
import { type Fakes, startFakes } from "../fakes/providers.ts";
import { configFor, serviceAccount } from "../fakes/setup.ts";

let fakes: Fakes;
const account = serviceAccount();
before(async () => {
  fakes = await startFakes({ gscPublicKey: account.publicKey, gscSites: ["sc-domain:example.com"] });
});
after(() => fakes.close());

interface Idea {
  keyword: string;
  provenance: { kind: string; source?: string; basis?: string };
  alsoFrom?: string[];
  searchConsole?: { impressions: number; position: number; property: string };
  bingWeeklyImpressions?: { value: number; provenance: { kind: string; source?: string; basis?: string } };
}

test("seo_keyword_ideas without keys: autocomplete ideas, deduplicated, each with its engine", async () => {
  const mcp = await connect(configFor(fakes, false));
  try {
    const before = fakes.log.length;
    const r = await mcp.call("seo_keyword_ideas", { query: "heat pump", expand: false });
    assert.equal(fakes.log.length - before, 3, "one query per source");
    const ideas = r.structured.ideas as Idea[];
    const cost = ideas.find((i) => i.keyword === "heat pump cost");
    assert.deepEqual(cost?.provenance, { kind: "provider", source: "google-autocomplete" });
    assert.deepEqual(cost?.alsoFrom, ["bing-autocomplete"]);
    assert.equal(ideas.filter((i) => i.keyword === "heat pump near me").length, 1);
    // Ideas two engines agree on come first.
    assert.ok((ideas[0]?.alsoFrom?.length ?? 0) >= 1);
    assert.deepEqual(r.structured.totalIdeas, {
      value: 5,
      provenance: { kind: "derived", basis: "distinct ideas from every source, after deduplication" },
    });
    assert.deepEqual(
      (r.structured.sources as { source: string; status: string }[]).map((s) => `${s.source}:${s.status}`),
      ["google-autocomplete:ok", "bing-autocomplete:ok", "duckduckgo-autocomplete:ok"],
    );
    assert.match(r.text, /^5 ideas for "heat pump":/);
  } finally {
    await mcp.close();
  }
});

test("seo_keyword_ideas expands and bounds: concise shows 25, detailed up to the limit", async () => {
  const mcp = await connect(configFor(fakes, false));
  try {
    const concise = await mcp.call("seo_keyword_ideas", { query: "solar panel", limit: 60 });
    assert.equal((concise.structured.ideas as Idea[]).length, 25);
    assert.ok((concise.structured.totalIdeas as { value: number }).value === 60);
    assert.match(concise.text, /35 more with response_format=detailed/);
    const detailed = await mcp.call("seo_keyword_ideas", {
      query: "solar panel",
      limit: 60,
      response_format: "detailed",
    });
    assert.equal((detailed.structured.ideas as Idea[]).length, 60);
    assert.equal(detailed.structured.expansionQueries, 37);
  } finally {
    await mcp.close();
  }
});

test("seo_keyword_ideas reports one failing engine and keeps the others' ideas", async () => {
  const mcp = await connect(configFor(fakes, false));
  fakes.mode.gac = "5xx";
  try {
    const r = await mcp.call("seo_keyword_ideas", { query: "wind turbine", expand: false });
    const sources = r.structured.sources as { source: string; status: string; code?: string }[];
    assert.deepEqual(sources[0], {
      source: "google-autocomplete",
      status: "unavailable",
      code: "provider-down",
      reason: "Google autocomplete failed (HTTP 503: <html>Service Unavailable</html>); retry later",
    });
    assert.ok((r.structured.ideas as Idea[]).length > 0);
  } finally {
    fakes.mode.gac = "ok";
    await mcp.close();
  }
});

test("seo_keyword_ideas with every source down is an isError result saying what to do", async () => {
  const mcp = await connect(configFor(fakes, false));
  fakes.mode.gac = "malformed";
  fakes.mode.bac = "429";
  fakes.mode.dac = "5xx";
  try {
    const r = await mcp.call("seo_keyword_ideas", { query: "battery storage", expand: false });
    assert.equal(r.isError, true);
    assert.match(r.text, /UPSTREAM_UNAVAILABLE: No keyword source answered .*quota exhausted.*Retry later/);
  } finally {
    fakes.mode.gac = fakes.mode.bac = fakes.mode.dac = "ok";
    await mcp.close();
  }
});

test("seo_keyword_ideas with Search Console and Bing keys: own queries first with metrics, Bing demand derived", async () => {
  const mcp = await connect(configFor(fakes, true, account.json));
  try {
    const r = await mcp.call("seo_keyword_ideas", {
      query: "ev charging",
      expand: false,
      site: "example.com",
    });
    const ideas = r.structured.ideas as Idea[];
    assert.equal(ideas[0]?.keyword, "ev charging prices");
    assert.equal(ideas[0]?.provenance.source, "search-console");
    assert.equal(ideas[0]?.searchConsole?.impressions, 900);
    assert.equal(ideas[0]?.searchConsole?.property, "sc-domain:example.com");
    const cost = ideas.find((i) => i.keyword === "ev charging cost");
    assert.equal(cost?.provenance.source, "search-console");
    assert.deepEqual(cost?.alsoFrom, ["google-autocomplete", "bing-autocomplete"]);
    const seed = r.structured.seedBingWeeklyImpressions as Idea["bingWeeklyImpressions"];
    assert.equal(seed?.value, 120);
    assert.deepEqual(seed?.provenance, {
      kind: "derived",
      source: "bing-webmaster",
      basis: "mean weekly Bing impressions over the weeks returned",
    });
    assert.equal(ideas[0]?.bingWeeklyImpressions?.value, 120);
    const names = (r.structured.sources as { source: string }[]).map((s) => s.source);
    assert.deepEqual(names.slice(3), ["search-console", "bing-webmaster"]);
  } finally {
    await mcp.close();
  }
});

test("seo_keyword_ideas: a site without a visible property is reported, not hidden", async () => {
  const mcp = await connect(configFor(fakes, false, account.json));
  try {
    const r = await mcp.call("seo_keyword_ideas", {
      query: "ev charging",
      expand: false,
      site: "elsewhere.org",
    });
    const gsc = (r.structured.sources as { source: string; code?: string; reason?: string }[]).find(
      (s) => s.source === "search-console",
    );
    assert.equal(gsc?.code, "no-data");
    assert.match(gsc?.reason ?? "", /no Search Console property for elsewhere\.org/);
  } finally {
    await mcp.close();
  }
});

test("seo_keyword_ideas answers bad inputs with isError", async () => {
  const mcp = await connect(configFor(fakes, false));
  try {
    for (const args of [{ query: " " }, { query: "ok", limit: 0 }, { query: "ok", country: "usa" }, {}]) {
      const r = await mcp.call("seo_keyword_ideas", args);
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.match(r.text, /^INVALID_ARGUMENTS: /);
    }
  } finally {
    await mcp.close();
  }
});
