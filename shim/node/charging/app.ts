/**
 * Node wiring of the charging service, shared by `dist/charging.js` and `charging serve`:
 * environment, dataset file (or the embedded real data), the live feed behind the egress
 * guard with node:dns, then the Fetch handler on the Node adapter.
 * @module
 */
import { readFile } from "node:fs/promises";
import { crc32 } from "node:zlib";
import { ApiError, type ChargingConfig, type ChargingServices, createChargingHandler, createChargingServices, createGuardedLookup, createOcpiFeed, createRateLimiter, createSharedRateLimiter, createStore, createSwappableHandler, isApiError, isSnapshot, type LiveFeed, openSnapshot, openSnapshotPaced, parseChargingEnv, parseDatasetFile, type RateLimiter, type Store, storeOfSites } from "../../../src/charging/mod.ts";
import { pinnedFetch, resolveAll } from "../pinned-fetch.ts";
import { embeddedSnapshot } from "../../embedded/charging-snapshot.ts";
import { createRedisRateStore } from "../redis-rate-store.ts";
import { closeOnSignals, serve, type Serving } from "../serve.ts";
import { compressFast, NODE_ENCODINGS } from "./compress.ts";
import { type DataReloader, fileIdentity, noReloadOnHangup, reloadDataOnChange } from "./reload.ts";

/** A JSON data set bigger than this is refused with the command that converts it to a snapshot. */
const JSON_DATASET_MAX_BYTES = 256 * 1024 * 1024;

const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Opens snapshot bytes with Node's native CRC-32; searches pause with setImmediate. */
export function storeOfSnapshot(bytes: Uint8Array): Store {
  return createStore(openSnapshot(bytes, { crc32: (b) => crc32(b) }), { yieldNow });
}

/** `storeOfSnapshot`, its checks paced: the server keeps answering while a new data set opens. */
async function storeOfSnapshotPaced(bytes: Uint8Array): Promise<Store> {
  const snapshot = await openSnapshotPaced(bytes, { crc32: (b, previous) => crc32(b, previous ?? 0), yieldNow });
  return createStore(snapshot, { yieldNow });
}

async function readDataFile(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "error";
    throw new ApiError("INVALID_CONFIG", `CHARGING_DATA: cannot read ${path} (${code})`, { cause: err });
  }
}

function storeOfJson(path: string, bytes: Uint8Array): Store {
  if (bytes.byteLength > JSON_DATASET_MAX_BYTES) {
    throw new ApiError(
      "INVALID_CONFIG",
      `CHARGING_DATA: ${path} is a ${Math.round(bytes.byteLength / 1048576)} MB JSON data set; convert it once with \`charging import ${path} --out data.snapshot\` and serve the snapshot`,
    );
  }
  const { header, sites } = parseDatasetFile(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)));
  return storeOfSites(sites, header, { yieldNow });
}

/**
 * The store over a data-set file (a snapshot, or the JSON data-set format), or over the
 * embedded real data when `path` is undefined. A bad file is INVALID_CONFIG naming it.
 */
export async function loadStore(path?: string): Promise<Store> {
  if (path === undefined) return storeOfSnapshot(embeddedSnapshot());
  const bytes = await readDataFile(path);
  try {
    return isSnapshot(bytes) ? await storeOfSnapshotPaced(bytes) : storeOfJson(path, bytes);
  } catch (err) {
    if (isApiError(err, "INVALID_CONFIG")) throw err;
    throw new ApiError("INVALID_CONFIG", `CHARGING_DATA: ${path}: ${(err as Error).message}`, { cause: err });
  }
}

function liveFeed(config: ChargingConfig): LiveFeed | undefined {
  const live = config.live;
  if (!live) return undefined;
  const policy = { allowHosts: live.allowHosts, allowAddresses: live.allowAddresses, resolve: resolveAll };
  return createOcpiFeed({
    baseUrl: live.baseUrl,
    ...(live.token ? { token: live.token } : {}),
    timeoutMs: live.timeoutMs,
    policy,
    // Connections resolve through the same policy, so a DNS answer that changes after the
    // check (rebinding to a private address) gets no connection.
    fetchImpl: pinnedFetch(createGuardedLookup(policy)),
    now: () => new Date(),
  });
}

/** The services over `store` with the live feed `config` asks for (or `live`, kept across swaps). */
export function servicesFor(store: Store, config: ChargingConfig, live = liveFeed(config)): ChargingServices {
  return createChargingServices(store, { now: () => new Date(), ...(live ? { live } : {}) });
}

/** Waiting for Redis at start-up is bounded: the server starts anyway, counting per instance. */
const REDIS_START_WAIT_MS = 1000;

/** The per-client limit of `config`: per minute, for at most 50,000 clients at once. */
const limitOf = (config: ChargingConfig) => ({ limit: config.ratePerMinute, windowMs: 60_000, maxClients: 50_000 });

/** The limiter shared through Redis, and how the start-up line describes it. */
async function sharedLimiter(
  config: ChargingConfig,
  log: (line: string) => void,
): Promise<{ limiter?: RateLimiter; note: string }> {
  if (!config.redisUrl) return { note: "" };
  const store = createRedisRateStore(config.redisUrl);
  const up = await store.ready(REDIS_START_WAIT_MS);
  const limiter = createSharedRateLimiter({ ...limitOf(config), store, log });
  const note = up ? `, rate limit shared via ${store.label}` : `, ${store.label} unreachable: rate limit per instance until it answers`;
  return { limiter, note };
}

/** Reloads `CHARGING_DATA` into `swappable` on SIGHUP and when the file is replaced. */
function reloaderOf(
  config: ChargingConfig,
  identity: string | undefined,
  swappable: ReturnType<typeof createSwappableHandler>,
  log: (line: string) => void,
): DataReloader {
  const path = config.dataPath;
  if (path === undefined) return noReloadOnHangup(log);
  const live = liveFeed(config);
  return reloadDataOnChange({
    path,
    identity,
    // The new store serves once prepared (filter index, reference counts, sync order): the old one answers meanwhile.
    load: async (file) => {
      const store = await loadStore(file);
      await store.prepare();
      return store;
    },
    swap: (store) => swappable.swap(servicesFor(store, config, live)),
    current: () => swappable.services.store,
    log,
  });
}

/**
 * Validates `env`, loads the data and starts listening; drains and exits on SIGINT/SIGTERM,
 * reads `CHARGING_DATA` again on SIGHUP and when the file is replaced (see reload.ts).
 * The start-up line (URL and site count) is logged only once the signal handlers are in place.
 */
export async function startChargingServer(
  env: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void,
): Promise<Serving> {
  const config = parseChargingEnv(env);
  const identity = config.dataPath === undefined ? undefined : await fileIdentity(config.dataPath);
  const store = await loadStore(config.dataPath);
  // Paced, beside the first requests: liveness answers at once, and a query needing a part
  // (filter index, reference counts, sync order; about 1 s of CPU at 1,000,000 sites) before it
  // is ready waits for that part, so no later first query of a kind pays for it.
  store.prepare().catch((err: unknown) => log(`charging: preparing the data set failed: ${(err as Error).message}`));
  const services = servicesFor(store, config);
  const { limiter, note } = await sharedLimiter(config, log);
  // One limiter for every data set: a swap does not reset anyone's count.
  const rateLimiter = limiter ?? createRateLimiter(limitOf(config));
  // Loaded here, so the CLI's other commands never load the page's files (a chunk of their own).
  const { mapAssets } = await import("../../embedded/charging-map.ts");
  const map = mapAssets();
  const build = (current: ChargingServices) =>
    createChargingHandler({ ...current, ...config, log, encodings: NODE_ENCODINGS, compress: compressFast, rateLimiter, mapAssets: map });
  const swappable = createSwappableHandler(services, build);
  const serving = await serve(swappable.handle, { port: config.port, hostname: config.host });
  const reloader = reloaderOf(config, identity, swappable, log);
  const close = serving.close.bind(serving);
  serving.close = () => {
    reloader.close();
    return close();
  };
  closeOnSignals(serving, log);
  const gate = config.apiKeys.length > 0 ? `, key gate on (${config.apiKeys.length} keys)` : "";
  log(`charging: listening on ${serving.url} (${services.store.size} sites${gate}${note})`);
  return serving;
}
