import assert from "node:assert/strict";
import { test } from "node:test";
import { createAnswers } from "../../../../src/charging/transports/http/answers.ts";
import { storeOfSites } from "../../../../src/charging/search/store.ts";
import { preparedText } from "../../../../src/shared/http/respond.ts";
import { SITES } from "./sites.ts";

const store = storeOfSites(SITES);

test("createAnswers() assembles exactly the JSON of the values, whatever its cache holds", async () => {
  for (const kept of [0, 1, 1000]) {
    const answers = createAnswers(store, kept);
    for (let round = 0; round < 2; round++) {
      for (const query of [
        { limit: 5, offset: 0 },
        { limit: 3, offset: 4 },
        { limit: 2, offset: 0, near: { lat: 48.85, lon: 2.35, radiusKm: 5 } },
      ]) {
        const { data, total, attribution } = await store.search(query);
        const page = { limit: query.limit, offset: query.offset, total };
        const answer = answers.sites(data, page, attribution);
        assert.equal(preparedText(answer), JSON.stringify({ data, page, attribution }));
        // A page read once (a sync) is one text encoded once: the same bytes, distances included.
        assert.equal(preparedText(answers.sites(data, page, attribution, true)), JSON.stringify({ data, page, attribution }));
      }
      const site = store.get("osm:way/20");
      assert.ok(site);
      assert.equal(
        preparedText(answers.site(site)),
        JSON.stringify({ data: site, attribution: store.attributionFor(site) }),
      );
    }
  }
  const empty = createAnswers(store).sites([], { limit: 20, offset: 0, total: 0 }, []);
  assert.deepEqual(JSON.parse(preparedText(empty)), {
    data: [],
    page: { limit: 20, offset: 0, total: 0 },
    attribution: [],
  });
});

test("a page read once (a sync) makes its sites' parts fresh and keeps none of them", async () => {
  const { data, total, attribution } = await store.search({ limit: 1, offset: 0 });
  const [site] = data;
  assert.ok(site);
  const page = { limit: 1, offset: 0, total };
  const renamed = { ...site, name: `${site.name ?? ""} (renamed)` };
  const text = (answers: ReturnType<typeof createAnswers>, shown: typeof site, once?: boolean) =>
    preparedText(answers.sites([shown], page, attribution, once));

  const stored = createAnswers(store);
  text(stored, site);
  // A kept part answers for its id (stored sites never change), but a once page does not look.
  assert.equal(text(stored, renamed, true), JSON.stringify({ data: [renamed], page, attribution }));
  assert.equal(text(stored, renamed), JSON.stringify({ data: [site], page, attribution }));

  const fresh = createAnswers(store);
  text(fresh, renamed, true);
  assert.equal(text(fresh, site), JSON.stringify({ data: [site], page, attribution }), "the once page kept nothing");
});
