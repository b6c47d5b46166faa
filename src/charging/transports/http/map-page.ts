/**
 * The map page at `GET /` and its files under `/map/`: a small HTML page over the API itself
 * (the browser modules are in shim/browser/charging/). The files (one script bundling MapLibre
 * GL JS with that module, one stylesheet, MapLibre's worker) are bundled at build time and
 * handed in; their names carry a hash of their content, so they are cached for a year as
 * immutable. The page is `no-cache` with an entity tag, as it names the current files and the
 * tile settings. Its CSP allows this origin and the tile host only.
 *
 * These are route rows beside the operations rather than operations: they answer HTML and
 * files, not data, and have no MCP or CLI face.
 * @module
 */
import { type PreparedJson, prepareText } from "../../../shared/http/respond.ts";
import type { Route } from "../../../shared/http/route-table.ts";
import { ApiError } from "../../../shared/errors.ts";
import type { MapTiles } from "../../config.ts";
import { createCacheable } from "./cacheable.ts";
import type { Compressor, Encoding } from "./compress.ts";

/** One bundled file: its hashed name (`map-1a2b3c4d.js`) and its text. */
export interface MapFile {
  name: string;
  text: string;
}

/** What the build bundles for the page. */
export interface MapAssets {
  script: MapFile;
  style: MapFile;
  worker: MapFile;
}

interface MapPageOptions {
  assets: MapAssets;
  /** The base map; null: none (the sites on a plain background). */
  tiles: MapTiles | null;
  encodings: readonly Encoding[];
  compress?: Compressor | undefined;
}

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
};

const IMMUTABLE = "public, max-age=31536000, immutable";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page's CSP: scripts, styles and workers from here; images and fetches from here and the tile host. */
export function mapPolicy(tiles: MapTiles | null): string {
  const tileHost = tiles ? ` ${new URL(tiles.url.replace(/[{}]/g, "")).origin}` : "";
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "worker-src 'self'",
    `img-src 'self' data:${tileHost}`,
    `connect-src 'self'${tileHost}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The page: static markup, its settings in data attributes (read by the module, never as markup). */
export function mapPageHtml(assets: MapAssets, tiles: MapTiles | null): string {
  const settings = [
    ["worker", `map/${assets.worker.name}`],
    ["tiles", tiles?.url ?? ""],
    ["tileCredit", tiles?.attribution.text ?? ""],
    ["tileCreditUrl", tiles?.attribution.url ?? ""],
  ]
    .map(([name, value]) => ` data-${(name as string).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${escapeHtml(value as string)}"`)
    .join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Charging sites map</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="map/${escapeHtml(assets.style.name)}">
<script type="module" src="map/${escapeHtml(assets.script.name)}"></script>
</head>
<body${settings}>
<header><h1>Charging sites</h1><a href="api/v1/openapi.json">API</a></header>
<main>
<aside id="panel">
<form id="filters" aria-label="Filters"></form>
<details id="route"><summary>Along a route</summary>
<p>Draw a route (click the map point by point) or paste an encoded polyline or a GeoJSON LineString.</p>
<textarea id="route-text" rows="3" aria-label="Route: an encoded polyline or a GeoJSON LineString"></textarea>
<label>Corridor (km either side) <input id="corridor" type="number" min="0.1" max="50" step="any" value="5"></label>
<p><button type="button" id="route-draw">Draw</button> <button type="button" id="route-search">Search along the route</button> <button type="button" id="route-clear">Clear</button></p>
</details>
<p id="summary" role="status">Loading…</p>
<section id="detail" aria-live="polite" hidden></section>
<ol id="results"></ol>
</aside>
<div id="map" role="region" aria-label="Map"></div>
</main>
<footer id="credits"><span id="tile-credit"></span><span id="data-credits"></span></footer>
</body>
</html>
`;
}

/** `GET /` (the page) and `GET /map/:file` (its bundled files). */
export function mapRoutes(options: MapPageOptions): Route<URL>[] {
  const { assets, tiles, encodings, compress } = options;
  // Encoded on first request: a server that never serves the page (or swaps data sets, which
  // builds a new handler) does not copy 1.6 MB of text for nothing.
  let files: Map<string, PreparedJson> | undefined;
  const fileNamed = (name: string) => {
    files ??= new Map([assets.script, assets.style, assets.worker].map((file) => [file.name, prepareText(file.text)]));
    return files.get(name);
  };
  const html = mapPageHtml(assets, tiles);
  const page = prepareText(html);
  const policy = mapPolicy(tiles);
  const pageAnswer = createCacheable({ version: "page", cacheControl: "no-cache", encodings, compress });
  const fileAnswer = createCacheable({ version: "map", cacheControl: IMMUTABLE, encodings, compress });
  const nosniff = (response: Response) => {
    response.headers.set("x-content-type-options", "nosniff");
    return response;
  };
  const showPage = async (request: Request) => {
    const response = nosniff(await pageAnswer(request, html, page, "text/html; charset=utf-8"));
    response.headers.set("content-security-policy", policy);
    return response;
  };
  const showFile = async (request: Request, params: Readonly<Record<string, string>>) => {
    const name = params.file ?? "";
    const file = fileNamed(name);
    if (!file) throw new ApiError("NOT_FOUND", `No map file ${JSON.stringify(name)}; the page at / names its files`);
    return nosniff(await fileAnswer(request, name, file, TYPES[name.split(".").pop() ?? ""]));
  };
  return [
    { method: "GET", path: "/", handle: showPage, open: true },
    { method: "GET", path: "/map/:file", handle: showFile, open: true },
  ];
}
