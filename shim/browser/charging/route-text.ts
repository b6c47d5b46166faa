/** The route in the text box, read to be drawn: the API judges it, so a route the page cannot read is sent and not drawn. */
import { decodePolyline } from "../../../src/charging/operations/polyline.ts";
import type { LonLat } from "./api.ts";
import type { RouteAsked } from "./page.ts";

/** As many points as the API takes (MAX_ROUTE_POINTS of src/charging/operations/route-input.ts, not imported: it would bring valibot into the page). */
const MAX_ROUTE_POINTS = 10_000;

/** JSON text's value, or undefined (an encoded polyline may well start with "{"). */
function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The route in the text box: GeoJSON (a LineString, or a Feature holding one) or an encoded polyline. */
export function routeOf(text: string): RouteAsked | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  const parsed = jsonOf(trimmed) as { type?: string; geometry?: unknown; coordinates?: unknown } | undefined;
  if (parsed === null || typeof parsed !== "object") {
    const polyline = trimmed.replace(/\s+/g, "");
    return { param: "polyline", value: polyline, points: pointsOf(polyline) };
  }
  const line = (parsed.type === "Feature" ? parsed.geometry : parsed) as { type?: string; coordinates?: unknown };
  const points = line?.type === "LineString" && Array.isArray(line.coordinates) ? (line.coordinates as LonLat[]) : [];
  return { param: "geojson", value: JSON.stringify(line), points };
}

/** The points of an encoded polyline, or none when it does not decode (the API's answer says why). */
function pointsOf(polyline: string): LonLat[] {
  const decoded = decodePolyline(polyline, MAX_ROUTE_POINTS);
  return "points" in decoded ? decoded.points.map(([lon, lat]): LonLat => [lon, lat]) : [];
}
