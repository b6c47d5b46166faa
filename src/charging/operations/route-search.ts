/**
 * The inputs of a search along a route. The route is one more argument of a search, so every
 * filter of `GET /api/v1/sites` (and of `search_sites`) combines with it: the schemas below
 * are the search's own, with `near`, `radiusKm` and the sync's `updatedSince` and `cursor`
 * left out (a route orders by distance along it and pages by offset; a bbox stays, as one
 * more filter) and the route and corridor added.
 *
 * - MCP: `search_sites` takes `route` and `corridorKm` (the spec fixes four tools);
 * - REST: `GET /api/v1/route?polyline=...` or `?geojson=...` for short routes (the URL must fit
 *   Node's 16 KiB header limit), `POST /api/v1/route` with a JSON body for long ones (the
 *   body cap applies).
 * @module
 */
import { v } from "../../../deps.ts";
import { ApiError } from "../../shared/errors.ts";
import { queryNumber } from "../../shared/http/query.ts";
import { strict } from "./input-rules.ts";
import { type SearchInput, SearchSitesInput, siteQueryOf } from "./inputs.ts";
import { searchOfQuery, SitesQuery } from "./rest-queries.ts";
import type { SiteQuery } from "../search/store.ts";
import { CORRIDOR_DEFAULT_KM, CORRIDOR_HELP, CorridorArgument, RouteArgument } from "./route-input.ts";

/** search_sites: the search, and optionally a route with its corridor. */
export const SearchSitesRouteInput = strict({
  ...SearchSitesInput.entries,
  route: v.optional(RouteArgument),
  corridorKm: v.optional(CorridorArgument),
});
export type SearchSitesRouteInput = v.InferOutput<typeof SearchSitesRouteInput>;

/** A route search: the route (required), its corridor (default 5 km), the filters, one page. */
export const RouteSearchInput = strict({
  ...SearchSitesInput.entries,
  route: RouteArgument,
  corridorKm: v.optional(CorridorArgument, CORRIDOR_DEFAULT_KM),
});

/** The store query of a parsed search, with its route when it has one. */
export function routeQueryOf(input: SearchSitesRouteInput): SiteQuery {
  const { route, corridorKm, ...search } = input;
  if (corridorKm !== undefined && route === undefined) throw new ApiError("INVALID_ARGUMENTS", "corridorKm needs route");
  const query = siteQueryOf(search as SearchInput);
  if (route && (query.updatedSince !== undefined || query.cursor !== undefined)) {
    throw new ApiError("INVALID_ARGUMENTS", "a route search takes neither updatedSince nor cursor: it is ordered along the route and paged by offset");
  }
  if (route) query.route = { points: route, corridorKm: corridorKm ?? CORRIDOR_DEFAULT_KM };
  return query;
}

const searchEntries = v.omit(SitesQuery, ["near", "radiusKm", "updatedSince", "cursor"]).entries;

/** The query of `GET /api/v1/route`: the search's parameters, a route (polyline or geojson) and corridorKm. */
export const RouteQuery = v.object({
  polyline: v.optional(v.pipe(v.string(), v.description("The route as an encoded polyline (Google's algorithm, precision 5), percent-encoded"))),
  geojson: v.optional(v.pipe(v.string(), v.description("The route as a GeoJSON LineString, JSON text, percent-encoded"))),
  // Declared as the number it is (queryNumber), so a generated client types it so; its range is
  // checked with the route search's input, as before.
  corridorKm: v.optional(
    queryNumber(v.pipe(v.number(), v.description(CORRIDOR_HELP)), "corridorKm must be a plain decimal number (km, more than 0, e.g. 5)"),
  ),
  ...searchEntries,
});

/** The `geojson` parameter's JSON (its shape is checked as the route's). */
function parsedGeoJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("INVALID_ARGUMENTS", "geojson must be JSON text: a GeoJSON LineString, percent-encoded");
  }
}

/** A route query mapped onto the route search's input (still to be parsed by `RouteSearchInput`). */
export function routeOfQuery(query: v.InferOutput<typeof RouteQuery>): Record<string, unknown> {
  const { polyline, geojson, corridorKm, ...search } = query;
  if ((polyline === undefined) === (geojson === undefined)) {
    throw new ApiError("INVALID_ARGUMENTS", "give the route as exactly one of polyline (encoded) or geojson (a LineString)");
  }
  const input = searchOfQuery(search);
  input.route = polyline ?? parsedGeoJson(geojson as string);
  if (corridorKm !== undefined) input.corridorKm = corridorKm;
  return input;
}


