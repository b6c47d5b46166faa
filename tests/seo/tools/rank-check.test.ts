import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { connect } from "../fakes/client.ts";
import { type Fakes, startFakes } from "../fakes/providers.ts";
import { configFor, serviceAccount } from "../fakes/setup.ts";

let fakes: Fakes;
const account = serviceAccount();
before(async () => {
  fakes = await startFakes({ gscPublicKey: account.publicKey, gscSites: ["https://www.example.com/"] });
});
after(() => fakes.close());

type Label = {
  value: number | null;
  provenance: { kind: string; source?: string; code?: string; reason?: string; at?: string; basis?: string };
};
interface Engine {
  position: Label;
  clicks?: Label;
  property?: string;
  topPages?: { page: string; position: number }[];
}

test("seo_rank_check without keys: unavailable, naming the keys that would help, no request made", async () => {
  const mcp = await connect(configFor(fakes, false));
  const before = fakes.log.length;
  try {
    const r = await mcp.call("seo_rank_check", { keyword: "ev charging", domain: "example.com" });
    assert.equal(r.isError, undefined);
    const position = r.structured.position as Label;
    assert.equal(position.value, null);
    assert.equal(position.provenance.code, "no-key");
    assert.match(position.provenance.reason ?? "", /SEO_GSC_CREDENTIALS .* or SEO_BING_KEY .*not scraped/);
    assert.equal(fakes.log.length, before);
  } finally {
    await mcp.close();
  }
});

test("seo_rank_check with Search Console and Bing: Google's average position first, Bing's derived", async () => {
  const mcp = await connect(configFor(fakes, true, account.json));
  try {
    const r = await mcp.call("seo_rank_check", {
      keyword: "ev charging",
      domain: "https://example.com/",
      response_format: "detailed",
    });
    assert.equal(r.structured.engine, "google");
    const position = r.structured.position as Label;
    assert.equal(position.value, 4.5);
    assert.equal(position.provenance.source, "search-console");
    assert.match(position.provenance.at ?? "", /^\d{4}-\d\d-\d\d\/\d{4}-\d\d-\d\d$/);
    const google = r.structured.google as Engine;
    assert.equal(google.property, "https://www.example.com/");
    assert.equal(google.topPages?.[0]?.page, "https://example.com/ev");
    const bing = r.structured.bing as Engine;
    // (6 x 100 + 9 x 300) / 400 impressions = 8.25; both case variants of the query count.
    assert.equal(bing.position.value, 8.3);
    assert.equal(bing.position.provenance.kind, "derived");
    assert.equal(bing.position.provenance.source, "bing-webmaster");
    assert.equal(bing.clicks?.value, 4);
    const concise = await mcp.call("seo_rank_check", { keyword: "ev charging", domain: "example.com" });
    assert.equal((concise.structured.google as Engine).topPages, undefined);
    assert.match(concise.text, /"ev charging" on example\.com: position 4\.5 \[provider: search-console/);
  } finally {
    await mcp.close();
  }
});

test("seo_rank_check: keyword with no impressions and a domain nobody verified are explained", async () => {
  const mcp = await connect(configFor(fakes, true, account.json));
  try {
    const unranked = await mcp.call("seo_rank_check", { keyword: "unranked words", domain: "example.com" });
    const google = unranked.structured.google as Engine;
    assert.equal(google.position.provenance.code, "no-data");
    assert.match(google.position.provenance.reason ?? "", /had no Google impressions/);
    const foreign = await mcp.call("seo_rank_check", { keyword: "ev charging", domain: "rival.org" });
    assert.equal((foreign.structured.position as Label).provenance.code, "no-data");
    assert.match(JSON.stringify(foreign.structured), /no property for rival\.org.*not a verified site/);
  } finally {
    await mcp.close();
  }
});

test("seo_rank_check: provider failures come back labelled; bad inputs are isError", async () => {
  const config = configFor(fakes, true);
  const mcp = await connect({ ...config, keys: { ...config.keys, bing: "revoked-bing-key" } });
  try {
    const r = await mcp.call("seo_rank_check", { keyword: "ev charging", domain: "example.com" });
    const bing = r.structured.bing as Engine;
    assert.equal(bing.position.provenance.code, "key-rejected");
    assert.match(
      bing.position.provenance.reason ?? "",
      /HTTP 400: InvalidApiKey\); check that SEO_BING_KEY is valid/,
    );
    const bad = await mcp.call("seo_rank_check", { keyword: "x", domain: "not a domain" });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /INVALID_ARGUMENTS: "not a domain" is not a domain/);
    const missing = await mcp.call("seo_rank_check", { keyword: "x" });
    assert.equal(missing.isError, true);
  } finally {
    await mcp.close();
  }
});
