/**
 * What the refresh downloads, in the providers' own formats, from the real files in
 * fixtures/charging/raw: an OCM `/v3/poi` compact answer, OCM reference data, and an Overpass
 * API answer (`[out:json]`, `out center meta`) holding the OpenStreetMap stations of the
 * overpass-turbo export.
 * @module
 */
import { readFileSync } from "node:fs";
import { data } from "../data/helpers.ts";

interface Feature {
  properties: Record<string, string>;
  geometry: { type: string; coordinates: unknown };
}

/** The Overpass element of a GeoJSON feature: nodes at their point, ways at the mean of their ring. */
function elementOf(feature: Feature) {
  const { "@id": ref, ...tags } = feature.properties;
  const [type, id] = (ref as string).split("/") as [string, string];
  if (feature.geometry.type === "Point") {
    const [lon, lat] = feature.geometry.coordinates as [number, number];
    return { type, id: Number(id), lat, lon, tags };
  }
  const ring = (feature.geometry.coordinates as [number, number][][])[0] as [number, number][];
  const mean = (i: 0 | 1) => ring.reduce((sum, point) => sum + point[i], 0) / ring.length;
  return { type, id: Number(id), center: { lat: mean(1), lon: mean(0) }, tags };
}

/** An Overpass API answer with the first `count` stations of the overpass-turbo export. */
export function overpassAnswer(count = Infinity): Uint8Array {
  const geojson = JSON.parse(readFileSync(data("osm-charging-stations-de-2015-overpass-turbo.geojson"), "utf8")) as {
    timestamp: string;
    features: Feature[];
  };
  const answer = {
    version: 0.6,
    generator: "Overpass API 0.7.62.1 084b4234",
    osm3s: { timestamp_osm_base: geojson.timestamp, copyright: "The data included in this document is from www.openstreetmap.org. The data is made available under ODbL." },
    elements: geojson.features.slice(0, count).map(elementOf),
  };
  return new TextEncoder().encode(JSON.stringify(answer));
}

export const OCM_POI = readFileSync(data("ocm-poi-london-gb-compact.json"));
export const OCM_REFERENCE = readFileSync(data("ocm-reference.json"));
