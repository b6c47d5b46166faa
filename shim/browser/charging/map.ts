/**
 * The entry module of the map page at `/` (the page and its headers:
 * src/charging/transports/http/map-page.ts). Pan and zoom search the view with
 * `GET api/v1/sites` (the bbox and the filters the OpenAPI document lists for that route, as
 * form controls, with the values of `GET api/v1/reference` where it has them), clustered at
 * low zoom; a result, in the list or on the map, opens the site
 * with its status and credit line. A route, drawn on the map or pasted (an encoded polyline or
 * a GeoJSON LineString), is searched with `GET api/v1/route` and its sites listed in order
 * along it. The base map's tile URL and credit come from the page's data attributes; without
 * tiles the sites still show on a plain background. Every string from the data is inserted as
 * text, and links only when they are http(s).
 * @module
 */
import type { GeoJSONSource, MapLayerMouseEvent, MapLibreMap } from "../../../deps-map.ts";
import { encodePolyline } from "../../../src/charging/operations/polyline.ts";
import { getJson, type LonLat, MAX_URL, PAGE, type Site, type SitesAnswer } from "./api.ts";
import { buildFilters, filterValues } from "./filters.ts";
import { addRouteLayer, addSiteLayers, createMap, fitRoute, showClusterCounts, showRoute } from "./layers.ts";
import { byId, form, link, settings, state, summary } from "./page.ts";
import { routeOf } from "./route-text.ts";
import { openSite } from "./site-detail.ts";
import { bboxOf, showSites } from "./site-list.ts";
import "./map.css";

/** The search the list shows: the route's when there is one, else the view's. */
function searchPath(map: MapLibreMap): string {
  const filters = filterValues();
  if (!state.route) return `api/v1/sites?${new URLSearchParams({ bbox: bboxOf(map), limit: PAGE, ...filters })}`;
  const corridorKm = byId<HTMLInputElement>("corridor").value.trim();
  const query = { [state.route.param]: state.route.value, ...(corridorKm ? { corridorKm } : {}), limit: PAGE, ...filters };
  return `api/v1/route?${new URLSearchParams(query)}`;
}

function searcher(map: MapLibreMap, sites: Map<string, Site>): () => Promise<void> {
  let inFlight: AbortController | undefined;
  return async () => {
    inFlight?.abort();
    inFlight = new AbortController();
    const path = searchPath(map);
    if (path.length > MAX_URL) return void (summary.textContent = `This route makes a ${path.length}-character URL, too long to send; POST /api/v1/route takes routes of up to 10,000 points`);
    try {
      const answer = await getJson<SitesAnswer>(path, { signal: inFlight.signal });
      sites.clear();
      for (const site of answer.data) sites.set(site.id, site);
      showSites(map, answer, (site) => void openSite(map, site));
    } catch (err) {
      if ((err as Error).name !== "AbortError") summary.textContent = (err as Error).message;
    }
  };
}

function openOnClick(map: MapLibreMap, sites: Map<string, Site>): void {
  map.on("click", "sites", (event: MapLayerMouseEvent) => {
    const site = sites.get(String(event.features?.[0]?.properties.id));
    if (site && !state.drawing) void openSite(map, site);
  });
  map.on("click", "clusters", async (event: MapLayerMouseEvent) => {
    const feature = event.features?.[0];
    if (!feature || feature.geometry.type !== "Point" || state.drawing) return;
    const zoom = await (map.getSource("sites") as GeoJSONSource).getClusterExpansionZoom(Number(feature.properties.cluster_id));
    map.easeTo({ center: feature.geometry.coordinates as LonLat, zoom });
  });
  for (const layer of ["sites", "clusters"]) {
    map.on("mouseenter", layer, () => (map.getCanvas().style.cursor = "pointer"));
    map.on("mouseleave", layer, () => (map.getCanvas().style.cursor = ""));
  }
}

/** Filters search again at once when chosen, typed ones after a pause. */
function searchOnFilters(search: () => void): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  form.addEventListener("change", () => search());
  form.addEventListener("input", (event) => {
    if (!(event.target instanceof HTMLInputElement) || event.target.type === "checkbox") return;
    clearTimeout(timer);
    timer = setTimeout(search, 500);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    search();
  });
}

function setDrawing(on: boolean): void {
  state.drawing = on;
  byId("route").toggleAttribute("data-drawing", on);
  byId("route-draw").textContent = on ? "Stop drawing" : "Draw";
}

/** Draw (clicks on the map add points), search along the route, clear it. */
function routeControls(map: MapLibreMap, search: () => Promise<void>): void {
  const text = byId<HTMLTextAreaElement>("route-text");
  map.on("click", (event) => {
    if (!state.drawing) return;
    state.drawn.push([event.lngLat.lng, event.lngLat.lat]);
    text.value = encodePolyline(state.drawn);
    showRoute(map, state.drawn);
  });
  byId("route-draw").addEventListener("click", () => {
    if (!state.drawing) state.drawn = [];
    setDrawing(!state.drawing);
  });
  byId("route-search").addEventListener("click", () => {
    setDrawing(false);
    state.route = routeOf(text.value);
    if (!state.route) return void (summary.textContent = "Draw or paste a route first");
    showRoute(map, state.route.points);
    fitRoute(map, state.route.points);
    void search();
  });
  byId("route-clear").addEventListener("click", () => {
    setDrawing(false);
    [state.route, state.drawn, text.value] = [undefined, [], ""];
    showRoute(map, []);
    void search();
  });
}

function showTileCredit(): void {
  const credit = byId("tile-credit");
  if (settings.tileCredit) credit.append(link(`Map tiles ${settings.tileCredit}`, settings.tileCreditUrl));
}

async function start(): Promise<void> {
  showTileCredit();
  const filtersBuilt = buildFilters().catch((err: Error) => void (summary.textContent = err.message));
  let map: MapLibreMap;
  try {
    map = createMap();
  } catch (err) {
    // MapLibre needs WebGL; without it the page says so rather than "Loading…" for ever.
    summary.textContent = `This browser cannot draw the map (${(err as Error).message}); the API is at api/v1/sites`;
    return;
  }
  const sites = new Map<string, Site>();
  map.on("load", async () => {
    addSiteLayers(map);
    addRouteLayer(map);
    showClusterCounts(map);
    openOnClick(map, sites);
    await filtersBuilt;
    const search = searcher(map, sites);
    // A route's list stays while the map moves; the view's follows it.
    map.on("moveend", () => void (state.route ? undefined : search()));
    searchOnFilters(() => void search());
    routeControls(map, search);
    void search();
  });
}

void start();
