/**
 * The REST routes: five fixed paths, matched by prefix (a route table library would cost
 * more per request than the matching itself). Ids arrive percent-encoded (`ocm%3A123`,
 * `osm%3Anode%2F123`) or decoded (`osm:node/123`); both reach the same lookup.
 * A known path with a method it does not serve answers 405 METHOD_NOT_ALLOWED with `allow`.
 * The dataset never changes while serving, so successful search answers are kept serialised
 * per exact query string (bounded LRU): a repeated map-tile query costs no search,
 * no validation and no serialisation.
 * @module
 */
import { STAGE } from "../shared/build-info.ts";
import { ApiError, errorResponse } from "../shared/errors.ts";
import { Lru } from "../shared/http/lru.ts";
import { json, type PreparedJson, preparedJson } from "../shared/http/respond.ts";
import { createAnswers } from "./answers.ts";
import { parseSitesQuery } from "./query.ts";
import type { ChargingServices } from "./services.ts";

/** Search answers kept (text and bytes of at most 100 sites each: well under 50 MB). */
const ANSWER_CACHE_ENTRIES = 128;

// 20 digits hold any OCM or OSM id (both under 2^64); a longer number is echoed clipped.
const ID_SHAPE = /^(ocm:\d{1,20}|osm:(node|way|relation)\/\d{1,20})$/;

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

const methodNotAllowed = () =>
  errorResponse("METHOD_NOT_ALLOWED", "This route answers GET and HEAD only", { allow: "GET, HEAD" });

type Target = { kind: "health" | "sites" } | { kind: "site" | "status"; id: string };

const SITE_PREFIX = "/api/v1/sites/";
const STATUS_PREFIX = "/api/v1/status/";

function targetOf(path: string): Target | undefined {
  if (path === "/healthz") return { kind: "health" };
  if (path === "/api/v1/sites" || path === SITE_PREFIX) return { kind: "sites" };
  if (path.startsWith(SITE_PREFIX)) return { kind: "site", id: path.slice(SITE_PREFIX.length) };
  if (path.startsWith(STATUS_PREFIX) && path.length > STATUS_PREFIX.length) {
    return { kind: "status", id: path.slice(STATUS_PREFIX.length) };
  }
  return undefined;
}

/** Routes one request: a response, or undefined when no route has that path. */
export type Routes = (request: Request, url: URL) => Promise<Response> | Response | undefined;

/** Builds the routes; `mcp` serves `/mcp` for every method (it answers 405 itself). */
export function chargingRoutes(
  services: ChargingServices,
  mcp: (request: Request) => Promise<Response>,
): Routes {
  const { store, status } = services;
  const render = createAnswers(store);
  const answers = new Lru<string, PreparedJson>(ANSWER_CACHE_ENTRIES);

  const sites = async (search: string): Promise<Response> => {
    const cached = answers.get(search);
    if (cached) return preparedJson(cached);
    const query = parseSitesQuery(new URLSearchParams(search));
    const { data, total, attribution } = await store.search(query);
    const prepared = render.sites(data, { limit: query.limit, offset: query.offset, total }, attribution);
    answers.set(search, prepared);
    return preparedJson(prepared);
  };

  const site = (raw: string): Response => {
    const id = siteIdOf(raw);
    const found = store.get(id);
    if (!found) throw notFound(id);
    return preparedJson(render.site(found));
  };

  return (request, url) => {
    if (url.pathname === "/mcp") return mcp(request);
    const target = targetOf(url.pathname);
    if (target === undefined) return undefined;
    if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed();
    switch (target.kind) {
      case "health":
        return json({ ok: true, stage: STAGE });
      case "sites":
        return sites(url.search);
      case "site":
        return site(target.id);
      case "status": {
        const id = siteIdOf(target.id);
        if (!store.get(id)) throw notFound(id);
        return status.statusOf(id, request.signal).then((record) => json({ data: record }));
      }
    }
  };
}
