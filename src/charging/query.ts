/**
 * The query string of `GET /api/v1/sites`, validated at the edge. Rules beyond the spec's
 * table (see API.md): every parameter at most once, unknown names refused (a typo such as
 * `minpower` must not silently widen a search), empty values refused, numbers written in
 * plain decimal (no NaN, Infinity, hex or exponents), `openOnly` exactly `true` or `false`,
 * bbox inside WGS84 ranges with minLat <= maxLat; minLon > maxLon is a box across the
 * antimeridian (e.g. 170,-20,-170,-10 around Fiji).
 * @module
 */
import { v } from "../../deps.ts";
import { ApiError } from "../shared/errors.ts";
import type { SiteQuery } from "./store.ts";

export const LIMIT_MIN = 1;
export const LIMIT_MAX = 100;
export const LIMIT_DEFAULT = 20;
export const OFFSET_MAX = 100_000;
export const CONNECTOR_MAX = 64;
export const RADIUS_MAX_KM = 500;
export const RADIUS_DEFAULT_KM = 10;

/** What a search asks the store for. */
export type SearchInput = SiteQuery;

const DECIMAL = /^-?\d+(\.\d+)?$/;
const INTEGER = /^\d+$/;
const DECIMAL_LIST = /^-?\d+(\.\d+)?(,-?\d+(\.\d+)?)*$/;

const decimal = (name: string, rule: string) =>
  v.pipe(
    v.string(),
    v.regex(DECIMAL, `${name} must be a plain decimal number (${rule})`),
    v.transform(Number),
  );

const integer = (name: string, min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(INTEGER, `${name} must be an integer from ${min} to ${max}`),
    v.transform(Number),
    v.minValue(min, `${name} must be an integer from ${min} to ${max}`),
    v.maxValue(max, `${name} must be an integer from ${min} to ${max}`),
  );

const numberList = (name: string, count: number, format: string) =>
  v.pipe(
    v.string(),
    v.regex(DECIMAL_LIST, `${name} must be ${count} comma-separated decimal numbers: ${format}`),
    v.transform((text) => text.split(",").map(Number)),
    v.check(
      (list) => list.length === count,
      `${name} must be ${count} comma-separated decimal numbers: ${format}`,
    ),
  );

const inRange = (lon: number, lat: number) => Math.abs(lon) <= 180 && Math.abs(lat) <= 90;

const BBOX_FORMAT = "minLon,minLat,maxLon,maxLat";

/** `format=geojson` answers a GeoJSON FeatureCollection (as `Accept: application/geo+json` does). */
const FormatSchema = v.optional(
  v.pipe(
    v.picklist(["json", "geojson"], "format must be json or geojson"),
    v.description("json (default) or geojson: a FeatureCollection, as Accept: application/geo+json gives"),
  ),
);

/** The query of `GET /api/v1/sites`: validates requests and generates the OpenAPI parameters. */
export const SitesQuerySchema = v.object({
  bbox: v.optional(
    v.pipe(
      numberList("bbox", 4, BBOX_FORMAT),
      v.check(
        ([w, s, e, n]) => inRange(w as number, s as number) && inRange(e as number, n as number),
        "bbox longitudes must be within -180..180 and latitudes within -90..90",
      ),
      v.check(
        ([, s, , n]) => (s as number) <= (n as number),
        "bbox minLat must not exceed maxLat (order: minLon,minLat,maxLon,maxLat)",
      ),
      v.transform((list) => list as [number, number, number, number]),
    ),
  ),
  connector: v.optional(
    v.pipe(
      v.string(),
      // A blank needle would match every label with a space in it: no filter at all.
      v.check((text) => text.trim() !== "", "connector must not be blank"),
      // Characters, not UTF-16 code units: "ü" and "🔌" count one each.
      v.check(
        (text) => [...text].length <= CONNECTOR_MAX,
        `connector must be at most ${CONNECTOR_MAX} characters`,
      ),
    ),
  ),
  minPower: v.optional(
    v.pipe(decimal("minPower", "kW, at least 0, e.g. 50"), v.minValue(0, "minPower must be at least 0 kW")),
  ),
  openOnly: v.optional(
    v.pipe(
      v.picklist(["true", "false"], "openOnly must be true or false"),
      v.transform((text) => text === "true"),
    ),
  ),
  near: v.optional(
    v.pipe(
      numberList("near", 2, "lat,lon"),
      v.check(
        ([lat, lon]) => inRange(lon as number, lat as number),
        "near must be lat within -90..90 and lon within -180..180",
      ),
    ),
  ),
  radiusKm: v.optional(
    v.pipe(
      decimal("radiusKm", `kilometres, more than 0 and at most ${RADIUS_MAX_KM}`),
      v.check(
        (km) => km > 0 && km <= RADIUS_MAX_KM,
        `radiusKm must be more than 0 and at most ${RADIUS_MAX_KM}`,
      ),
    ),
  ),
  limit: v.optional(integer("limit", LIMIT_MIN, LIMIT_MAX), String(LIMIT_DEFAULT)),
  offset: v.optional(integer("offset", 0, OFFSET_MAX), "0"),
  format: FormatSchema,
});

/** The query of `GET /api/v1/sites/:id`. */
export const SiteQuerySchema = v.strictObject({ format: FormatSchema }, (issue) =>
  issue.expected === "never" ? "this route takes only the format parameter" : issue.message,
);

/** `GET /api/v1/status/:id` takes no parameter (its record is JSON only). */
export const StatusQuerySchema = v.strictObject({}, (issue) =>
  issue.expected === "never" ? "this route takes no query parameters" : issue.message,
);

export type AnswerFormat = "json" | "geojson";

/** Every parameter `GET /api/v1/sites` understands. */
export const SITES_PARAMS: readonly string[] = Object.keys(SitesQuerySchema.entries);

function invalid(message: string): ApiError {
  return new ApiError("INVALID_ARGUMENTS", message);
}

/** The answer format the site route asks for (`format` parameter); throws INVALID_ARGUMENTS. */
export function parseSiteQuery(params: URLSearchParams): AnswerFormat | undefined {
  const raw = Object.fromEntries(params);
  if ([...params.keys()].length !== Object.keys(raw).length) throw invalid("format must be given at most once");
  const parsed = v.safeParse(SiteQuerySchema, raw);
  if (!parsed.success) throw invalid(parsed.issues.map((issue) => issue.message).join("; "));
  return parsed.output.format;
}

/** Refuses any query parameter on the status route (INVALID_ARGUMENTS). */
export function parseStatusQuery(params: URLSearchParams): void {
  const parsed = v.safeParse(StatusQuerySchema, Object.fromEntries(params));
  if (!parsed.success) throw invalid(parsed.issues.map((issue) => issue.message).join("; "));
}

/** Parses a sites query string into a store query; throws INVALID_ARGUMENTS naming the parameter and rule. */
export function parseSitesQuery(params: URLSearchParams): SearchInput & { format?: AnswerFormat } {
  const raw: Record<string, string> = {};
  for (const [name, value] of params) {
    if (!SITES_PARAMS.includes(name)) {
      throw invalid(`Unknown query parameter "${name.slice(0, 64)}"; known: ${SITES_PARAMS.join(", ")}`);
    }
    if (name in raw) throw invalid(`${name} must be given at most once`);
    if (value === "") throw invalid(`${name} must not be empty; leave it out to use the default`);
    raw[name] = value;
  }
  const parsed = v.safeParse(SitesQuerySchema, raw);
  if (!parsed.success) throw invalid(parsed.issues.map((issue) => issue.message).join("; "));
  const { near, radiusKm, ...rest } = parsed.output;
  if (radiusKm !== undefined && near === undefined) throw invalid("radiusKm needs near=lat,lon");
  const query: SearchInput & { format?: AnswerFormat } = stripUndefined(rest);
  if (near)
    query.near = { lat: near[0] as number, lon: near[1] as number, radiusKm: radiusKm ?? RADIUS_DEFAULT_KM };
  return query;
}

function stripUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}
