/**
 * The REST routes: one per operation with a REST face (the query parsed by its syntax schema,
 * mapped onto the operation's input and parsed by the same schema MCP uses), and the OpenAPI
 * document's answer (the service kernel, src/shared/service.ts, adds liveness and /mcp). Ids
 * arrive percent-encoded (`ocm%3A123`, `osm%3Anode%2F123`) or decoded (`osm:node/123`); both
 * reach the same lookup.
 *
 * The data is a static cut, so site answers are cacheable (see `cacheable.ts`): an entity
 * tag per cut and URL, `if-none-match` answered 304, `cache-control` for a static cut, and
 * compression as the client accepts. Successful search answers are kept serialised per exact
 * query string and format (bounded LRU) from the query's second request on (second-sight.ts):
 * a repeated map-tile query then costs no search, no validation and no serialisation, and a
 * map pan's one-off box is not kept. Status records follow a clock and a live feed: no-cache.
 * @module
 */
import { ApiError, isApiError } from "../../../shared/errors.ts";
import { parseQuery } from "../../../shared/http/query.ts";
import { restInput } from "../../../shared/http/rest-face.ts";
import { json, type PreparedJson, prepareJson, preparedJson } from "../../../shared/http/respond.ts";
import type { Route } from "../../../shared/http/route-table.ts";
import { parseArguments } from "../../../shared/validate.ts";
import { type Answers, createAnswers } from "./answers.ts";
import { type Cacheable, createCacheable } from "./cacheable.ts";
import { createSecondSight } from "./second-sight.ts";
import { Lru } from "../../../shared/lru.ts";
import type { AnswerFormat } from "../../operations/rest-queries.ts";
import { type Operation, OPERATIONS, type RestFace, type SearchRun, type SiteRun } from "../../operations/table.ts";
import type { ChargingServices } from "../../services.ts";

/** Search answers kept (text and bytes of at most 100 sites each: well under 50 MB). */
const ANSWER_CACHE_ENTRIES = 128;

const GEOJSON_TYPE = "application/geo+json";

/**
 * A sync page (`updatedSince`, `cursor`) is read once by its client: kept, it would only push
 * map pans' answers out and hold 100-site pages for the collector (a cursor sync at 1M sites
 * had its slowest pages in full collections).
 */
const readOnce = (url: URL) => url.searchParams.has("updatedSince") || url.searchParams.has("cursor");

/** A NOT_FOUND about an id, with where to find one. */
function withAdvice(err: unknown): unknown {
  if (!isApiError(err, "NOT_FOUND")) return err;
  return new ApiError("NOT_FOUND", `${err.message}. Search with GET /api/v1/sites first`);
}

/** A request's JSON body; INVALID_ARGUMENTS when it is missing or no JSON. */
async function jsonBodyOf(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") throw new ApiError("INVALID_ARGUMENTS", "POST needs a JSON body with the arguments, e.g. {\"route\": \"<polyline>\"}");
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("INVALID_ARGUMENTS", "The body must be JSON (content-type: application/json)");
  }
}

/** `format` wins; else `Accept: application/geo+json` asks for GeoJSON. */
function formatOf(asked: unknown, request: Request): AnswerFormat {
  if (asked === "json" || asked === "geojson") return asked;
  return request.headers.get("accept")?.includes(GEOJSON_TYPE) ? "geojson" : "json";
}

interface RouteOptions {
  /** `cache-control` of cacheable answers (the handler makes it private when a key gate is on). */
  cacheControl: string;
  /** Encodings offered for compression, preferred first. */
  encodings: Parameters<typeof createCacheable>[0]["encodings"];
  /** How answers are compressed (default `CompressionStream`). */
  compress?: Parameters<typeof createCacheable>[0]["compress"];
  /** The OpenAPI document of these routes, served at /api/v1/openapi.json. */
  openApi: (routes: readonly Route<URL>[]) => Record<string, unknown>;
}

type Params = Readonly<Record<string, string>>;

/** The REST answers over one store; search answers are kept in `#kept`. */
class RestAnswers {
  readonly #services: ChargingServices;
  readonly #render: Answers;
  readonly #kept = new Lru<string, PreparedJson>(ANSWER_CACHE_ENTRIES);
  readonly #askedBefore = createSecondSight();
  readonly cacheable: Cacheable;

  constructor(services: ChargingServices, options: RouteOptions) {
    this.#services = services;
    this.#render = createAnswers(services.store);
    const { version, header } = services.store;
    this.cacheable = createCacheable({ ...options, version, lastModified: header.importedAt });
  }

  /** The operation's result for this request: the query and path read, mapped and parsed. */
  async #run(operation: Operation, rest: RestFace, request: Request, params: Params, url: URL) {
    const input = parseArguments(rest.input ?? operation.input, restInput(rest, url, params));
    try {
      return (await operation.run(this.#services, input, request.signal)) as unknown;
    } catch (err) {
      throw withAdvice(err);
    }
  }

  /**
   * Answers of the static cut: a search kept serialised per query string (a hit costs no
   * parse, no search and no serialisation), a site rendered from its kept parts.
   */
  async cut(operation: Operation, rest: RestFace, request: Request, params: Params, url: URL): Promise<Response> {
    // Answers without a GeoJSON form (reference, dataset) are the operation's JSON answer as it is.
    const plain = !rest.answer.alternatives;
    const format = plain ? "json" : formatOf(url.searchParams.get("format"), request);
    const perQuery = rest.keeping === "per-query";
    const keep = perQuery && !readOnce(url);
    let key = `${operation.name}:${format}:${url.search}`;
    let prepared = keep ? this.#kept.get(key) : undefined;
    if (!prepared) {
      const result = await this.#run(operation, rest, request, params, url);
      prepared = plain ? prepareJson(operation.answer(result)) : this.#prepare(result as SearchRun | SiteRun, format, perQuery && !keep);
      if (keep) {
        if (this.#askedBefore(key)) this.#kept.set(key, prepared);
      } else if (!perQuery) key = `${operation.name}:${format}:${plain ? "" : (result as SiteRun).site.id}`;
    }
    return this.cacheable(request, key, prepared, format === "geojson" ? GEOJSON_TYPE : undefined);
  }

  /**
   * `POST <path>`: the operation's input as a JSON body (the body cap has applied). Answers
   * are not kept: a body is no cache key, and a client posts a route once.
   */
  async posted(operation: Operation, post: NonNullable<RestFace["post"]>, request: Request, url: URL): Promise<Response> {
    const query = parseQuery(post.query, url.searchParams) as { format?: unknown };
    const format = formatOf(query.format, request);
    const input = parseArguments(post.body, await jsonBodyOf(request));
    const result = (await operation.run(this.#services, input, request.signal)) as SearchRun;
    const headers: Record<string, string> = { "cache-control": "no-store" };
    if (format === "geojson") headers["content-type"] = GEOJSON_TYPE;
    return preparedJson(this.#prepare(result, format), { headers });
  }

  async live(operation: Operation, rest: RestFace, request: Request, params: Params, url: URL): Promise<Response> {
    const result = await this.#run(operation, rest, request, params, url);
    return json(operation.answer(result), { headers: { "cache-control": "no-cache" } });
  }

  /** `once`: a sync page, read once by its client (see `readOnce`). */
  #prepare(run: SearchRun | SiteRun, format: AnswerFormat, once = false): PreparedJson {
    const render = this.#render;
    if ("site" in run) return format === "geojson" ? render.siteGeo(run.site) : render.site(run.site);
    const { data, total, attribution } = run.result;
    const { nextCursor } = run.result;
    const page = { limit: run.input.limit, offset: run.input.offset, total, ...(nextCursor ? { nextCursor } : {}) };
    return format === "geojson" ? render.sitesGeo(data, page, attribution) : render.sites(data, page, attribution, once);
  }
}

function restRoutes(rest: RestAnswers): Route<URL>[] {
  return OPERATIONS.flatMap((operation) => {
    const face = operation.rest;
    if (!face) return [];
    const answer = face.keeping === "live" ? rest.live.bind(rest) : rest.cut.bind(rest);
    const route: Route<URL> = { method: "GET", path: face.path, handle: (r, p, url) => answer(operation, face, r, p, url) };
    const routes = [route];
    const { post } = face;
    if (post) routes.push({ method: "POST", path: face.path, handle: (r, _p, url) => rest.posted(operation, post, r, url) });
    // The search is also found with a trailing slash (as it always was).
    if (face.path === "/api/v1/sites") routes.push({ ...route, path: `${face.path}/` });
    return routes;
  });
}

/**
 * The operations' REST rows (in matching order; the context is the request's parsed URL) and
 * the answer of the OpenAPI document over the whole table, kept with its entity tag.
 */
export function chargingRest(services: ChargingServices, options: RouteOptions) {
  const rest = new RestAnswers(services, options);
  const document = (routes: readonly Route<URL>[]) => {
    let openApi: PreparedJson | undefined;
    return (request: Request) => {
      openApi ??= prepareJson(options.openApi(routes));
      return rest.cacheable(request, "openapi", openApi);
    };
  };
  return { operations: restRoutes(rest), document };
}
