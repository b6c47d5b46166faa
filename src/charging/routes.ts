/**
 * The REST routes, as an itty-router table. Ids arrive percent-encoded (`ocm%3A123`,
 * `osm%3Anode%2F123`) or decoded (`osm:node/123`); both reach the same lookup.
 * A known path with a method it does not serve answers 405 METHOD_NOT_ALLOWED with `allow`.
 * The dataset never changes while serving, so successful search answers are kept serialised
 * per exact query string (bounded LRU): a repeated map-tile query costs no search,
 * no validation and no serialisation.
 * @module
 */
import { Router } from "../../deps.ts";
import { STAGE } from "../shared/build-info.ts";
import { ApiError, errorResponse } from "../shared/errors.ts";
import { Lru } from "../shared/http/lru.ts";
import { json, type PreparedJson, preparedJson } from "../shared/http/respond.ts";
import { createAnswers } from "./answers.ts";
import { parseSitesQuery } from "./query.ts";
import type { ChargingServices } from "./services.ts";

type RoutedRequest = Request & { params: Record<string, string> };
type Route = (request: RoutedRequest) => Promise<Response> | Response;

/** Search answers kept (text and bytes of at most 100 sites each: well under 50 MB). */
const ANSWER_CACHE_ENTRIES = 128;

const ID_SHAPE = /^(ocm:\d+|osm:(node|way|relation)\/\d+)$/;

/** The site id in a route's `id` parameter; NOT_FOUND when it cannot be one. */
export function siteIdOf(raw: string | undefined): string {
  let id: string;
  try {
    id = decodeURIComponent(raw ?? "");
  } catch {
    id = raw ?? "";
  }
  if (!ID_SHAPE.test(id)) {
    throw new ApiError(
      "NOT_FOUND",
      `No site has id "${id.slice(0, 100)}"; ids look like ocm:123, osm:node/123 or osm:way/123 (colon sent as %3A). Search with GET /api/v1/sites first`,
    );
  }
  return id;
}

function notFound(id: string): ApiError {
  return new ApiError(
    "NOT_FOUND",
    `No open site has id "${id}"; it is unknown or closed. Search with GET /api/v1/sites first`,
  );
}

const methodNotAllowed = (allow: string) => () =>
  errorResponse("METHOD_NOT_ALLOWED", `This route answers ${allow} only`, { allow });

/** Builds the route table; `mcp` serves `/mcp` for every method (it answers 405 itself). */
export function chargingRoutes(services: ChargingServices, mcp: (request: Request) => Promise<Response>) {
  const { store, status } = services;
  const router = Router<RoutedRequest, [], Response>();
  const readOnly = (path: string, route: Route) => {
    router.get(path, route);
    router.head(path, route);
    router.all(path, methodNotAllowed("GET, HEAD"));
  };

  readOnly("/healthz", () => json({ ok: true, stage: STAGE }));
  const render = createAnswers(store);
  const answers = new Lru<string, PreparedJson>(ANSWER_CACHE_ENTRIES);
  readOnly("/api/v1/sites", (request) => {
    const search = new URL(request.url).search;
    const cached = answers.get(search);
    if (cached) return preparedJson(cached);
    const query = parseSitesQuery(new URLSearchParams(search));
    const { data, total, attribution } = store.search(query);
    const prepared = render.sites(data, { limit: query.limit, offset: query.offset, total }, attribution);
    answers.set(search, prepared);
    return preparedJson(prepared);
  });
  readOnly("/api/v1/sites/:id+", (request) => {
    const id = siteIdOf(request.params.id);
    const site = store.get(id);
    if (!site) throw notFound(id);
    return preparedJson(render.site(site));
  });
  readOnly("/api/v1/status/:id+", async (request) => {
    const id = siteIdOf(request.params.id);
    return json({ data: await status.statusOf(id, request.signal) });
  });
  router.all("/mcp", mcp);
  return router;
}
