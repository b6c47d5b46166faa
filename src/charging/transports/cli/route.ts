/**
 * `charging route`: a search along a route, given as `--polyline` (encoded) or `--geojson FILE`
 * (a LineString), with `--corridor-km` and the search's filters. The flags are read into the
 * route query exactly as the server reads `GET /api/v1/route` (same schema, same refusals), and
 * the request is always the POST form, so a route of any length (up to the body cap) fits.
 * @module
 */
import { isApiError, messageOf } from "../../../shared/errors.ts";
import { type OptionSpec, usage } from "../../../shared/cli/args.ts";
import { parseQuery } from "../../../shared/http/query.ts";
import { RouteQuery, routeOfQuery } from "../../operations/route-search.ts";
import { answerError, PARAM } from "./answer-error.ts";

/** The search's flags that make no sense along a route: a route orders by distance along it. */
const NOT_ALONG = new Set(["near", "radius", "updated-since", "cursor"]);

/** Query parameter of each route flag. */
const ROUTE_PARAM: Readonly<Record<string, string>> = {
  polyline: "polyline",
  geojson: "geojson",
  "corridor-km": "corridorKm",
  ...Object.fromEntries(Object.entries(PARAM).filter(([flag]) => !NOT_ALONG.has(flag))),
};

export const ROUTE_OPTIONS: Record<string, OptionSpec> = Object.fromEntries(
  Object.keys(ROUTE_PARAM).map((flag) => [flag, { value: flag !== "open-only" }]),
);

interface RouteRequest {
  command: "route";
  path: string;
  init: RequestInit;
}

/** The POST request of `charging route` (reads the --geojson file with `readText`). */
export async function routeRequest(
  positionals: readonly string[],
  options: Record<string, string | true>,
  readText: (path: string) => Promise<string>,
): Promise<RouteRequest> {
  if (positionals.length > 0) throw usage(`route takes no arguments (got "${positionals[0]}"); give the route as --polyline TEXT or --geojson FILE`);
  if (typeof options.geojson === "string") {
    try {
      options.geojson = await readText(options.geojson);
    } catch (err) {
      throw usage(`cannot read --geojson ${options.geojson}: ${messageOf(err)}`);
    }
  }
  const params = new URLSearchParams();
  for (const [flag, param] of Object.entries(ROUTE_PARAM)) {
    const value = options[flag];
    if (value !== undefined) params.set(param, value === true ? "true" : value);
  }
  let body: Record<string, unknown>;
  try {
    body = routeOfQuery(parseQuery(RouteQuery, params));
  } catch (err) {
    if (!isApiError(err)) throw err;
    throw answerError({ command: "route" }, 400, err);
  }
  return {
    command: "route",
    path: "/api/v1/route",
    init: { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
  };
}
