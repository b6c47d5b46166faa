/**
 * The browser module of the map page at `/` (the page and its headers:
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
import { type GeoJSONSource, type MapLayerMouseEvent, MapLibreMap, type MapOptions, Marker, NavigationControl, setWorkerUrl } from "../../deps-map.ts";
import "./charging-map.css";

interface Attribution {
  text: string;
  url: string;
}

interface Connector {
  type: string;
  label: string;
  powerKw: number | null;
  quantity: number | null;
  current: string | null;
}

interface Site {
  id: string;
  name: string | null;
  lat: number;
  lon: number;
  address: { line1: string | null; town: string | null; region: string | null; postcode: string | null; countryCode: string | null } | null;
  operator: string | null;
  network: string | null;
  connectors: Connector[];
  maxPowerKw: number | null;
  access: string | null;
  usageCost: string | null;
  openingHours: string | null;
  status: string;
  licence: string;
  sourceUrl: string;
  /** On route searches: where along the route, and how far off it. */
  alongKm?: number;
  offRouteKm?: number;
}

interface SitesAnswer {
  data: Site[];
  page: { limit: number; offset: number; total: number };
  attribution: Attribution[];
}

interface StatusAnswer {
  data: { status: string; kind: string; retrievedAt: string; stale: boolean; staleReason?: string; attribution: Attribution };
}

interface QueryParameter {
  name: string;
  in: string;
  description?: string;
  schema?: { type?: string; enum?: string[]; minimum?: number; maximum?: number };
}

/** Query parameters the page sets itself (the view), and those of paging or syncing rather than filtering. */
const NOT_FILTERS = new Set(["bbox", "near", "radiusKm", "limit", "offset", "format", "cursor", "updatedSince"]);
/** One page of the largest size the API gives: the clusters are made from it. */
const PAGE = "100";
/** Longer search URLs are not sent (Node refuses request heads over 16 KiB). */
const MAX_URL = 12_000;

type LonLat = [number, number];

/** A route to search along: the query parameter carrying it, and its points when the page can read them. */
interface RouteAsked {
  param: "polyline" | "geojson";
  value: string;
  points: LonLat[];
}

/** What the list shows: the view's sites (searched on every move) or a route's. */
const state: { route?: RouteAsked; drawing: boolean; drawn: LonLat[] } = { drawing: false, drawn: [] };

const settings = document.body.dataset;
const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const form = byId<HTMLFormElement>("filters");
const summary = byId<HTMLParagraphElement>("summary");
const results = byId<HTMLOListElement>("results");
const detail = byId<HTMLElement>("detail");

// --- small DOM helpers: text only ---

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A link when `url` is http(s), else the text alone. */
function link(text: string, url: string | undefined): HTMLElement {
  if (!url || !/^https?:\/\//i.test(url)) return element("span", text);
  const a = element("a", text);
  a.href = url;
  a.rel = "noopener noreferrer";
  a.target = "_blank";
  return a;
}

/** An API answer's JSON, or an Error carrying its `CODE: message`. */
async function getJson<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(path, init);
  const body = (await response.json()) as T & { error?: { code: string; message: string } };
  if (!response.ok) throw new Error(body.error ? `${body.error.code}: ${body.error.message}` : `HTTP ${response.status}`);
  return body;
}

// --- filters, made from the OpenAPI document's parameters of GET /api/v1/sites ---

const isYesNo = (schema: QueryParameter["schema"]) =>
  schema?.type === "boolean" || (schema?.enum?.length === 2 && schema.enum.includes("true") && schema.enum.includes("false"));

/** The parameter's input: a checkbox for a yes/no, a number or a text field (lists: `controlOf`). */
function inputOf(schema: QueryParameter["schema"] = {}): HTMLInputElement | HTMLSelectElement {
  const input = element("input");
  if (isYesNo(schema)) {
    input.type = "checkbox";
    input.value = "true";
  } else if (schema.type === "number" || schema.type === "integer") {
    input.type = "number";
    input.step = "any";
    if (schema.minimum !== undefined) input.min = String(schema.minimum);
    if (schema.maximum !== undefined) input.max = String(schema.maximum);
  }
  return input;
}

/** A choice of value and its label. */
type Choice = [value: string, label: string];

/** Which list of `GET /api/v1/reference` offers a filter's values, and how to read one entry. */
const REFERENCE: Record<string, [list: string, choice: (entry: Record<string, unknown>) => Choice]> = {
  connectorType: ["connectorTypes", (e) => [String(e.type), `${e.name} (${e.count})`]],
  current: ["currentTypes", (e) => [String(e.current), `${e.current} (${e.count})`]],
  country: ["countries", (e) => [String(e.code), `${e.code} (${e.count})`]],
  operator: ["operators", (e) => [String(e.id), `${e.name} (${e.count})`]],
  access: ["access", (e) => [String(e.value), `${e.value} (${e.count})`]],
  status: ["statuses", (e) => [String(e.value), `${e.value} (${e.count})`]],
};

/** The reference data's values for each filter that has them (none when the API has no reference route). */
async function referenceChoices(): Promise<Record<string, Choice[]>> {
  type Reference = { data: Record<string, Record<string, unknown>[] | undefined> };
  const reference = await getJson<Reference>("api/v1/reference").catch((): Reference => ({ data: {} }));
  const choices: Record<string, Choice[]> = {};
  for (const [name, [list, choice]] of Object.entries(REFERENCE)) {
    const entries = reference.data[list];
    if (Array.isArray(entries) && entries.length > 0) choices[name] = entries.map(choice);
  }
  return choices;
}

function controlOf(parameter: QueryParameter, choices: Choice[] | undefined): HTMLLabelElement {
  const label = element("label", parameter.name);
  label.title = parameter.description ?? "";
  const enumerated = parameter.schema?.enum?.map((value): Choice => [value, value]);
  const listed = choices ?? (isYesNo(parameter.schema) ? undefined : enumerated);
  let control = inputOf(parameter.schema);
  if (listed) {
    control = element("select");
    control.append(new Option("any", ""), ...listed.map(([value, text]) => new Option(text, value)));
  }
  control.name = parameter.name;
  label.append(control);
  return label;
}

async function buildFilters(): Promise<void> {
  const [document, choices] = await Promise.all([
    getJson<{ paths: Record<string, { get?: { parameters?: QueryParameter[] } }> }>("api/v1/openapi.json"),
    referenceChoices(),
  ]);
  const parameters = document.paths["/api/v1/sites"]?.get?.parameters ?? [];
  const filters = parameters.filter((p) => p.in === "query" && !NOT_FILTERS.has(p.name));
  form.replaceChildren(...filters.map((p) => controlOf(p, choices[p.name])));
}

/** The filters set in the form, as query parameters (an empty control sets none). */
function filterValues(): Record<string, string> {
  const values: Record<string, string> = {};
  for (const control of form.querySelectorAll<HTMLInputElement | HTMLSelectElement>("input, select")) {
    if (control instanceof HTMLInputElement && control.type === "checkbox") {
      if (control.checked) values[control.name] = control.value;
    } else if (control.value.trim() !== "") values[control.name] = control.value.trim();
  }
  return values;
}

// --- the map ---

/** A plain background, and the raster tiles over it when the page has a tile URL. */
function baseStyle(tiles: string | undefined): MapOptions["style"] {
  const background = { id: "background", type: "background", paint: { "background-color": "#dde6e8" } } as const;
  if (!tiles) return { version: 8, sources: {}, layers: [background] };
  return {
    version: 8,
    sources: { base: { type: "raster", tiles: [tiles], tileSize: 256, maxzoom: 19 } },
    layers: [background, { id: "base", type: "raster", source: "base" }],
  };
}

function createMap(): MapLibreMap {
  if (settings.worker) setWorkerUrl(settings.worker);
  const map = new MapLibreMap({
    container: "map",
    style: baseStyle(settings.tiles),
    center: [-30, 35],
    zoom: 1.5,
    hash: true,
    attributionControl: false,
  });
  map.addControl(new NavigationControl({ showCompass: false }));
  // An unreachable tile host costs the background only: said once, the sites still show.
  map.on("error", (event) => {
    if ((event as { sourceId?: string }).sourceId !== "base") return void console.error(event.error);
    byId("tile-credit").dataset.unavailable = "true";
  });
  return map;
}

function addSiteLayers(map: MapLibreMap): void {
  map.addSource("sites", { type: "geojson", data: { type: "FeatureCollection", features: [] }, cluster: true, clusterRadius: 36, clusterMaxZoom: 11 });
  map.addLayer({
    id: "clusters",
    type: "circle",
    source: "sites",
    filter: ["has", "point_count"],
    paint: {
      "circle-color": "#2f6f8f",
      "circle-opacity": 0.8,
      "circle-radius": ["step", ["get", "point_count"], 12, 10, 16, 50, 22],
      "circle-stroke-width": 2,
      "circle-stroke-color": "#fff",
    },
  });
  map.addLayer({
    id: "sites",
    type: "circle",
    source: "sites",
    filter: ["!", ["has", "point_count"]],
    paint: {
      "circle-color": ["match", ["get", "status"], "AVAILABLE", "#1f9d55", "#8a8f98"],
      "circle-radius": 6,
      "circle-stroke-width": 2,
      "circle-stroke-color": "#fff",
    },
  });
  // The opened site, ringed (its filter is set when a site opens).
  map.addLayer({
    id: "opened",
    type: "circle",
    source: "sites",
    filter: ["==", ["get", "id"], ""],
    paint: { "circle-radius": 11, "circle-color": "rgba(0,0,0,0)", "circle-stroke-width": 3, "circle-stroke-color": "#d9480f" },
  });
}

/**
 * Each cluster's count as an HTML marker over its circle (a symbol layer would need a glyph
 * server), kept in step with what is drawn.
 */
function showClusterCounts(map: MapLibreMap): void {
  const shown = new Map<string, Marker>();
  map.on("render", () => {
    if (!map.getSource("sites") || !map.isSourceLoaded("sites")) return;
    const drawn = new Set<string>();
    for (const feature of map.querySourceFeatures("sites", { filter: ["has", "point_count"] })) {
      if (feature.geometry.type !== "Point") continue;
      const at = feature.geometry.coordinates as LonLat;
      const count = String(feature.properties.point_count);
      const key = `${count}@${at.join(",")}`;
      drawn.add(key);
      if (shown.has(key)) continue;
      const label = element("span", count);
      label.className = "cluster-count";
      shown.set(key, new Marker({ element: label }).setLngLat(at).addTo(map));
    }
    for (const [key, marker] of shown) {
      if (drawn.has(key)) continue;
      marker.remove();
      shown.delete(key);
    }
  });
}

// --- the search of the view ---

/** The view as an API bbox: longitudes wrapped into -180..180 (a box across the antimeridian has minLon > maxLon). */
function bboxOf(map: MapLibreMap): string {
  const bounds = map.getBounds();
  const wrap = (lon: number) => ((((lon + 180) % 360) + 360) % 360) - 180;
  const clampLat = (lat: number) => Math.max(-90, Math.min(90, lat));
  const whole = bounds.getEast() - bounds.getWest() >= 360;
  const [west, east] = whole ? [-180, 180] : [wrap(bounds.getWest()), wrap(bounds.getEast())];
  return [west, clampLat(bounds.getSouth()), east === -180 ? 180 : east, clampLat(bounds.getNorth())].map((n) => n.toFixed(5)).join(",");
}

function showCredits(attribution: Attribution[]): void {
  const credits = byId("data-credits");
  credits.replaceChildren(...attribution.map((line) => link(line.text, line.url)));
}

function summaryLine(answer: SitesAnswer): string {
  const { total } = answer.page;
  const shown = answer.data.length;
  if (state.route) {
    const where = "within the corridor of the route, in order along it";
    return total === shown ? `${total} site${total === 1 ? "" : "s"} ${where}` : `The first ${shown} of ${total} sites ${where}`;
  }
  if (total === shown) return `${total} site${total === 1 ? "" : "s"} in view`;
  return `The ${shown} nearest the centre of ${total} sites in view; zoom in for the others`;
}

function listItem(site: Site, open: (site: Site) => void): HTMLLIElement {
  const item = element("li");
  item.dataset.id = site.id;
  const button = element("button", site.name ?? site.id);
  button.type = "button";
  button.addEventListener("click", () => open(site));
  const power = site.maxPowerKw === null ? "power unknown" : `${site.maxPowerKw} kW`;
  const along = site.alongKm === undefined ? null : `${site.alongKm.toFixed(1)} km along, ${site.offRouteKm?.toFixed(1)} km off`;
  const facts = [along, site.operator, power, site.status].filter((fact): fact is string => Boolean(fact));
  item.append(button, element("span", facts.join(" · ")));
  return item;
}

function showSites(map: MapLibreMap, answer: SitesAnswer, open: (site: Site) => void): void {
  const features = answer.data.map((site) => ({
    type: "Feature" as const,
    geometry: { type: "Point" as const, coordinates: [site.lon, site.lat] },
    properties: { id: site.id, status: site.status },
  }));
  (map.getSource("sites") as GeoJSONSource).setData({ type: "FeatureCollection", features });
  results.replaceChildren(...answer.data.map((site) => listItem(site, open)));
  summary.textContent = summaryLine(answer);
  showCredits(answer.attribution);
}

// --- one site, with its status and credit line ---

function fact(list: HTMLDListElement, name: string, value: string | Node | null | undefined): void {
  if (value === null || value === undefined || value === "") return;
  list.append(element("dt", name));
  const cell = element("dd");
  cell.append(value);
  list.append(cell);
}

function addressOf(site: Site): string | null {
  const a = site.address;
  if (!a) return null;
  return [a.line1, [a.postcode, a.town].filter(Boolean).join(" "), a.region, a.countryCode].filter(Boolean).join(", ");
}

function connectorsOf(site: Site): HTMLUListElement {
  const list = element("ul");
  for (const c of site.connectors) {
    const parts = [c.label, c.powerKw === null ? null : `${c.powerKw} kW`, c.current, c.quantity === null ? null : `× ${c.quantity}`];
    list.append(element("li", parts.filter(Boolean).join(" · ")));
  }
  return list;
}

function showSite(site: Site, status: StatusAnswer["data"] | string): void {
  const list = element("dl");
  if (typeof status === "string") fact(list, "Status", status);
  else {
    fact(list, "Status", `${status.status} (${status.kind}, retrieved ${status.retrievedAt})`);
    if (status.stale) fact(list, "Stale", status.staleReason ?? "yes");
  }
  fact(list, "Address", addressOf(site));
  fact(list, "Operator", site.operator);
  fact(list, "Network", site.network);
  fact(list, "Connectors", connectorsOf(site));
  fact(list, "Access", site.access);
  fact(list, "Cost", site.usageCost);
  fact(list, "Opening hours", site.openingHours);
  fact(list, "Source", link(site.id, site.sourceUrl));
  fact(list, "Licence", site.licence);
  if (typeof status !== "string") fact(list, "Credit", link(status.attribution.text, status.attribution.url));
  detail.replaceChildren(element("h2", site.name ?? site.id), list);
  detail.hidden = false;
}

async function openSite(map: MapLibreMap, site: Site): Promise<void> {
  for (const item of results.querySelectorAll("li")) item.classList.toggle("open", item.dataset.id === site.id);
  map.setFilter("opened", ["==", ["get", "id"], site.id]);
  try {
    const status = await getJson<StatusAnswer>(`api/v1/status/${encodeURIComponent(site.id)}`);
    showSite(site, status.data);
  } catch (err) {
    showSite(site, `unavailable (${(err as Error).message})`);
  }
}

// --- a route: drawn or pasted, drawn on the map, searched along ---

/** Google's encoded polyline (precision 5, latitude first) of `points`. */
function encodePolyline(points: LonLat[]): string {
  let text = "";
  const push = (delta: number) => {
    let rest = delta < 0 ? ~(delta << 1) : delta << 1;
    for (; rest >= 0x20; rest >>= 5) text += String.fromCharCode((0x20 | (rest & 0x1f)) + 63);
    text += String.fromCharCode(rest + 63);
  };
  let [lat, lon] = [0, 0];
  for (const point of points) {
    const [nextLon, nextLat] = point.map((n) => Math.round(n * 1e5)) as LonLat;
    push(nextLat - lat);
    push(nextLon - lon);
    [lat, lon] = [nextLat, nextLon];
  }
  return text;
}

/** The points of an encoded polyline, to draw it (the API judges it; an unreadable one is not drawn). */
function decodePolyline(text: string): LonLat[] {
  const points: LonLat[] = [];
  let at = 0;
  const next = () => {
    let [value, shift, byte] = [0, 0, 0x20];
    for (; byte >= 0x20 && at < text.length && shift < 35; shift += 5) {
      byte = text.charCodeAt(at++) - 63;
      value += (byte & 0x1f) * 2 ** shift;
    }
    return value % 2 ? -(value + 1) / 2 : value / 2;
  };
  let [lat, lon] = [0, 0];
  while (at < text.length) {
    lat += next();
    lon += next();
    points.push([lon / 1e5, lat / 1e5]);
  }
  return points.every(([x, y]) => Math.abs(x) <= 180 && Math.abs(y) <= 90) ? points : [];
}

/** JSON text's value, or undefined (an encoded polyline may well start with "{"). */
function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The route in the text box: GeoJSON (a LineString, or a Feature holding one) or an encoded polyline. */
function routeOf(text: string): RouteAsked | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  const parsed = jsonOf(trimmed) as { type?: string; geometry?: unknown; coordinates?: unknown } | undefined;
  if (parsed === null || typeof parsed !== "object") {
    const polyline = trimmed.replace(/\s+/g, "");
    return { param: "polyline", value: polyline, points: decodePolyline(polyline) };
  }
  const line = (parsed.type === "Feature" ? parsed.geometry : parsed) as { type?: string; coordinates?: unknown };
  const points = line?.type === "LineString" && Array.isArray(line.coordinates) ? (line.coordinates as LonLat[]) : [];
  return { param: "geojson", value: JSON.stringify(line), points };
}

function addRouteLayer(map: MapLibreMap): void {
  map.addSource("route", { type: "geojson", data: { type: "FeatureCollection", features: [] } });
  map.addLayer({ id: "route", type: "line", source: "route", paint: { "line-color": "#d9480f", "line-width": 4, "line-opacity": 0.8 } }, "clusters");
}

function showRoute(map: MapLibreMap, points: LonLat[]): void {
  const features = points.length > 1 ? [{ type: "Feature" as const, properties: {}, geometry: { type: "LineString" as const, coordinates: points } }] : [];
  (map.getSource("route") as GeoJSONSource).setData({ type: "FeatureCollection", features });
}

function fitRoute(map: MapLibreMap, points: LonLat[]): void {
  if (points.length < 2) return;
  const lons = points.map(([lon]) => lon);
  const lats = points.map(([, lat]) => lat);
  map.fitBounds([Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)], { padding: 40, duration: 0, maxZoom: 14 });
}

// --- wiring ---

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
