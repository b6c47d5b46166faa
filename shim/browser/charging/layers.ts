/** The map and what is drawn on it: the base tiles, the sites clustered, the opened site, the route. */
import { type GeoJSONSource, MapLibreMap, type MapOptions, Marker, NavigationControl, setWorkerUrl } from "../../../deps-map.ts";
import type { LonLat } from "./api.ts";
import { byId, element, settings } from "./page.ts";

/** A plain background, and the raster tiles over it when the page has a tile URL. */
export function baseStyle(tiles: string | undefined): MapOptions["style"] {
  const background = { id: "background", type: "background", paint: { "background-color": "#dde6e8" } } as const;
  if (!tiles) return { version: 8, sources: {}, layers: [background] };
  return {
    version: 8,
    sources: { base: { type: "raster", tiles: [tiles], tileSize: 256, maxzoom: 19 } },
    layers: [background, { id: "base", type: "raster", source: "base" }],
  };
}

export function createMap(): MapLibreMap {
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

export function addSiteLayers(map: MapLibreMap): void {
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
export function showClusterCounts(map: MapLibreMap): void {
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

export function addRouteLayer(map: MapLibreMap): void {
  map.addSource("route", { type: "geojson", data: { type: "FeatureCollection", features: [] } });
  map.addLayer({ id: "route", type: "line", source: "route", paint: { "line-color": "#d9480f", "line-width": 4, "line-opacity": 0.8 } }, "clusters");
}

export function showRoute(map: MapLibreMap, points: LonLat[]): void {
  const features = points.length > 1 ? [{ type: "Feature" as const, properties: {}, geometry: { type: "LineString" as const, coordinates: points } }] : [];
  (map.getSource("route") as GeoJSONSource).setData({ type: "FeatureCollection", features });
}

export function fitRoute(map: MapLibreMap, points: LonLat[]): void {
  if (points.length < 2) return;
  const lons = points.map(([lon]) => lon);
  const lats = points.map(([, lat]) => lat);
  map.fitBounds([Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)], { padding: 40, duration: 0, maxZoom: 14 });
}
