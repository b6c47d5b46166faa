import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { checkRank } from "../../../src/seo/rank/check.ts";
import { type Fakes, startFakes } from "../fakes/providers.ts";
import { configFor, recordingDeps } from "../fakes/setup.ts";

// checkRank against the fake Bing Webmaster API (its wire format, on loopback); Search Console is
// left unconfigured, so Google's answer is the keyless one and Bing's decides.

let fakes: Fakes;
before(async () => {
  fakes = await startFakes();
});
after(() => fakes.close());

const deps = (withKeys: boolean) => ({ provider: recordingDeps(), config: configFor(fakes, withKeys) });

test("checkRank: Bing's position is the impression-weighted mean of the keyword's weeks, any case, labelled with the weeks", async () => {
  // The fake's weeks for "ev charging": position 6 at 100 impressions, 9 at 300 ("EV Charging").
  const report = await checkRank(deps(true), "ev charging", "example.com");
  assert.equal(report.engine, "bing");
  assert.equal(report.position.value, 8.3);
  assert.equal(report.position.provenance.kind, "derived");
  assert.match(report.position.provenance.at ?? "", /^\d{4}-\d\d-\d\d\/\d{4}-\d\d-\d\d$/);
  assert.equal(report.bing.impressions?.value, 400);
  assert.equal(report.google.position.value, null);
  assert.deepEqual(
    report.sources.map((s) => [s.source, s.status, s.code]),
    [
      ["search-console", "unavailable", "no-key"],
      ["bing-webmaster", "ok", undefined],
    ],
  );
});

test("checkRank: a domain the key has not verified, and a keyword without impressions, say so", async () => {
  const unverified = await checkRank(deps(true), "ev charging", "not-mine.example");
  assert.equal(unverified.position.value, null);
  assert.equal(unverified.engine, undefined);
  assert.match(unverified.position.provenance.reason ?? "", /not-mine\.example is not a verified site of this SEO_BING_KEY/);
  const unseen = await checkRank(deps(true), "never searched", "example.com");
  assert.equal(unseen.position.value, null);
  assert.match(unseen.bing.position.provenance.reason ?? "", /"never searched" is not among Bing's query stats/);
});

test("checkRank without keys: unavailable with the keys to set, and no request made", async () => {
  const before = fakes.log.length;
  const report = await checkRank(deps(false), "ev charging", "example.com");
  assert.equal(report.position.value, null);
  assert.equal(report.position.provenance.code, "no-key");
  assert.match(report.position.provenance.reason ?? "", /SEO_GSC_CREDENTIALS .* SEO_BING_KEY/);
  assert.equal(fakes.log.length, before);
});
