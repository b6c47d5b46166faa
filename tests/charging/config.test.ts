import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_MAP_TILES, parseChargingEnv } from "../../src/charging/config.ts";
import { isApiError } from "../../src/shared/errors.ts";

test("parseChargingEnv() fills the documented defaults", () => {
  assert.deepEqual(parseChargingEnv({}), {
    port: 8787,
    host: "127.0.0.1",
    apiKeys: [],
    corsOrigins: "*",
    trustedProxies: 0,
    ratePerMinute: 60,
    maxBodyBytes: 65536,
    mapTiles: {
      url: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
      attribution: { text: "© OpenStreetMap contributors", url: "https://www.openstreetmap.org/copyright" },
    },
  });
  assert.equal(parseChargingEnv({ PORT: "" }).port, 8787, "empty counts as unset");
});

test("parseChargingEnv() reads every variable", () => {
  const config = parseChargingEnv({
    PORT: "0",
    HOST: "::",
    CHARGING_DATA: "/data/sites.json",
    CHARGING_API_KEYS: " key-aaaaaaaaaaaaaaaa , key-bbbbbbbbbbbbbbbb ",
    CHARGING_CORS_ORIGINS: "https://map.example, http://localhost:5173",
    CHARGING_TRUST_PROXY: "2",
    CHARGING_RATE_LIMIT: "120",
    CHARGING_MAX_BODY_BYTES: "1024",
    CHARGING_LIVE_URL: "https://feed.example/ocpi/2.2.1/locations",
    CHARGING_LIVE_TOKEN: "tok",
    CHARGING_LIVE_ALLOW_ADDRESSES: "10.0.0.0/8",
    CHARGING_LIVE_TIMEOUT_MS: "500",
    CHARGING_REDIS_URL: "redis://user:secret@cache.internal:6380/2",
    CHARGING_MAP_TILES: "https://tiles.example:8443/osm/{z}/{x}/{y}.png?key=k",
    CHARGING_MAP_ATTRIBUTION: "© Example Tiles, © OpenStreetMap contributors",
    UNRELATED: "x",
  });
  assert.deepEqual(config, {
    port: 0,
    host: "::",
    dataPath: "/data/sites.json",
    apiKeys: ["key-aaaaaaaaaaaaaaaa", "key-bbbbbbbbbbbbbbbb"],
    corsOrigins: ["https://map.example", "http://localhost:5173"],
    trustedProxies: 2,
    ratePerMinute: 120,
    maxBodyBytes: 1024,
    redisUrl: "redis://user:secret@cache.internal:6380/2",
    live: {
      baseUrl: "https://feed.example/ocpi/2.2.1/locations",
      token: "tok",
      allowHosts: ["feed.example"],
      allowAddresses: ["10.0.0.0/8"],
      timeoutMs: 500,
    },
    mapTiles: { url: "https://tiles.example:8443/osm/{z}/{x}/{y}.png?key=k", attribution: { text: "© Example Tiles, © OpenStreetMap contributors" } },
  });
  const hosts = parseChargingEnv({
    CHARGING_LIVE_URL: "https://a.example/x",
    CHARGING_LIVE_ALLOW_HOSTS: "b.example",
  });
  assert.deepEqual(hosts.live?.allowHosts, ["b.example"]);
  assert.equal(parseChargingEnv({ CHARGING_MAP_TILES: "off" }).mapTiles, null, "off: no base map");
  const otherHost = parseChargingEnv({ CHARGING_MAP_TILES: "http://127.0.0.1:9/{z}/{x}/{y}.png" }).mapTiles;
  assert.deepEqual(otherHost, { ...DEFAULT_MAP_TILES, url: "http://127.0.0.1:9/{z}/{x}/{y}.png" }, "the credit stays OpenStreetMap's until set");
});

test("parseChargingEnv() refuses bad values, naming the variable and the rule", () => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: "http" }, /PORT must be an integer from 0 to 65535/],
    [{ PORT: "70000" }, /PORT must be an integer from 0 to 65535/],
    [{ CHARGING_API_KEYS: "short" }, /CHARGING_API_KEYS entries must be at least 16 printable characters/],
    [{ CHARGING_API_KEYS: " , " }, /CHARGING_API_KEYS must hold at least one key/],
    [{ CHARGING_CORS_ORIGINS: "map.example" }, /CHARGING_CORS_ORIGINS must be \* or comma-separated origins/],
    [{ CHARGING_CORS_ORIGINS: "https://map.example/path" }, /CHARGING_CORS_ORIGINS/],
    [{ CHARGING_TRUST_PROXY: "-1" }, /CHARGING_TRUST_PROXY must be an integer from 0 to 10/],
    [{ CHARGING_RATE_LIMIT: "0" }, /CHARGING_RATE_LIMIT must be an integer from 1/],
    [{ CHARGING_MAX_BODY_BYTES: "10" }, /CHARGING_MAX_BODY_BYTES must be an integer from 1024/],
    [{ CHARGING_LIVE_URL: "ftp://x" }, /CHARGING_LIVE_URL must be an absolute http\(s\) URL/],
    [{ CHARGING_LIVE_URL: "not a url" }, /CHARGING_LIVE_URL/],
    [{ CHARGING_LIVE_TIMEOUT_MS: "5" }, /CHARGING_LIVE_TIMEOUT_MS/],
    [{ CHARGING_LIVE_ALLOW_HOSTS: "a.example" }, /need CHARGING_LIVE_URL/],
    [{ CHARGING_REDIS_URL: "http://127.0.0.1:6379" }, /CHARGING_REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
    [{ CHARGING_REDIS_URL: "127.0.0.1:6379" }, /CHARGING_REDIS_URL/],
    [{ CHARGING_MAP_TILES: "https://tile.example/{z}/{x}.png" }, /CHARGING_MAP_TILES must be off or an http\(s\) URL template with \{z\}, \{x\} and \{y\}/],
    [{ CHARGING_MAP_TILES: "https://{s}.tile.example/{z}/{x}/{y}.png" }, /CHARGING_MAP_TILES/],
    [{ CHARGING_MAP_TILES: "file:///tiles/{z}/{x}/{y}.png" }, /CHARGING_MAP_TILES/],
    [{ CHARGING_MAP_TILES: "not a url {z}{x}{y}" }, /CHARGING_MAP_TILES/],
    [{ CHARGING_MAP_ATTRIBUTION: "x".repeat(301) }, /CHARGING_MAP_ATTRIBUTION must be at most 300 characters/],
  ];
  for (const [env, message] of cases) {
    assert.throws(
      () => parseChargingEnv(env),
      (err: unknown) => isApiError(err, "INVALID_CONFIG") && message.test(err.message),
      JSON.stringify(env),
    );
  }
  assert.throws(
    () => parseChargingEnv({ PORT: "x", CHARGING_RATE_LIMIT: "y" }),
    /PORT.*; CHARGING_RATE_LIMIT/,
  );
});
