/** The map page's files as run from source: bundled once with esbuild, named by their content. */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { mapAssets } from "../../../shim/embedded/charging-map.ts";

const digest = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 12);

test("the map files: script, stylesheet and MapLibre's worker, each named by a hash of its content, bundled once", () => {
  const assets = mapAssets();
  assert.equal(assets.script.name, `map-${digest(assets.script.text)}.js`);
  assert.equal(assets.style.name, `map-${digest(assets.style.text)}.css`);
  assert.equal(assets.worker.name, `maplibre-worker-${digest(assets.worker.text)}.mjs`);
  assert.match(assets.script.text, /@license 3-Clause BSD/, "MapLibre's notice travels with its code");
  assert.match(assets.script.text, /api\/v1\/sites/, "the page's own module is in the script");
  assert.match(assets.style.text, /\.maplibregl-map/, "MapLibre's stylesheet");
  assert.match(assets.style.text, /#results/, "the page's own");
  assert.match(assets.worker.text, /@license 3-Clause BSD/);
  for (const file of Object.values(assets)) assert.doesNotMatch(file.text, /sourceMappingURL/, `${file.name} names no source map it does not serve`);
  assert.equal(mapAssets(), assets, "the same files on the second call");
});
