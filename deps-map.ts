/**
 * MapLibre GL JS and its stylesheet, for the charging map page's browser module
 * (shim/browser/charging/) only: bundled at build time into the files the server serves
 * (scripts/map-assets.ts), never loaded by a server or a test process.
 * @module
 */
import "maplibre-gl/dist/maplibre-gl.css";

export { type GeoJSONSource, Map as MapLibreMap, type MapLayerMouseEvent, type MapOptions, Marker, NavigationControl, setWorkerUrl } from "maplibre-gl";
