/**
 * The REST routes, as one table (`chargingRouteTable`): adding a route is one line there.
 * Ids arrive percent-encoded (`ocm%3A123`, `osm%3Anode%2F123`) or decoded (`osm:node/123`);
 * both reach the same lookup.
 *
 * The data is a static cut, so site answers are cacheable (see `cacheable.ts`): an entity
 * tag per cut and URL, `if-none-match` answered 304, `cache-control` for a static cut, and
 * compression as the client accepts. Successful search answers are kept serialised per exact
 * query string and format (bounded LRU): a repeated map-tile query costs no search, no
 * validation and no serialisation. Status records follow a clock and a live feed: no-cache.
 * @module
 */
import { STAGE } from "../shared/build-info.ts";
import { ApiError } from "../shared/errors.ts";
import { Lru } from "./lru.ts";
import { json, type PreparedJson, prepareJson } from "../shared/http/respond.ts";
import type { Route } from "../shared/http/route-table.ts";
import { type Answers, createAnswers } from "./answers.ts";
import { type Cacheable, createCacheable } from "./cacheable.ts";
import { type AnswerFormat, parseSiteQuery, parseSitesQuery, parseStatusQuery } from "./query.ts";
import type { ChargingServices } from "./services.ts";
import { siteIdOf } from "./site-id.ts";

/** Search answers kept (text and bytes of at most 100 sites each: well under 50 MB). */
const ANSWER_CACHE_ENTRIES = 128;

const GEOJSON_TYPE = "application/geo+json";

function notFound(id: string): ApiError {
  return new ApiError(
    "NOT_FOUND",
    `No open site has id "${id}"; it is unknown or closed. Search with GET /api/v1/sites first`,
  );
}

/** `format` wins; else `Accept: application/geo+json` asks for GeoJSON. */
function formatOf(asked: AnswerFormat | undefined, request: Request): AnswerFormat {
  if (asked) return asked;
  return request.headers.get("accept")?.includes(GEOJSON_TYPE) ? "geojson" : "json";
}

const typeOf = (format: AnswerFormat) => (format === "geojson" ? GEOJSON_TYPE : undefined);

export interface RouteOptions {
  /** `cache-control` of cacheable answers (the handler makes it private when a key gate is on). */
  cacheControl: string;
  /** Encodings offered for compression, preferred first. */
  encodings: Parameters<typeof createCacheable>[0]["encodings"];
  /** The OpenAPI document, served at /api/v1/openapi.json. */
  openApi: Record<string, unknown>;
}

/** The answers of the REST routes over one store; search answers are kept in `cache`. */
class RestAnswers {
  readonly #services: ChargingServices;
  readonly #render: Answers;
  readonly #cache = new Lru<string, PreparedJson>(ANSWER_CACHE_ENTRIES);
  readonly cacheable: Cacheable;
  readonly openApi: PreparedJson;

  constructor(services: ChargingServices, options: RouteOptions) {
    this.#services = services;
    this.#render = createAnswers(services.store);
    this.cacheable = createCacheable({ ...options, version: services.store.version });
    this.openApi = prepareJson(options.openApi);
  }

  async sites(request: Request, search: string): Promise<Response> {
    const params = new URLSearchParams(search);
    const asked = params.get("format") as AnswerFormat | null;
    const format = formatOf(asked === "json" || asked === "geojson" ? asked : undefined, request);
    const key = `sites:${format}:${search}`;
    let prepared = this.#cache.get(key);
    if (!prepared) {
      const { format: _format, ...query } = parseSitesQuery(params);
      const { data, total, attribution } = await this.#services.store.search(query);
      const page = { limit: query.limit, offset: query.offset, total };
      const render = this.#render;
      prepared = format === "geojson" ? render.sitesGeo(data, page, attribution) : render.sites(data, page, attribution);
      this.#cache.set(key, prepared);
    }
    return this.cacheable(request, key, prepared, typeOf(format));
  }

  site(request: Request, raw: string | undefined, search: string): Promise<Response> {
    const format = formatOf(parseSiteQuery(new URLSearchParams(search)), request);
    const id = siteIdOf(raw);
    const found = this.#services.store.get(id);
    if (!found) throw notFound(id);
    const prepared = format === "geojson" ? this.#render.siteGeo(found) : this.#render.site(found);
    return this.cacheable(request, `site:${format}:${id}`, prepared, typeOf(format));
  }

  async status(request: Request, raw: string | undefined, search: string): Promise<Response> {
    parseStatusQuery(new URLSearchParams(search));
    const id = siteIdOf(raw);
    if (!this.#services.store.get(id)) throw notFound(id);
    const record = await this.#services.status.statusOf(id, request.signal);
    return json({ data: record }, { headers: { "cache-control": "no-cache" } });
  }
}

const health = () => json({ ok: true, stage: STAGE }, { headers: { "cache-control": "no-store" } });

/**
 * Every route of the API, in matching order; the context is the request's parsed URL.
 * `mcp` serves `/mcp` for every method (it answers 405 itself).
 */
export function chargingRouteTable(
  services: ChargingServices,
  mcp: (request: Request) => Promise<Response>,
  options: RouteOptions,
): Route<URL>[] {
  const rest = new RestAnswers(services, options);
  return [
    { method: "GET", path: "/healthz", handle: health, open: true },
    { method: "GET", path: "/api/v1/sites", handle: (r, _, url) => rest.sites(r, url.search) },
    { method: "GET", path: "/api/v1/sites/", handle: (r, _, url) => rest.sites(r, url.search) },
    { method: "GET", path: "/api/v1/sites/:id+", handle: (r, p, url) => rest.site(r, p.id, url.search) },
    { method: "GET", path: "/api/v1/status/:id+", handle: (r, p, url) => rest.status(r, p.id, url.search) },
    { method: "GET", path: "/api/v1/openapi.json", handle: (r) => rest.cacheable(r, "openapi", rest.openApi), open: true },
    { method: "POST", path: "/mcp", handle: mcp, everyMethod: true },
  ];
}
