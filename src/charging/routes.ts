/**
 * The REST routes: six fixed paths, matched by prefix (a route table library would cost
 * more per request than the matching itself). Ids arrive percent-encoded (`ocm%3A123`,
 * `osm%3Anode%2F123`) or decoded (`osm:node/123`); both reach the same lookup.
 * A known path with a method it does not serve answers 405 METHOD_NOT_ALLOWED with `allow`.
 *
 * The data is a static cut, so site answers are cacheable (see `cacheable.ts`): an entity
 * tag per cut and URL, `if-none-match` answered 304, `cache-control` for a static cut, and
 * compression as the client accepts. Successful search answers are kept serialised per exact
 * query string and format (bounded LRU): a repeated map-tile query costs no search, no
 * validation and no serialisation. Status records follow a clock and a live feed: no-cache.
 * @module
 */
import { STAGE } from "../shared/build-info.ts";
import { ApiError, errorResponse } from "../shared/errors.ts";
import { Lru } from "../shared/http/lru.ts";
import { json, type PreparedJson, prepareJson } from "../shared/http/respond.ts";
import { createAnswers } from "./answers.ts";
import { type Cacheable, createCacheable } from "./cacheable.ts";
import { type AnswerFormat, parseSiteQuery, parseSitesQuery, parseStatusQuery } from "./query.ts";
import type { ChargingServices } from "./services.ts";
import { siteIdOf } from "./site-id.ts";

export { siteIdOf };

/** Search answers kept (text and bytes of at most 100 sites each: well under 50 MB). */
const ANSWER_CACHE_ENTRIES = 128;

export const GEOJSON_TYPE = "application/geo+json";

function notFound(id: string): ApiError {
  return new ApiError(
    "NOT_FOUND",
    `No open site has id "${id}"; it is unknown or closed. Search with GET /api/v1/sites first`,
  );
}

const methodNotAllowed = () =>
  errorResponse("METHOD_NOT_ALLOWED", "This route answers GET and HEAD only", { allow: "GET, HEAD" });

type Target = { kind: "health" | "sites" | "openapi" } | { kind: "site" | "status"; id: string };

const SITE_PREFIX = "/api/v1/sites/";
const STATUS_PREFIX = "/api/v1/status/";
export const OPENAPI_PATH = "/api/v1/openapi.json";

function targetOf(path: string): Target | undefined {
  if (path === "/healthz") return { kind: "health" };
  if (path === "/api/v1/sites" || path === SITE_PREFIX) return { kind: "sites" };
  if (path === OPENAPI_PATH) return { kind: "openapi" };
  if (path.startsWith(SITE_PREFIX)) return { kind: "site", id: path.slice(SITE_PREFIX.length) };
  if (path.startsWith(STATUS_PREFIX) && path.length > STATUS_PREFIX.length) {
    return { kind: "status", id: path.slice(STATUS_PREFIX.length) };
  }
  return undefined;
}

/** `format` wins; else `Accept: application/geo+json` asks for GeoJSON. */
function formatOf(asked: AnswerFormat | undefined, request: Request): AnswerFormat {
  if (asked) return asked;
  return request.headers.get("accept")?.includes(GEOJSON_TYPE) ? "geojson" : "json";
}

/** Routes one request: a response, or undefined when no route has that path. */
export type Routes = (request: Request, url: URL) => Promise<Response> | Response | undefined;

export interface RouteOptions {
  /** `cache-control` of cacheable answers (the handler makes it private when a key gate is on). */
  cacheControl: string;
  /** Encodings offered for compression, preferred first. */
  encodings: Parameters<typeof createCacheable>[0]["encodings"];
  /** The OpenAPI document, served at /api/v1/openapi.json. */
  openApi: Record<string, unknown>;
}

/** Builds the routes; `mcp` serves `/mcp` for every method (it answers 405 itself). */
export function chargingRoutes(
  services: ChargingServices,
  mcp: (request: Request) => Promise<Response>,
  options: RouteOptions,
): Routes {
  const { store, status } = services;
  const render = createAnswers(store);
  const answers = new Lru<string, PreparedJson>(ANSWER_CACHE_ENTRIES);
  const cacheable: Cacheable = createCacheable({ ...options, version: store.version });
  const openApi = prepareJson(options.openApi);

  const sites = async (request: Request, search: string): Promise<Response> => {
    const params = new URLSearchParams(search);
    const asked = params.get("format") as AnswerFormat | null;
    const format = formatOf(asked === "json" || asked === "geojson" ? asked : undefined, request);
    const key = `sites:${format}:${search}`;
    let prepared = answers.get(key);
    if (!prepared) {
      const { format: _format, ...query } = parseSitesQuery(params);
      const { data, total, attribution } = await store.search(query);
      const page = { limit: query.limit, offset: query.offset, total };
      prepared = format === "geojson" ? render.sitesGeo(data, page, attribution) : render.sites(data, page, attribution);
      answers.set(key, prepared);
    }
    return cacheable(request, key, prepared, format === "geojson" ? GEOJSON_TYPE : undefined);
  };

  const site = (request: Request, raw: string, search: string): Promise<Response> => {
    const format = formatOf(parseSiteQuery(new URLSearchParams(search)), request);
    const id = siteIdOf(raw);
    const found = store.get(id);
    if (!found) throw notFound(id);
    const prepared = format === "geojson" ? render.siteGeo(found) : render.site(found);
    return cacheable(request, `site:${format}:${id}`, prepared, format === "geojson" ? GEOJSON_TYPE : undefined);
  };

  const statusOf = async (request: Request, raw: string, search: string): Promise<Response> => {
    parseStatusQuery(new URLSearchParams(search));
    const id = siteIdOf(raw);
    if (!store.get(id)) throw notFound(id);
    const record = await status.statusOf(id, request.signal);
    return json({ data: record }, { headers: { "cache-control": "no-cache" } });
  };

  return (request, url) => {
    if (url.pathname === "/mcp") return mcp(request);
    const target = targetOf(url.pathname);
    if (target === undefined) return undefined;
    if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed();
    switch (target.kind) {
      case "health":
        return json({ ok: true, stage: STAGE }, { headers: { "cache-control": "no-store" } });
      case "openapi":
        return cacheable(request, "openapi", openApi);
      case "sites":
        return sites(request, url.search);
      case "site":
        return site(request, target.id, url.search);
      case "status":
        return statusOf(request, target.id, url.search);
    }
  };
}
