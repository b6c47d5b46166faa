/**
 * The charging server's environment, validated once at start-up. A bad value stops the
 * server with a message naming the variable and the rule (see API.md for the table).
 * @module
 */
import { v } from "../../deps.ts";
import { ApiError } from "../shared/errors.ts";
import { DEFAULT_MAX_BODY_BYTES } from "../shared/http/pipeline.ts";

/** Requests per minute and client when CHARGING_RATE_LIMIT is unset. */
export const DEFAULT_RATE_PER_MINUTE = 60;

export interface LiveFeedConfig {
  /** OCPI 2.2.1 Locations endpoint; the site id is appended URL-encoded. */
  baseUrl: string;
  token?: string;
  allowHosts: string[];
  allowAddresses: string[];
  timeoutMs: number;
}

export interface ChargingConfig {
  port: number;
  host: string;
  /** Dataset file; undefined means the embedded real data. */
  dataPath?: string;
  apiKeys: string[];
  corsOrigins: "*" | string[];
  trustedProxies: number;
  ratePerMinute: number;
  maxBodyBytes: number;
  /** Redis shared by every instance for the rate limit; undefined: counted per process. */
  redisUrl?: string;
  live?: LiveFeedConfig;
  /** The base map of the page at `/` (CHARGING_MAP_TILES); null: no base map, the sites on a plain background. */
  mapTiles: MapTiles | null;
}

/** Raster tiles behind the map page: a URL template with {z}, {x} and {y}, and their credit line. */
export interface MapTiles {
  url: string;
  attribution: { text: string; url?: string };
}

/** OpenStreetMap's own raster tiles, with the credit line its tile usage policy asks for. */
export const DEFAULT_MAP_TILES: MapTiles = {
  url: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
  attribution: { text: "© OpenStreetMap contributors", url: "https://www.openstreetmap.org/copyright" },
};

const list = (text: string) =>
  text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");

const int = (name: string, min: number, max: number, fallback: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, `${name} must be an integer from ${min} to ${max}`),
      v.transform(Number),
      v.minValue(min, `${name} must be an integer from ${min} to ${max}`),
      v.maxValue(max, `${name} must be an integer from ${min} to ${max}`),
    ),
    String(fallback),
  );

/** `text` as a URL with one of `protocols`; undefined for any other text. */
const urlWith = (text: string, protocols: readonly string[]) => {
  const url = URL.parse(text);
  return url && protocols.includes(url.protocol) ? url : undefined;
};
const HTTP = ["http:", "https:"];

const isOrigin = (text: string) => urlWith(text, HTTP)?.origin === text;
const isHttpUrl = (text: string) => urlWith(text, HTTP) !== undefined;
const isRedisUrl = (text: string) => Boolean(urlWith(text, ["redis:", "rediss:"])?.hostname);

/** An http(s) tile URL template: {z}, {x} and {y} in it, none in its host (the page's CSP names the host). */
const isTileTemplate = (text: string) => {
  const host = urlWith(text, HTTP)?.host;
  return ["{z}", "{x}", "{y}"].every((part) => text.includes(part)) && host !== undefined && !/[{}%]/.test(host);
};

const EnvSchema = v.object({
  PORT: int("PORT", 0, 65535, 8787),
  HOST: v.optional(v.pipe(v.string(), v.nonEmpty("HOST must not be empty")), "127.0.0.1"),
  CHARGING_DATA: v.optional(v.pipe(v.string(), v.nonEmpty("CHARGING_DATA must be a file path"))),
  CHARGING_API_KEYS: v.optional(
    v.pipe(
      v.string(),
      v.transform(list),
      v.minLength(1, "CHARGING_API_KEYS must hold at least one key (comma-separated)"),
      v.check(
        (keys) => keys.every((key) => key.length >= 16 && /^[\x21-\x7e]+$/.test(key)),
        "CHARGING_API_KEYS entries must be at least 16 printable characters without spaces",
      ),
    ),
  ),
  CHARGING_CORS_ORIGINS: v.optional(
    v.pipe(
      v.string(),
      v.transform((text): "*" | string[] => (text.trim() === "*" ? "*" : list(text))),
      v.check(
        (origins) => origins === "*" || (origins.length > 0 && origins.every(isOrigin)),
        "CHARGING_CORS_ORIGINS must be * or comma-separated origins such as https://map.example",
      ),
    ),
    "*",
  ),
  CHARGING_TRUST_PROXY: int("CHARGING_TRUST_PROXY", 0, 10, 0),
  CHARGING_RATE_LIMIT: int("CHARGING_RATE_LIMIT", 1, 1_000_000_000, DEFAULT_RATE_PER_MINUTE),
  CHARGING_MAX_BODY_BYTES: int("CHARGING_MAX_BODY_BYTES", 1024, 16_777_216, DEFAULT_MAX_BODY_BYTES),
  CHARGING_REDIS_URL: v.optional(
    v.pipe(
      v.string(),
      v.check(isRedisUrl, "CHARGING_REDIS_URL must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379"),
    ),
  ),
  CHARGING_LIVE_URL: v.optional(
    v.pipe(v.string(), v.check(isHttpUrl, "CHARGING_LIVE_URL must be an absolute http(s) URL")),
  ),
  CHARGING_LIVE_TOKEN: v.optional(v.string()),
  CHARGING_LIVE_ALLOW_HOSTS: v.optional(v.pipe(v.string(), v.transform(list))),
  CHARGING_LIVE_ALLOW_ADDRESSES: v.optional(v.pipe(v.string(), v.transform(list)), ""),
  CHARGING_LIVE_TIMEOUT_MS: int("CHARGING_LIVE_TIMEOUT_MS", 100, 60_000, 3000),
  CHARGING_MAP_TILES: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (text) => text === "off" || isTileTemplate(text),
        `CHARGING_MAP_TILES must be off or an http(s) URL template with {z}, {x} and {y}, such as ${DEFAULT_MAP_TILES.url}`,
      ),
    ),
  ),
  CHARGING_MAP_ATTRIBUTION: v.optional(
    v.pipe(v.string(), v.maxLength(300, "CHARGING_MAP_ATTRIBUTION must be at most 300 characters")),
  ),
});

/** The base map the page shows: OpenStreetMap's by default, another template, or none ("off"). */
function mapTilesOf(url: string | undefined, credit: string | undefined): MapTiles | null {
  if (url === "off") return null;
  const tiles = url ? { ...DEFAULT_MAP_TILES, url } : DEFAULT_MAP_TILES;
  return credit ? { ...tiles, attribution: { text: credit } } : tiles;
}

/** Reads and validates the environment; throws INVALID_CONFIG listing every problem. */
export function parseChargingEnv(env: Readonly<Record<string, string | undefined>>): ChargingConfig {
  const present = Object.fromEntries(
    Object.keys(EnvSchema.entries)
      .filter((name) => env[name] !== undefined && env[name] !== "")
      .map((name) => [name, env[name]]),
  );
  const parsed = v.safeParse(EnvSchema, present);
  if (!parsed.success) throw new ApiError("INVALID_CONFIG", parsed.issues.map((issue) => issue.message).join("; "));
  const e = parsed.output;
  const config: ChargingConfig = {
    port: e.PORT,
    host: e.HOST,
    apiKeys: e.CHARGING_API_KEYS ?? [],
    corsOrigins: e.CHARGING_CORS_ORIGINS,
    trustedProxies: e.CHARGING_TRUST_PROXY,
    ratePerMinute: e.CHARGING_RATE_LIMIT,
    maxBodyBytes: e.CHARGING_MAX_BODY_BYTES,
    mapTiles: mapTilesOf(e.CHARGING_MAP_TILES, e.CHARGING_MAP_ATTRIBUTION),
  };
  if (e.CHARGING_DATA) config.dataPath = e.CHARGING_DATA;
  if (e.CHARGING_REDIS_URL) config.redisUrl = e.CHARGING_REDIS_URL;
  if (e.CHARGING_LIVE_URL) {
    config.live = {
      baseUrl: e.CHARGING_LIVE_URL,
      allowHosts: e.CHARGING_LIVE_ALLOW_HOSTS ?? [new URL(e.CHARGING_LIVE_URL).hostname],
      allowAddresses: e.CHARGING_LIVE_ALLOW_ADDRESSES,
      timeoutMs: e.CHARGING_LIVE_TIMEOUT_MS,
    };
    if (e.CHARGING_LIVE_TOKEN) config.live.token = e.CHARGING_LIVE_TOKEN;
  } else if (e.CHARGING_LIVE_ALLOW_HOSTS || e.CHARGING_LIVE_TOKEN) {
    throw new ApiError("INVALID_CONFIG", "CHARGING_LIVE_ALLOW_HOSTS and CHARGING_LIVE_TOKEN need CHARGING_LIVE_URL");
  }
  return config;
}
