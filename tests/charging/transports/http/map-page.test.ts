/**
 * The map page's routes in-process: the page and its files with their types, caching and
 * compression, the CSP naming only this origin and the tile host, the settings escaped into
 * the markup, the guards of every route (CORS, rate limit; the key gate lets the page through),
 * and no page without bundled files. The page in a browser: tests/shim/browser/charging/map.test.ts.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { gunzipSync } from "node:zlib";
import { mapPageHtml, mapPolicy, type MapAssets } from "../../../../src/charging/transports/http/map-page.ts";
import { DEFAULT_MAP_TILES } from "../../../../src/charging/config.ts";
import { base, call, make } from "./harness.ts";

const assets: MapAssets = {
  script: { name: "map-0123456789ab.js", text: `console.log(${JSON.stringify("x".repeat(4000))});` },
  style: { name: "map-ba9876543210.css", text: "body{margin:0}" },
  worker: { name: "maplibre-worker-abcdefabcdef.mjs", text: "self.onmessage=()=>{};" },
};
const tiles = { url: "https://tiles.example:8443/{z}/{x}/{y}.png", attribution: { text: `© "Tiles" <b>&</b>`, url: "https://tiles.example/credit" } };

const get = (handler: ReturnType<typeof make>, path: string, headers: Record<string, string> = {}, method = "GET") =>
  handler(new Request(base + path, { headers, method }), { clientAddress: "127.0.0.1" });

test("GET / is the map page: HTML, no-cache with a tag, a CSP of this origin and the tile host", async () => {
  const handler = make({ mapAssets: assets, mapTiles: tiles });
  const page = await get(handler, "/");
  assert.equal(page.status, 200);
  assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
  assert.equal(page.headers.get("cache-control"), "no-cache");
  assert.equal(page.headers.get("x-content-type-options"), "nosniff");
  assert.equal(
    page.headers.get("content-security-policy"),
    "default-src 'none'; script-src 'self'; style-src 'self'; worker-src 'self'; img-src 'self' data: https://tiles.example:8443; connect-src 'self' https://tiles.example:8443; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  );
  const html = await page.text();
  assert.match(html, /<script type="module" src="map\/map-0123456789ab\.js"><\/script>/);
  assert.match(html, /<link rel="stylesheet" href="map\/map-ba9876543210\.css">/);
  assert.match(html, /data-worker="map\/maplibre-worker-abcdefabcdef\.mjs"/);
  assert.match(html, /data-tiles="https:\/\/tiles\.example:8443\/\{z\}\/\{x\}\/\{y\}\.png"/);
  assert.ok(html.includes(`data-tile-credit="© &#34;Tiles&#34; &#60;b&#62;&#38;&#60;/b&#62;"`), "settings are escaped, never markup");
  assert.match(html, /data-tile-credit-url="https:\/\/tiles\.example\/credit"/);
  const etag = page.headers.get("etag") ?? "";
  assert.match(etag, /^"page-/);
  const again = await get(handler, "/", { "if-none-match": etag });
  assert.equal(again.status, 304);
  assert.equal(again.headers.get("content-security-policy"), page.headers.get("content-security-policy"));
});

test("the page's files: their types, immutable for a year, compressed when accepted; an unknown one is NOT_FOUND", async () => {
  const handler = make({ mapAssets: assets });
  const script = await get(handler, `/map/${assets.script.name}`, { "accept-encoding": "gzip" });
  assert.equal(script.status, 200);
  assert.equal(script.headers.get("content-type"), "text/javascript; charset=utf-8");
  assert.equal(script.headers.get("cache-control"), "public, max-age=31536000, immutable");
  assert.equal(script.headers.get("content-encoding"), "gzip");
  assert.equal(gunzipSync(Buffer.from(await script.arrayBuffer())).toString(), assets.script.text);
  const style = await get(handler, `/map/${assets.style.name}`);
  assert.deepEqual([style.headers.get("content-type"), await style.text()], ["text/css; charset=utf-8", assets.style.text]);
  const worker = await get(handler, `/map/${assets.worker.name}`);
  assert.equal(worker.headers.get("content-type"), "text/javascript; charset=utf-8");
  assert.equal(worker.headers.get("x-content-type-options"), "nosniff");
  const tag = worker.headers.get("etag") ?? "";
  assert.equal((await get(handler, `/map/${assets.worker.name}`, { "if-none-match": tag })).status, 304);
  const missing = await call(handler, "/map/map-000000000000.js");
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body, { error: { code: "NOT_FOUND", message: 'No map file "map-000000000000.js"; the page at / names its files' } });
});

test("the page goes through the guards: CORS and the rate limit count it; the key gate lets it and its files through", async () => {
  const handler = make({ mapAssets: assets, apiKeys: ["key-aaaaaaaaaaaaaaaa"], ratePerMinute: 2 });
  const page = await get(handler, "/", { origin: "https://elsewhere.example" });
  assert.equal(page.status, 200, "no key needed for the page");
  assert.equal(page.headers.get("access-control-allow-origin"), "*");
  assert.match(page.headers.get("ratelimit") ?? "", /r=1;/);
  assert.equal((await get(handler, `/map/${assets.style.name}`)).status, 200);
  assert.equal((await get(handler, "/")).status, 429, "the third request of two a minute");
  const gated = make({ mapAssets: assets, apiKeys: ["key-aaaaaaaaaaaaaaaa"] });
  assert.equal((await call(gated, "/api/v1/sites")).status, 401, "the data still needs a key");
});

test("the page answers GET and HEAD only, and is absent from a handler given no files", async () => {
  const handler = make({ mapAssets: assets });
  const head = await get(handler, "/", {}, "HEAD");
  assert.equal(head.status, 200);
  const post = await get(handler, "/", {}, "POST");
  assert.deepEqual([post.status, post.headers.get("allow")], [405, "GET, HEAD"]);
  const none = await call(make(), "/");
  assert.equal(none.status, 404);
  const openApi = await call(handler, "/api/v1/openapi.json");
  const paths = Object.keys((openApi.body as { paths: Record<string, unknown> }).paths);
  assert.ok(!paths.includes("/") && !paths.some((p) => p.startsWith("/map/")), "the page is not an API route");
});

test("without a base map the page has no tile URL and the CSP no tile host; the default credits OpenStreetMap", async () => {
  const bare = await (await get(make({ mapAssets: assets, mapTiles: null }), "/")).text();
  assert.match(bare, /data-tiles=""/);
  assert.equal(mapPolicy(null).includes("http"), false);
  assert.match(mapPolicy(DEFAULT_MAP_TILES), /img-src 'self' data: https:\/\/tile\.openstreetmap\.org;/);
  const html = mapPageHtml(assets, DEFAULT_MAP_TILES);
  assert.match(html, /data-tile-credit="© OpenStreetMap contributors" data-tile-credit-url="https:\/\/www\.openstreetmap\.org\/copyright"/);
  const defaulted = await (await get(make({ mapAssets: assets }), "/")).text();
  assert.equal(defaulted, html, "a handler given no tile setting uses OpenStreetMap's");
});
