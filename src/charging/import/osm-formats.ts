/**
 * OSM extract rows into elements, one at a time as they stream in: Overpass API JSON
 * (`{"elements": [...]}`) and overpass-turbo GeoJSON (a FeatureCollection whose `properties`
 * are the tags plus `@id`). A row of the wrong shape is undefined (counted as malformed).
 * Ways and relations get one point: Overpass `center`, else the centroid of their geometry.
 * @module
 */
import { v } from "../../../deps.ts";
import type { OsmElement, OsmType } from "./osm.ts";

const Tags = v.record(v.string(), v.string());
const LatLon = v.object({ lat: v.number(), lon: v.number() });

const OverpassElement = v.looseObject({
  type: v.picklist(["node", "way", "relation"]),
  id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  lat: v.optional(v.number()),
  lon: v.optional(v.number()),
  center: v.optional(LatLon),
  geometry: v.optional(v.array(v.nullable(LatLon))),
  tags: v.optional(Tags, {}),
  timestamp: v.optional(v.string()),
});

const Position = v.pipe(v.array(v.number()), v.minLength(2));
const Feature = v.looseObject({
  id: v.optional(v.union([v.string(), v.number()])),
  properties: v.nullable(v.record(v.string(), v.unknown())),
  geometry: v.nullable(v.looseObject({ type: v.string(), coordinates: v.optional(v.unknown()) })),
});

/** The extract's own date (`osm3s.timestamp_osm_base`), used for elements without one. */
export function overpassTimestamp(osm3s: unknown): string | null {
  const stamp = (osm3s as { timestamp_osm_base?: unknown } | null)?.timestamp_osm_base;
  return typeof stamp === "string" ? stamp : null;
}

/** Area-weighted centroid of a ring (vertex mean when the ring has no area). */
export function ringCentroid(ring: readonly (readonly number[])[]): [number, number] | undefined {
  const pts = ring.filter((p) => typeof p[0] === "number" && typeof p[1] === "number") as [number, number][];
  if (pts.length === 0) return undefined;
  let area = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < pts.length; i++) {
    const [x0, y0] = pts[i] as [number, number];
    const [x1, y1] = pts[(i + 1) % pts.length] as [number, number];
    const cross = x0 * y1 - x1 * y0;
    area += cross;
    cx += (x0 + x1) * cross;
    cy += (y0 + y1) * cross;
  }
  if (Math.abs(area) < 1e-18) {
    return [pts.reduce((s, p) => s + p[0], 0) / pts.length, pts.reduce((s, p) => s + p[1], 0) / pts.length];
  }
  return [cx / (3 * area), cy / (3 * area)];
}

/** One Overpass element; undefined when it does not have the Overpass shape. */
export function overpassElement(raw: unknown, fallback: string | null): OsmElement | undefined {
  const parsed = v.safeParse(OverpassElement, raw);
  if (!parsed.success) return undefined;
  const e = parsed.output;
  const point =
    e.lat !== undefined && e.lon !== undefined
      ? { lat: e.lat, lon: e.lon }
      : (e.center ?? centroidOf(e.geometry?.filter((p) => p !== null).map((p) => [p.lon, p.lat]) ?? []));
  return { type: e.type, id: e.id, lat: point?.lat, lon: point?.lon, tags: e.tags, timestamp: e.timestamp ?? fallback };
}

function centroidOf(ring: readonly (readonly number[])[]): { lat: number; lon: number } | undefined {
  const c = ringCentroid(ring);
  return c ? { lon: c[0], lat: c[1] } : undefined;
}

function geometryPoint(geometry: { type: string; coordinates?: unknown } | null) {
  const c = geometry?.coordinates;
  const ok = (p: unknown): p is number[] => v.is(Position, p);
  if (geometry?.type === "Point" && ok(c)) return { lon: c[0] as number, lat: c[1] as number };
  const ring =
    geometry?.type === "Polygon"
      ? (c as unknown[])?.[0]
      : geometry?.type === "MultiPolygon"
        ? ((c as unknown[])?.[0] as unknown[])?.[0]
        : geometry?.type === "LineString"
          ? c
          : undefined;
  return Array.isArray(ring) && ring.every(ok) ? centroidOf(ring) : undefined;
}

const OSM_ID = /^(node|way|relation)\/([1-9]\d*)$/;

/** One overpass-turbo GeoJSON feature; undefined when it is not one or has no OSM id. */
export function geojsonElement(raw: unknown, fallback: string | null): OsmElement | undefined {
  const parsed = v.safeParse(Feature, raw);
  if (!parsed.success) return undefined;
  const f = parsed.output;
  const props = f.properties ?? {};
  const match = OSM_ID.exec(String(props["@id"] ?? f.id ?? ""));
  if (!match) return undefined;
  const tags: Record<string, string> = {};
  for (const [k, val] of Object.entries(props)) if (!k.startsWith("@") && typeof val === "string") tags[k] = val;
  const point = geometryPoint(f.geometry);
  const timestamp = typeof props["@timestamp"] === "string" ? props["@timestamp"] : fallback;
  return { type: match[1] as OsmType, id: Number(match[2]), lat: point?.lat, lon: point?.lon, tags, timestamp };
}
