/**
 * A route as the operations take it: an encoded polyline (Google's algorithm, precision 5,
 * latitude first) or a GeoJSON LineString (`[lon, lat]` positions, an altitude ignored),
 * read into `[lon, lat]` points by one valibot schema, so REST (GET and POST) and MCP refuse
 * the same routes with the same words. The rules:
 * - 2 to MAX_ROUTE_POINTS points (a LineString has at least two positions, RFC 7946 3.1.4;
 *   for one point search near it instead); repeated points are kept (a zero-length segment);
 * - at most MAX_ROUTE_KM long, so the shorter arc between two points is always defined
 *   (antipodal points are 20,015 km apart) and the work stays bounded;
 * - a segment is the shorter great-circle arc: 179.9° to -179.9° crosses the antimeridian.
 * @module
 */
import { v } from "../../../deps.ts";
import { type LonLat, pathLengthKm } from "../search/route.ts";
import { decodePolyline } from "./polyline.ts";

const MAX_ROUTE_POINTS = 10_000;
const MAX_ROUTE_KM = 20_000;
export const CORRIDOR_DEFAULT_KM = 5;
const CORRIDOR_MAX_KM = 50;

const ROUTE_HELP =
  `The route: an encoded polyline string (Google's algorithm, precision 5) or a GeoJSON LineString {"type":"LineString","coordinates":[[lon,lat],...]}; 2 to ${MAX_ROUTE_POINTS} points, at most ${MAX_ROUTE_KM} km; each segment is the shorter great-circle arc`;

export const CORRIDOR_HELP = `Corridor half-width in km, either side of the route: more than 0, at most ${CORRIDOR_MAX_KM} (default ${CORRIDOR_DEFAULT_KM})`;

type Read = { points: LonLat[] } | { error: string };

const isPosition = (p: unknown): p is number[] =>
  Array.isArray(p) && (p.length === 2 || p.length === 3) && p.every((n) => typeof n === "number" && Number.isFinite(n));

function readLineString(shape: { type: unknown; coordinates?: unknown }): Read {
  if (shape.type !== "LineString") {
    const type = typeof shape.type === "string" ? `a GeoJSON ${shape.type.slice(0, 40)}` : "an object without a GeoJSON type";
    return { error: `route is ${type}; send a GeoJSON LineString or an encoded polyline` };
  }
  const { coordinates } = shape;
  if (!Array.isArray(coordinates)) return { error: "route LineString needs coordinates: an array of [lon, lat] positions" };
  if (coordinates.length > MAX_ROUTE_POINTS) return { error: `route has more than ${MAX_ROUTE_POINTS} points; simplify it` };
  const points: LonLat[] = [];
  for (const [k, position] of coordinates.entries()) {
    if (!isPosition(position)) return { error: `route coordinates[${k}] must be [lon, lat] (or [lon, lat, altitude]) numbers` };
    const [lon, lat] = position as [number, number];
    if (Math.abs(lon) > 180 || Math.abs(lat) > 90) {
      return { error: `route coordinates[${k}] is [${lon}, ${lat}]: lon must be within -180..180 and lat within -90..90 (GeoJSON puts lon first)` };
    }
    points.push([lon, lat]);
  }
  return { points };
}

/** The points of a route as sent, or what is wrong with it. */
export function readRoute(route: string | { type: unknown; coordinates?: unknown }): Read {
  const read = typeof route === "string" ? decodePolyline(route, MAX_ROUTE_POINTS) : readLineString(route);
  if ("error" in read) return read;
  const count = read.points.length;
  if (count < 2) {
    return { error: `route has ${count} point${count === 1 ? "" : "s"}; a route needs at least 2 (for one point, search near it with a radius)` };
  }
  const km = pathLengthKm(read.points);
  if (km > MAX_ROUTE_KM) return { error: `route is ${Math.round(km)} km long; at most ${MAX_ROUTE_KM} km (split it)` };
  return read;
}

const ROUTE_SHAPE = "route must be an encoded polyline string or a GeoJSON LineString object";

/**
 * A LineString as the schema lets it through: any object, read by `readRoute` for its own
 * messages; its JSON Schema still says what it is (a bare `{}` declares nothing, and MCP
 * Inspector flags it).
 */
const LineStringShape = v.looseObject({
  type: v.pipe(v.unknown(), v.metadata({ const: "LineString" })),
  coordinates: v.optional(v.pipe(v.unknown(), v.metadata({ type: "array", items: { type: "array", items: { type: "number" } } }))),
});

/** The `route` argument: a polyline or a LineString in, `[lon, lat]` points out. */
export const RouteArgument = v.pipe(
  v.union([v.pipe(v.string(), v.minLength(1, ROUTE_SHAPE)), LineStringShape], ROUTE_SHAPE),
  v.description(ROUTE_HELP),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const read = readRoute(dataset.value);
    if ("points" in read) return read.points;
    addIssue({ message: read.error });
    return NEVER;
  }),
);

export const CorridorArgument = v.pipe(
  v.number(),
  v.gtValue(0, `corridorKm must be more than 0 and at most ${CORRIDOR_MAX_KM}`),
  v.maxValue(CORRIDOR_MAX_KM, `corridorKm must be more than 0 and at most ${CORRIDOR_MAX_KM}`),
  v.description(CORRIDOR_HELP),
);
